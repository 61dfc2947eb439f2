import CaffeProtocol
import Foundation
import Localization
import SwiftProtobuf

/// A complication request's formats for one locale (with its hour cycle) and time zone, compiled:
/// the five levels from weekday + hour + minute down to the narrow weekday, each a
/// ``CompiledDateFormat`` where its pattern compiles, with the attribute set of each date field.
final class ComplicationProgram {
    let levels: [OrderProgram.DateFormat]
    /// The levels that did not compile, as "locale date pattern".
    let fallbacks: [String]
    /// The attribute set of each date field, by ``DateFieldFormatter/Field/ordinal``.
    let fieldAttributes: [AttributeTable.ID]

    /// Local time at `date` in the programs' zone (`nil` when no level compiled, or outside the
    /// zone table).
    func localTime(_ date: Date) -> CompiledDateFormat.LocalTime? {
        for index in 0..<levels.count {
            if let compiled = levels[index].compiled { return compiled.localTime(date) }
        }
        return nil
    }

    init(formats: ComplicationFormats, zone: ZoneTransitions, attributes: AttributeTable) {
        levels = formats.formatters.map { OrderProgram.DateFormat(compiled: $0.compiled(zone: zone), icu: $0) }
        fallbacks = levels.filter { $0.compiled == nil }.map { "\($0.icu.locale) date \($0.icu.pattern)" }
        fieldAttributes = DateFieldFormatter.Field.allCases.map { field in
            RenderSession.fieldAttributes[field].map { attributes.id($0) } ?? AttributeTable.none
        }
    }
}

/// A request's locale with its hour cycle: the payload's `locale`, and a program per zone.
final class ComplicationLocale {
    let locale: String
    /// Programs by zone index; a locale is rarely asked about in more than a few zones.
    var programs: [(zone: Int, program: ComplicationProgram)] = []

    init(locale: String) {
        self.locale = locale
    }
}

/// Where a complication payload landed in the session's output buffer.
struct WireComplication {
    var payload: Range<Int>
    var locale: String
}

extension WireSession {
    /// The hour cycles in the order of the locale table's tags (0: none given).
    static let hourCycles = ["", "h11", "h12", "h23", "h24"]

    /// Writes the payload for `request` (its frame is `body`) into ``output``; `nil` for anything
    /// out of the ordinary (a missing field, a default to apply, an unknown hour cycle or family),
    /// which the message path renders or refuses.
    func writeComplication(
        _ request: ComplicationRequestView,
        body: UnsafeRawBufferPointer,
        session: RenderSession
    ) -> WireComplication? {
        guard let frame = body.baseAddress else { return nil }
        func bytes(_ slice: WireReader.Slice) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(start: frame + Int(slice.offset), count: Int(slice.count))
        }
        guard !request.requestID.isEmpty, !request.userID.isEmpty, let date = request.nextFreeCoffee,
            !request.locale.isEmpty, !request.timeZone.isEmpty,
            let cycle = Self.hourCycle(bytes(request.hourCycle)),
            let locale = complicationLocale(bytes(request.locale), cycle: cycle, session: session),
            let (zone, zoneIndex) = zone(bytes(request.timeZone)),
            let program = complicationProgram(locale, zone: zone, index: zoneIndex, session: session),
            program.levels.count <= levels.count
        else { return nil }
        for index in 0..<families.count
        where Caffe_V1_ComplicationFamily(rawValue: Int(families[index]))?.widthLimit ?? 0 == 0 {
            return nil
        }

        scratch.reset(capacity: 4096)
        spans.removeAll(keepingCapacity: true)
        output.removeAll()
        let instant = Google_Protobuf_Timestamp(seconds: date.seconds, nanos: date.nanos).date
        // Every level shares the zone: local time is worked out once.
        let time = program.localTime(instant)
        // Levels rendered so far: their spans in `spans` and their widths, made when first needed.
        for index in 0..<levels.count { levels[index] = nil }
        func level(_ index: Int) -> (spans: Range<Int>, width: Int)? {
            if let known = levels[index] { return known }
            let made = render(program.levels[index], instant, time, program: program)
            levels[index] = made
            return made
        }

        output.appendString(1, bytes(request.requestID))
        output.appendString(2, bytes(request.userID))
        output.appendString(3, locale.locale)
        let count = families.isEmpty ? Caffe_V1_ComplicationFamily.rendered.count : families.count
        for index in 0..<count {
            let family =
                families.isEmpty
                ? Caffe_V1_ComplicationFamily.rendered[index]
                : Caffe_V1_ComplicationFamily(rawValue: Int(families[index])) ?? .unspecified
            // The richest format that fits; the plainest when none does.
            guard var chosen = level(program.levels.count - 1) else { return nil }
            for candidate in 0..<program.levels.count {
                guard let made = level(candidate) else { return nil }
                if made.width <= family.widthLimit {
                    chosen = made
                    break
                }
            }
            let entry = output.beginMessage(4)
            output.appendKey(1, wireType: 0)
            output.appendVarint(UInt64(bitPattern: Int64(family.rawValue)))
            spans.withUnsafeBufferPointer { all in
                writer.write(2, spans: UnsafeBufferPointer(rebasing: all[chosen.spans]), merging: false, into: output)
            }
            output.endMessage(entry)
        }
        return WireComplication(payload: 0..<output.count, locale: locale.locale)
    }

    /// The index in ``hourCycles`` of the hour cycle spelled `text`.
    static func hourCycle(_ text: UnsafeRawBufferPointer) -> Int? {
        for index in 0..<hourCycles.count where hourCycles[index].utf8.elementsEqual(text) { return index }
        return nil
    }

    /// One level's text at `date` as spans (appended to ``spans``) and its display width.
    private func render(
        _ format: OrderProgram.DateFormat,
        _ date: Date,
        _ time: CompiledDateFormat.LocalTime?,
        program: ComplicationProgram
    ) -> (spans: Range<Int>, width: Int)? {
        let start = spans.count
        if let compiled = format.compiled, let time, compiled.maximumSpans <= dateSpans.count {
            var written: (bytes: Int, spans: Int)?
            let span = scratch.write(maximum: compiled.maximumLength, attribute: AttributeTable.none) { output in
                written = dateSpans.withUnsafeMutableBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return nil }
                    return compiled.write(time, to: output, spans: base)
                }
                return written?.bytes
            }
            if let span, let written, let base = span.start {
                var width = 0
                for index in 0..<written.spans {
                    let piece = dateSpans[index]
                    let attribute = piece.field.map { program.fieldAttributes[$0.ordinal] } ?? AttributeTable.none
                    spans.append(
                        TextSpan(
                            start: base + Int(piece.start),
                            count: Int(piece.end - piece.start),
                            attribute: attribute
                        )
                    )
                }
                if compiled.hasSingleScalarCharacters {
                    width = DisplayWidth.columns(utf8: UnsafeBufferPointer(start: base, count: Int(span.count)))
                } else {
                    width = DisplayWidth.of(
                        String(decoding: UnsafeBufferPointer(start: base, count: Int(span.count)), as: UTF8.self)
                    )
                }
                return (start..<spans.count, width)
            }
        }
        // ICU: the pieces as strings, copied into the scratch.
        let pieces = icu { format.icu.pieces(date) }
        var plain = ""
        for piece in pieces {
            plain += piece.text
            let attribute = piece.field.map { program.fieldAttributes[$0.ordinal] } ?? AttributeTable.none
            guard let span = scratch.copy(piece.text, attribute: attribute) else { return nil }
            spans.append(span)
        }
        return (start..<spans.count, DisplayWidth.of(plain))
    }

    /// The locale of a request with hour cycle `cycle` (an index into ``hourCycles``), checked and
    /// made the first time; `nil`, remembered, for a locale that is not well formed.
    func complicationLocale(_ tag: UnsafeRawBufferPointer, cycle: Int, session: RenderSession) -> ComplicationLocale? {
        if let known = complicationLocales.value(tag, tag: UInt8(cycle)) { return known }
        var locale = String(decoding: tag, as: UTF8.self)
        var made: ComplicationLocale?
        if session.isWellFormedLocale(locale) {
            if cycle > 0 { locale += (locale.contains("-u-") ? "-hc-" : "-u-hc-") + Self.hourCycles[cycle] }
            made = ComplicationLocale(locale: locale)
        }
        complicationLocales.insert(made, for: tag, tag: UInt8(cycle))
        return made
    }

    func complicationProgram(
        _ locale: ComplicationLocale,
        zone: ZoneTransitions,
        index: Int,
        session: RenderSession
    ) -> ComplicationProgram? {
        for entry in 0..<locale.programs.count where locale.programs[entry].zone == index {
            return locale.programs[entry].program
        }
        guard
            let formats = try? session.formats(
                for: ComplicationFormats.Key(locale: locale.locale, timeZone: zone.identifier)
            )
        else { return nil }
        let made = ComplicationProgram(formats: formats, zone: zone, attributes: attributes)
        if locale.programs.count >= 64 { locale.programs.removeAll() }
        locale.programs.append((index, made))
        if complicationPrograms.count >= 4096 { complicationPrograms.removeFirst(2048) }
        complicationPrograms.append(made)
        return made
    }
}

extension DisplayWidth {
    /// ``of(_:)`` for UTF-8 text in which every character is a single scalar: the columns of each.
    static func columns(utf8 text: UnsafeBufferPointer<UInt8>) -> Int {
        var width = 0
        var index = 0
        while index < text.count {
            let lead = UInt32(text[index])
            var scalar: UInt32
            switch lead {
            case 0..<0x80:
                scalar = lead
                index += 1
            case 0xC0..<0xE0:
                scalar = (lead & 0x1F) << 6 | UInt32(text[index + 1] & 0x3F)
                index += 2
            case 0xE0..<0xF0:
                scalar = (lead & 0x0F) << 12 | UInt32(text[index + 1] & 0x3F) << 6 | UInt32(text[index + 2] & 0x3F)
                index += 3
            default:
                scalar =
                    (lead & 0x07) << 18 | UInt32(text[index + 1] & 0x3F) << 12 | UInt32(text[index + 2] & 0x3F) << 6
                    | UInt32(text[index + 3] & 0x3F)
                index += 4
            }
            width += columns(scalar)
        }
        return width
    }
}
