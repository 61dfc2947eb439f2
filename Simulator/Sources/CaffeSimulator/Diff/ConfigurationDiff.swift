import CaffeCore
import CaffeProtocol
import Dispatch
import Foundation
import Localization
import Synchronization

/// What a configuration change (catalog, menu) does to what customers receive: every order and
/// complication request of a journal rendered through the configuration before and after, on the
/// bytes path the worker uses, and every output that differs explained by the catalog keys that
/// make it differ (`caffe-sim diff`).
///
/// Each changed output is attributed by rendering it once more per candidate key — the changed
/// keys of the localizations its locale falls back through — with only that key's new value: the
/// keys whose new value alone changes the output are named. An output that changes only when
/// several keys change together is named under all of them (``Attribution/together``).
public struct ConfigurationDiff: Sendable {
    public struct Configuration: Sendable {
        public var journal: URL
        public var before: URL
        public var after: URL
        /// Render threads; 0: one per core.
        public var threads: Int = 0
        /// Example orders kept per change.
        public var examples: Int = 3
        /// Candidate keys at most for attributing one output; past it, all candidates are named.
        public var maxCandidates: Int = 24

        public init(journal: URL, before: URL, after: URL) {
            self.journal = journal
            self.before = before
            self.after = after
        }
    }

    /// One order (or request) whose output changed: the field that differs first, both texts.
    public struct Example: Codable, Sendable, Equatable {
        /// The order id, or the complication's request id.
        public var id: String
        /// `greeting`, `summary`, `item_count`, `pickup`, `text`, `lines[2].description`,
        /// `entries[0]` (the family's text)…
        public var field: String
        public var before: String
        public var after: String
        /// The plain text is the same; only the styling (runs, HTML) differs — shown as runs.
        public var stylingOnly: Bool

        enum CodingKeys: String, CodingKey {
            case id, field, before, after
            case stylingOnly = "styling_only"
        }
    }

    /// The outputs of one kind in one localization that one key (or several together) changes.
    public struct Change: Codable, Sendable, Equatable {
        /// `confirmation`, `receipt` or `complication`.
        public var output: String
        /// The localization the output is rendered in (after the change).
        public var locale: String
        /// The key, `Table:key [localization]`; several joined with " + " when only together.
        public var key: String
        /// The `--allow` names of the keys (`Table:key`).
        public var keys: [String]
        /// How the keys were found.
        public var attribution: Attribution
        /// Orders (or requests) whose output changed.
        public var count: Int
        public var examples: [Example]
    }

    /// How a change's keys were found.
    public enum Attribution: String, Codable, Sendable, Hashable {
        /// Each key's new value alone changes the output.
        case alone
        /// No key alone does; all the candidates together do.
        case together
        /// Too many candidate keys to try one by one (``Configuration/maxCandidates``): all named.
        case notSplit = "not-split"
        /// No changed key reaches the output's locale (a fallback moved): none named.
        case unexplained
    }

    /// One key that differs between the configurations: its values, and what the journal made of
    /// it. A key no output shows was not checked by this journal: no event asks for a locale that
    /// falls back to its localization, or those that do never show it.
    public struct KeyChange: Codable, Sendable, Equatable {
        /// `Table:key [localization]` (`menu.json` for the menu).
        public var key: String
        /// The name `--allow` takes: `Table:key`.
        public var name: String
        public var localization: String
        /// `changed`, `added` or `removed`.
        public var kind: CatalogChange.Kind
        /// The value before and after as the catalog has it (plural variants as `one: …; other: …`);
        /// `nil` where the key is absent, and for the menu.
        public var before: String?
        public var after: String?
        /// Events whose locale falls back through the key's localization.
        public var eventsReaching: Int
        /// Outputs counted under the key (alone, together with others, or not split).
        public var outputsChanged: Int
        /// Events that render in one configuration only because of the key (a menu item removed).
        public var failuresCaused: Int

        /// Whether any output or dead letter showed the change.
        public var isSeen: Bool { outputsChanged + failuresCaused > 0 }

        /// `258 outputs changed`, `, 12 events fail differently` added where some do.
        public var seenSummary: String {
            var text = "\(outputsChanged) output\(outputsChanged == 1 ? "" : "s") changed"
            if failuresCaused > 0 {
                text += ", \(failuresCaused) event\(failuresCaused == 1 ? "" : "s") rendered in one configuration only"
            }
            return text
        }

        /// Why the journal did not check the key; `nil` when it did.
        public var unseenReason: String? {
            guard !isSeen else { return nil }
            if eventsReaching == 0 {
                return localization.isEmpty
                    ? "the journal has no event" : "no event of the journal falls back to \(localization)"
            }
            return "\(eventsReaching) event\(eventsReaching == 1 ? " falls" : "s fall") back to "
                + (localization.isEmpty ? "it" : localization) + ", and none shows a difference: no event uses it, "
                + "or its new value renders alike"
        }

        enum CodingKeys: String, CodingKey {
            case key, name, localization, kind, before, after
            case eventsReaching = "events_reaching"
            case outputsChanged = "outputs_changed"
            case failuresCaused = "failures_caused"
        }
    }

    /// Events that render in one configuration and not in the other (or fail differently).
    public struct Failure: Codable, Sendable, Equatable {
        /// `appears` (renders before, dead-lettered after), `disappears`, or `differs`.
        public var change: String
        /// The reason in the configuration that fails (after, or before for `disappears`).
        public var reason: String
        public var count: Int
        /// Up to the example count: id and the error's text.
        public var examples: [FailureExample]
    }

    public struct FailureExample: Codable, Sendable, Equatable {
        public var id: String
        public var detail: String
    }

    public struct Report: Codable, Sendable {
        public var journal: String
        public var before: String
        public var after: String
        public var orders = 0
        public var complications = 0
        /// Records that are neither (heartbeats).
        public var skipped = 0
        /// Events with at least one output that differs.
        public var changedEvents = 0
        /// Events that fail in both configurations the same way.
        public var failingInBoth = 0
        /// Every catalog key (and the menu) that differs, `Table:key [localization]`.
        public var catalogChanges: [String] = []
        /// The same keys with their values and whether the journal showed each one at all.
        public var keyChanges: [KeyChange] = []
        public var changes: [Change] = []
        public var failures: [Failure] = []
        public var threads = 0
        public var seconds = 0.0

        enum CodingKeys: String, CodingKey {
            case journal, before, after, orders, complications, skipped
            case changedEvents = "changed_events"
            case failingInBoth = "failing_in_both"
            case catalogChanges = "catalog_changes"
            case keyChanges = "key_changes"
            case changes, failures, threads, seconds
        }
    }

    public let configuration: Configuration

    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Renders the journal through both configurations; `progress` hears (done, total) about
    /// twice a second from the calling thread.
    public func run(progress: (Int, Int) -> Void = { _, _ in }) throws -> Report {
        let started = ContinuousClock.now
        let before = try RenderingCore(configurationDirectory: configuration.before)
        let after = try RenderingCore(configurationDirectory: configuration.after)
        var changes = CatalogChange.changes(from: before.catalog, to: after.catalog)
        // The menus as JSON values: an edit of layout alone is no change.
        func menuJSON(_ folder: URL) -> NSObject? {
            (try? Data(contentsOf: folder.appendingPathComponent("menu.json")))
                .flatMap { try? JSONSerialization.jsonObject(with: $0) as? NSObject }
        }
        if menuJSON(configuration.before) != menuJSON(configuration.after) { changes.append(.menuFile) }
        // One core per change: the configuration before with only that change made (none where
        // that alone is not a configuration a core accepts, such as a menu name removed).
        let singles: [RenderingCore?] = changes.map { change in
            if change == .menuFile { return Self.menuOnly(before: before, after: after) }
            let entry = after.catalog.allEntries(table: change.table, localization: change.localization)[change.key]
            return try? RenderingCore(
                catalog: before.catalog.replacing(
                    change.key,
                    table: change.table,
                    localization: change.localization,
                    with: entry
                ),
                menu: before.menu
            )
        }
        let contents = try Journal.read(configuration.journal)
        // A diff over part of a journal would say "nothing changed" of what it never read.
        if let damage = contents.error {
            var error = damage
            error.message =
                "\(configuration.journal.path): \(damage.message); the diff reads a whole journal or none"
            throw error
        }
        let entries = contents.entries
        let threads = configuration.threads > 0 ? configuration.threads : ProcessInfo.processInfo.activeProcessorCount
        let lanes = max(1, min(threads, entries.count / 64 + 1))
        let done = Atomic<Int>(0)
        let results = Mutex<[Int: Tally]>([:])
        let group = DispatchGroup()
        let chunk = (entries.count + lanes - 1) / lanes
        let setup = Lane.Setup(
            before: before,
            after: after,
            singles: singles,
            changes: changes,
            examples: configuration.examples,
            maxCandidates: configuration.maxCandidates
        )
        for lane in 0..<lanes {
            let range = (lane * chunk)..<min(entries.count, (lane + 1) * chunk)
            group.enter()
            Thread {
                var worker = Lane(setup)
                for (index, entry) in zip(range, entries[range]) {
                    worker.take(entry.record)
                    if index & 1023 == 1023 { done.add(1024, ordering: .relaxed) }
                }
                results.withLock { $0[lane] = worker.tally }
                group.leave()
            }.start()
        }
        while group.wait(timeout: .now() + .milliseconds(500)) == .timedOut {
            progress(min(done.load(ordering: .relaxed), entries.count), entries.count)
        }
        progress(entries.count, entries.count)
        var total = Tally()
        for lane in 0..<lanes {
            if let tally = results.withLock({ $0[lane] }) { total.merge(tally, keep: configuration.examples) }
        }
        var report = Report(
            journal: configuration.journal.path,
            before: configuration.before.path,
            after: configuration.after.path
        )
        report.orders = total.orders
        report.complications = total.complications
        report.skipped = total.skipped
        report.changedEvents = total.changedEvents
        report.failingInBoth = total.failingInBoth
        report.catalogChanges = changes.map(\.description)
        report.keyChanges = changes.enumerated().map { index, change in
            KeyChange(
                key: change.description,
                name: change.name,
                localization: change.localization,
                kind: change.kind,
                before: change == .menuFile ? nil : Self.value(of: change, in: before.catalog),
                after: change == .menuFile ? nil : Self.value(of: change, in: after.catalog),
                eventsReaching: total.reachingByChange[index] ?? 0,
                outputsChanged: total.changes.reduce(0) { sum, entry in
                    sum + (entry.key.keys.contains(change) ? entry.value.count : 0)
                },
                failuresCaused: total.failuresByChange[index] ?? 0
            )
        }
        report.changes = total.changes.map { key, value in
            Change(
                output: key.output,
                locale: key.locale,
                key: key.keys.isEmpty
                    ? "(no changed key reaches it)" : key.keys.map(\.description).joined(separator: " + "),
                keys: key.keys.map(\.name),
                attribution: key.attribution,
                count: value.count,
                examples: value.examples
            )
        }.sorted { ($0.output, $0.locale, $0.key) < ($1.output, $1.locale, $1.key) }
        report.failures = total.failures.map { key, value in
            Failure(change: key.change, reason: key.reason, count: value.count, examples: value.examples)
        }.sorted { ($0.change, $0.reason) < ($1.change, $1.reason) }
        report.threads = lanes
        report.seconds = PipelineBenchmark.seconds(ContinuousClock.now - started)
        return report
    }
}

extension ConfigurationDiff {
    /// The configuration before with the menu after: where the new menu names items the catalog
    /// before lacks, with those names (in every localization) taken from the catalog after, since
    /// a menu without its names is no configuration. `nil` when even that is not one.
    static func menuOnly(before: RenderingCore, after: RenderingCore) -> RenderingCore? {
        if let core = try? RenderingCore(catalog: before.catalog, menu: after.menu) { return core }
        let table = after.menu.nameTable
        let development = before.catalog.developmentLanguage
        let named = Set(before.catalog.entries(table: table, localization: development).map(\.key))
        var catalog = before.catalog
        for key in after.menu.nameKeys.subtracting(named).sorted() {
            for localization in after.catalog.localizations(table: table) {
                guard let entry = after.catalog.entry(key, table: table, localization: localization) else { continue }
                catalog = catalog.replacing(key, table: table, localization: localization, with: entry)
            }
        }
        return try? RenderingCore(catalog: catalog, menu: after.menu)
    }
}

extension ConfigurationDiff {
    /// A key's value in `catalog` as written, plural variants as `one: …; other: …`.
    static func value(of change: CatalogChange, in catalog: StringCatalog) -> String? {
        catalog.allEntries(table: change.table, localization: change.localization)[change.key]?.value.displayText
    }
}

extension StringCatalog {
    /// The entries of one table in one localization (``nonLocalized`` included), by key.
    func allEntries(table: String, localization: String) -> [String: CatalogEntry] {
        let list =
            localization == StringCatalog.nonLocalized
            ? nonLocalizedEntries(table: table) : entries(table: table, localization: localization)
        return Dictionary(list.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// What one lane (or all of them) found, examples in journal order.
struct Tally {
    struct ChangeKey: Hashable {
        var output: String
        var locale: String
        var keys: [CatalogChange]
        var attribution: ConfigurationDiff.Attribution
    }

    struct FailureKey: Hashable {
        var change: String
        var reason: String
    }

    var orders = 0
    var complications = 0
    var skipped = 0
    var changedEvents = 0
    var failingInBoth = 0
    var changes: [ChangeKey: (count: Int, examples: [ConfigurationDiff.Example])] = [:]
    var failures: [FailureKey: (count: Int, examples: [ConfigurationDiff.FailureExample])] = [:]
    /// Events whose locale can see each change (``Lane`` candidates), by the change's index.
    var reachingByChange: [Int: Int] = [:]
    /// Events that render in one configuration only, by the index of the change that does it.
    var failuresByChange: [Int: Int] = [:]

    mutating func merge(_ other: Tally, keep: Int) {
        reachingByChange.merge(other.reachingByChange, uniquingKeysWith: +)
        failuresByChange.merge(other.failuresByChange, uniquingKeysWith: +)
        orders += other.orders
        complications += other.complications
        skipped += other.skipped
        changedEvents += other.changedEvents
        failingInBoth += other.failingInBoth
        for (key, value) in other.changes {
            var current = changes[key] ?? (0, [])
            current.count += value.count
            current.examples += value.examples.prefix(max(0, keep - current.examples.count))
            changes[key] = current
        }
        for (key, value) in other.failures {
            var current = failures[key] ?? (0, [])
            current.count += value.count
            current.examples += value.examples.prefix(max(0, keep - current.examples.count))
            failures[key] = current
        }
    }
}

extension ConfigurationDiff {
    /// What makes `caffe-sim diff` exit 1.
    public enum Gate: String, Sendable, CaseIterable, Codable {
        /// Any output changed by a key not named in `--allow`.
        case changed
        /// Any event that rendered before and is dead-lettered after (or fails differently).
        case failures
    }

    /// Why each gate in `gates` trips, one line per reason; empty when none does.
    ///
    /// Under `changed`, a key no output showed trips too — the journal did not check it — unless
    /// `allowUnreached` or `--allow` names it; under any gate, an `--allow` entry that names no key
    /// that differs trips (a typo would otherwise allow nothing, silently).
    public static func trips(_ report: Report, gates: Set<Gate>, allow: [String], allowUnreached: Bool = false)
        -> [String]
    {
        var reasons: [String] = []
        if gates.contains(.changed) {
            for change in report.changes where !change.keys.allSatisfy({ allowed($0, allow) }) || change.keys.isEmpty {
                reasons.append("changed: \(change.count) \(change.output)s in \(change.locale) by \(change.key)")
            }
            for key in report.keyChanges where !allowUnreached && !allowed(key.name, allow) {
                guard let reason = key.unseenReason else { continue }
                reasons.append(
                    "changed: \(key.key) not checked: \(reason) (--allow-unreached, or --allow \(key.name), accepts it)"
                )
            }
        }
        if !gates.isEmpty {
            for entry in unmatched(allow, report) {
                reasons.append("allow: '\(entry)' names no key that differs")
            }
        }
        if gates.contains(.failures) {
            for failure in report.failures where failure.change != "disappears" {
                reasons.append(
                    "failures: \(failure.count) \(failure.change == "appears" ? "now fail" : "fail differently") (\(failure.reason))"
                )
            }
        }
        return reasons
    }

    /// The `--allow` entries that name no key that differs.
    public static func unmatched(_ allow: [String], _ report: Report) -> [String] {
        allow.filter { entry in !report.keyChanges.contains { allowed($0.name, [entry]) } }
    }

    /// Whether `--allow` names the key `name` (`Table:key`), whole or by its key alone.
    static func allowed(_ name: String, _ allow: [String]) -> Bool {
        allow.contains(name) || allow.contains(String(name.split(separator: ":", maxSplits: 1).last ?? ""))
    }

    /// The terminal summary.
    public static func summary(_ report: Report, allow: [String] = []) -> String {
        var lines: [String] = []
        lines.append(
            String(
                format: "caffe-sim diff: %d orders, %d complication requests in %.2f s on %d threads (%.0f events/s)",
                report.orders,
                report.complications,
                report.seconds,
                report.threads,
                Double(report.orders + report.complications) / max(report.seconds, 1e-9)
            )
        )
        lines.append("  before \(report.before)")
        lines.append("  after  \(report.after)")
        lines.append(
            report.catalogChanges.isEmpty
                ? "configuration: no key differs"
                : "configuration: \(report.catalogChanges.count) "
                    + (report.catalogChanges.count == 1 ? "key differs: " : "keys differ: ")
                    + report.catalogChanges.joined(separator: ", ")
        )
        for key in report.keyChanges {
            let mark = allowed(key.name, allow) ? " (allowed)" : ""
            let seen = key.unseenReason.map { "NOT CHECKED: \($0)" } ?? key.seenSummary
            lines.append("  \(key.key) \(key.kind.rawValue): \(seen)\(mark)")
            if key.before != nil || key.after != nil {
                lines.append("      was \(key.before.map { "\"\($0.debugDescriptionLine)\"" } ?? "(absent)")")
                lines.append("      now \(key.after.map { "\"\($0.debugDescriptionLine)\"" } ?? "(absent)")")
            }
        }
        for entry in unmatched(allow, report) { lines.append("allow: '\(entry)' names no key that differs") }
        let events = report.orders + report.complications
        lines.append(
            String(
                format: "changed: %d of %d events (%.1f %%)",
                report.changedEvents,
                events,
                events == 0 ? 0 : Double(report.changedEvents) * 100 / Double(events)
            )
        )
        for change in report.changes {
            let mark = change.keys.allSatisfy({ allowed($0, allow) }) && !change.keys.isEmpty ? " (allowed)" : ""
            let together =
                switch change.attribution {
                case .alone: ""
                case .together: " (only together)"
                case .notSplit: " (not split: too many keys to try one by one)"
                case .unexplained: " (unexplained)"
                }
            lines.append("  \(change.output) \(change.locale): \(change.key)\(together): \(change.count)\(mark)")
            for example in change.examples {
                let styling = example.stylingOnly ? " (styling only)" : ""
                lines.append("    \(example.id) \(example.field)\(styling):")
                lines.append("      - \(example.before.debugDescriptionLine)")
                lines.append("      + \(example.after.debugDescriptionLine)")
            }
        }
        if report.failures.isEmpty {
            lines.append("failures: none appear or disappear")
        } else {
            for failure in report.failures {
                let what =
                    switch failure.change {
                    case "appears": "dead letters appear"
                    case "disappears": "dead letters disappear"
                    default: "failures change"
                    }
                lines.append("\(what): \(failure.count) (\(failure.reason))")
                for example in failure.examples { lines.append("    \(example.id): \(example.detail)") }
            }
        }
        if report.failingInBoth > 0 { lines.append("failing in both, the same way: \(report.failingInBoth)") }
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// The text on one line: newlines shown as ⏎.
    fileprivate var debugDescriptionLine: String { replacingOccurrences(of: "\n", with: " ⏎ ") }
}
