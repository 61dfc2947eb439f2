import CaffeCore
import CaffeProtocol
import Foundation
import Localization
import SwiftProtobuf

/// One thread's share of a ``ConfigurationDiff``: its own sessions of each configuration (and of
/// each single change, made when first needed) and what it found.
struct Lane {
    /// What every lane shares: the cores (immutable) and the changes they stand for.
    struct Setup: @unchecked Sendable {
        var before: RenderingCore
        var after: RenderingCore
        /// `singles[i]`: the configuration before with only `changes[i]` made; `nil` where that
        /// is not a configuration (the change then counts as changing every output it could).
        var singles: [RenderingCore?]
        var changes: [CatalogChange]
        var examples: Int
        var maxCandidates: Int
    }

    /// An event's outputs in one configuration, or why it has none.
    enum Outcome {
        case order(confirmation: [UInt8], receipt: [UInt8], localization: String, customerLocale: String)
        case complication(payload: [UInt8], locale: String)
        case failed(reason: String, detail: String)
    }

    enum Kind { case order, complication }

    let setup: Setup
    let before: RenderSession
    let after: RenderSession
    private var singles: [Int: RenderSession?] = [:]
    private var candidatesByLocale: [String: [Int]] = [:]
    var tally = Tally()

    init(_ setup: Setup) {
        self.setup = setup
        before = setup.before.makeSession()
        after = setup.after.makeSession()
    }

    mutating func take(_ record: Caffe_V1_JournalRecord) {
        guard let header = try? Caffe_V1_EventHeader(serializedBytes: record.header) else {
            tally.skipped += 1
            return
        }
        let kind: Kind
        switch header.bodyType {
        case Caffe_V1_OrderEvent.protoMessageName:
            kind = .order
            tally.orders += 1
        case Caffe_V1_ComplicationRequest.protoMessageName:
            kind = .complication
            tally.complications += 1
        default:
            tally.skipped += 1
            return
        }
        let id = header.orderID.isEmpty ? "\(header.sourceID)#\(header.sequence)" : header.orderID
        let old = Self.render(before, kind, record.body)
        let new = Self.render(after, kind, record.body)
        // Each change this event can see (the same candidates attribution tries) is reached by it.
        if let locale = Self.locale(of: new) ?? Self.locale(of: old) {
            for index in candidates(for: locale) { tally.reachingByChange[index, default: 0] += 1 }
        }
        switch (old, new) {
        case (.failed(let was, _), .failed(let now, let detail)):
            if was == now {
                tally.failingInBoth += 1
            } else {
                fail("differs", "\(was) → \(now)", id, detail)
            }
        case (.failed(let reason, let detail), _):
            fail("disappears", reason, id, detail)
            attributeFailure(kind, record.body, locale: Self.locale(of: new), failsBefore: true)
        case (_, .failed(let reason, let detail)):
            fail("appears", reason, id, detail)
            attributeFailure(kind, record.body, locale: Self.locale(of: old), failsBefore: false)
        case (
            .order(let confirmation, let receipt, _, let customerLocale),
            .order(let newConfirmation, let newReceipt, let localization, _)
        ):
            guard confirmation != newConfirmation || receipt != newReceipt else { return }
            tally.changedEvents += 1
            let candidates = candidates(for: customerLocale)
            var confirmations: [Int: [UInt8]?] = [:]
            var receipts: [Int: [UInt8]?] = [:]
            for index in candidates.count <= setup.maxCandidates ? candidates : [] {
                // No configuration with this change alone: it is not named alone.
                guard let session = session(index) else { continue }
                guard case .order(let single, let singleReceipt, _, _) = Self.render(session, kind, record.body) else {
                    // It fails with this change alone: the change alone changes both.
                    confirmations[index] = .some(nil)
                    receipts[index] = .some(nil)
                    continue
                }
                if single != confirmation { confirmations[index] = single }
                if singleReceipt != receipt { receipts[index] = singleReceipt }
            }
            if confirmation != newConfirmation {
                count(.confirmation, localization, id, confirmation, newConfirmation, alone: confirmations, candidates)
            }
            if receipt != newReceipt {
                count(.receipt, localization, id, receipt, newReceipt, alone: receipts, candidates)
            }
        case (.complication(let payload, let locale), .complication(let newPayload, let newLocale)):
            guard payload != newPayload else { return }
            tally.changedEvents += 1
            let candidates = candidates(for: locale)
            var payloads: [Int: [UInt8]?] = [:]
            for index in candidates.count <= setup.maxCandidates ? candidates : [] {
                guard let session = session(index) else { continue }
                guard case .complication(let single, _) = Self.render(session, kind, record.body) else {
                    payloads[index] = .some(nil)
                    continue
                }
                if single != payload { payloads[index] = single }
            }
            // Grouped by the localization used, as orders are (the request's locale may carry -u-hc).
            let localization = setup.after.catalog.fallbackChain(for: newLocale).first ?? newLocale
            count(.complication, localization, id, payload, newPayload, alone: payloads, candidates)
        default:
            break
        }
    }

    // MARK: Attribution

    /// The locale an outcome was rendered for; `nil` for a failure.
    static func locale(of outcome: Outcome) -> String? {
        switch outcome {
        case .order(_, _, _, let locale), .complication(_, let locale): locale
        case .failed: nil
        }
    }

    /// Counts an event that fails in one configuration only under the keys whose change alone
    /// makes it fail (`failsBefore`: renders) as it does after, or under all the candidates.
    private mutating func attributeFailure(_ kind: Kind, _ body: Data, locale: String?, failsBefore: Bool) {
        guard let locale else { return }
        let candidates = candidates(for: locale)
        var alone: [Int] = []
        for index in candidates.count <= setup.maxCandidates ? candidates : [] {
            guard let session = session(index) else { continue }
            let fails = if case .failed = Self.render(session, kind, body) { true } else { false }
            if fails != failsBefore { alone.append(index) }
        }
        for index in alone.isEmpty ? candidates : alone { tally.failuresByChange[index, default: 0] += 1 }
    }

    /// The changes an output in `locale` can see: those of the localizations it falls back
    /// through (before or after the change), non-localized tables, and the menu.
    private mutating func candidates(for locale: String) -> [Int] {
        if let known = candidatesByLocale[locale] { return known }
        let chain = Set(
            setup.before.catalog.fallbackChain(for: locale) + setup.after.catalog.fallbackChain(for: locale)
                + [StringCatalog.nonLocalized, setup.before.catalog.developmentLanguage]
        )
        let found = setup.changes.indices.filter { index in
            let change = setup.changes[index]
            return change == .menuFile || chain.contains(change.localization)
        }
        candidatesByLocale[locale] = found
        return found
    }

    /// A session of the configuration with only change `index` made; `nil` where there is none.
    private mutating func session(_ index: Int) -> RenderSession? {
        if let made = singles[index] { return made }
        let made = setup.singles[index]?.makeSession()
        singles[index] = .some(made)
        return made
    }

    /// Counts one changed output under each key that changes it alone (`alone`: the output with
    /// only that key changed, `nil` where it then fails), or, when none does, under all
    /// `candidates` together; past ``Setup/maxCandidates`` they are not tried one by one.
    private mutating func count(
        _ output: Output,
        _ locale: String,
        _ id: String,
        _ before: [UInt8],
        _ after: [UInt8],
        alone: [Int: [UInt8]?],
        _ candidates: [Int]
    ) {
        let name =
            switch output {
            case .confirmation: "confirmation"
            case .receipt: "receipt"
            case .complication: "complication"
            }
        let groups: [([Int], [UInt8]?, ConfigurationDiff.Attribution)] =
            if candidates.count > setup.maxCandidates {
                [(candidates, nil, .notSplit)]
            } else if !alone.isEmpty {
                alone.keys.sorted().map { ([$0], alone[$0] ?? nil, .alone) }
            } else if candidates.isEmpty {
                [([], nil, .unexplained)]
            } else {
                [(candidates, nil, .together)]
            }
        for (indices, focus, attribution) in groups {
            let key = Tally.ChangeKey(
                output: name,
                locale: locale,
                keys: indices.map { setup.changes[$0] },
                attribution: attribution
            )
            var current = tally.changes[key] ?? (0, [])
            current.count += 1
            if current.examples.count < setup.examples {
                current.examples.append(Self.example(id, output, before: before, after: after, focus: focus))
            }
            tally.changes[key] = current
        }
    }

    private mutating func fail(_ change: String, _ reason: String, _ id: String, _ detail: String) {
        let key = Tally.FailureKey(change: change, reason: reason)
        var current = tally.failures[key] ?? (0, [])
        current.count += 1
        if current.examples.count < setup.examples {
            current.examples.append(ConfigurationDiff.FailureExample(id: id, detail: detail))
        }
        tally.failures[key] = current
    }

    // MARK: Rendering

    static func render(_ session: RenderSession, _ kind: Kind, _ body: Data) -> Outcome {
        body.withUnsafeBytes { bytes in
            do {
                switch kind {
                case .order:
                    let rendered = try session.renderOrder(bytes: bytes)
                    return .order(
                        confirmation: Array(rendered.confirmation),
                        receipt: Array(rendered.receipt),
                        localization: rendered.localization,
                        customerLocale: rendered.customerLocale
                    )
                case .complication:
                    let rendered = try session.renderComplication(bytes: bytes)
                    return .complication(payload: Array(rendered.payload), locale: rendered.locale)
                }
            } catch let error as RenderError {
                return .failed(reason: error.code.description, detail: error.description)
            } catch let error as CaffeProtocolError {
                return .failed(reason: error.code == .malformed ? "malformed" : "invalid", detail: error.description)
            } catch {
                return .failed(reason: "invalid", detail: "\(error)")
            }
        }
    }

    // MARK: Examples

    /// An output's texts by field, in the order they are compared.
    typealias Fields = [(name: String, text: Caffe_V1_StyledText)]

    enum Output { case confirmation, receipt, complication }

    static func fields(_ output: Output, _ bytes: [UInt8]) -> Fields {
        switch output {
        case .confirmation:
            let message = (try? Caffe_V1_Confirmation(serializedBytes: bytes)) ?? Caffe_V1_Confirmation()
            return [
                ("greeting", message.greeting), ("summary", message.summary), ("item_count", message.itemCount),
                ("pickup", message.pickup), ("text", message.text),
            ]
        case .receipt:
            let message = (try? Caffe_V1_Receipt(serializedBytes: bytes)) ?? Caffe_V1_Receipt()
            var fields: Fields = []
            for (index, line) in message.lines.enumerated() {
                fields.append(("lines[\(index)].description", line.description_p))
                fields.append(("lines[\(index)].formatted_price", line.formattedPrice))
            }
            return fields + [("text", message.text)]
        case .complication:
            let message = (try? Caffe_V1_ComplicationPayload(serializedBytes: bytes)) ?? Caffe_V1_ComplicationPayload()
            return message.entries.enumerated().map { ("entries[\($0.offset)]", $0.element.text) }
        }
    }

    /// The example of one output's change: the first field where `focus` (the output with only the
    /// key in question changed; the whole change when `nil`) differs from `before` — plain text
    /// first, else styling, shown as runs — with that field's text before and after the change.
    static func example(
        _ id: String,
        _ output: Output,
        before: [UInt8],
        after: [UInt8],
        focus: [UInt8]?
    ) -> ConfigurationDiff.Example {
        let was = fields(output, before)
        let now = Dictionary(fields(output, after).map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })
        let target = Dictionary(
            fields(output, focus ?? after).map { ($0.name, $0.text) },
            uniquingKeysWith: { first, _ in first }
        )
        if let (name, text) = was.first(where: { target[$0.name]?.plain != $0.text.plain }) {
            let (old, new) = excerpts(text.plain, now[name]?.plain ?? "")
            return ConfigurationDiff.Example(id: id, field: name, before: old, after: new, stylingOnly: false)
        }
        if let (name, text) = was.first(where: { target[$0.name] != $0.text }) {
            let (old, new) = excerpts(runs(text), now[name].map(runs) ?? "")
            return ConfigurationDiff.Example(id: id, field: name, before: old, after: new, stylingOnly: true)
        }
        return ConfigurationDiff.Example(id: id, field: "", before: "", after: "", stylingOnly: false)
    }

    /// Long texts cut to what differs and `context` characters around it, `…` where cut.
    static func excerpts(_ before: String, _ after: String, context: Int = 24) -> (String, String) {
        let old = Array(before)
        let new = Array(after)
        guard max(old.count, new.count) > 3 * context else { return (before, after) }
        var head = 0
        while head < min(old.count, new.count), old[head] == new[head] { head += 1 }
        var tail = 0
        while tail < min(old.count, new.count) - head, old[old.count - 1 - tail] == new[new.count - 1 - tail] {
            tail += 1
        }
        func cut(_ text: [Character]) -> String {
            // At word boundaries: from the start of a word, to the end of one.
            var start = max(0, head - context)
            while start > 0, !text[start - 1].isWhitespace { start -= 1 }
            var end = min(text.count, text.count - tail + context)
            while end < text.count, !text[end].isWhitespace { end += 1 }
            return (start > 0 ? "…" : "") + String(text[start..<end]) + (end < text.count ? "…" : "")
        }
        return (cut(old), cut(new))
    }

    /// Runs as `text{attribute=value,…}`, attributes sorted.
    static func runs(_ text: Caffe_V1_StyledText) -> String {
        text.runs.map { run in
            run.attributes.isEmpty
                ? run.text
                : run.text + "{"
                    + run.attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
                    + "}"
        }.joined()
    }
}
