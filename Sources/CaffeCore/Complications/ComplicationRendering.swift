import CaffeProtocol
import Foundation
import Localization
import SwiftProtobuf

extension RenderSession {
    /// The hour cycles a request may ask for (Unicode's `hc` keyword).
    @_spi(Benchmarks) public static let hourCycles: Set<String> = ["h11", "h12", "h23", "h24"]

    /// Renders the "next free coffee" date for each requested family: the richest format that fits
    /// the family's width, attributed by date field, the weekday marked orange wherever the locale
    /// puts it.
    ///
    /// - Throws: ``RenderError`` for a request missing its id, user or date, an unknown hour cycle
    ///   or family.
    public func complication(_ request: Caffe_V1_ComplicationRequest) throws(RenderError)
        -> Caffe_V1_ComplicationPayload
    {
        guard !request.requestID.isEmpty else {
            throw RenderError(.missingField, field: "requestId", "the request has no id")
        }
        guard !request.userID.isEmpty else {
            throw RenderError(.missingField, field: "userId", "the request has no user")
        }
        guard request.hasNextFreeCoffee else {
            throw RenderError(.missingField, field: "nextFreeCoffee", "the request has no date")
        }
        var notes: [Caffe_V1_RenderNote] = []
        let settled = CustomerSettings.settle(
            locale: request.locale,
            timeZone: request.timeZone,
            field: "request",
            defaults: core.defaults,
            isWellFormedLocale: isWellFormedLocale,
            notes: &notes
        )
        var locale = settled.locale
        if !request.hourCycle.isEmpty {
            guard Self.hourCycles.contains(request.hourCycle) else {
                throw RenderError(
                    .invalidHourCycle,
                    field: "hourCycle",
                    "'\(request.hourCycle)' is not h11, h12, h23 or h24"
                )
            }
            locale += (locale.contains("-u-") ? "-hc-" : "-u-hc-") + request.hourCycle
        }
        let families = request.families.isEmpty ? Caffe_V1_ComplicationFamily.rendered : request.families
        for (index, family) in families.enumerated() where family.widthLimit == 0 {
            throw RenderError(.missingField, field: "families[\(index)]", "\(family.name) is not a complication family")
        }
        let formats = try self.formats(for: ComplicationFormats.Key(locale: locale, timeZone: settled.timeZone))
        let date = request.nextFreeCoffee.date

        var rendered: [(text: Caffe_V1_StyledText, width: Int)?] = Array(
            repeating: nil,
            count: formats.formatters.count
        )
        func level(_ index: Int) -> (text: Caffe_V1_StyledText, width: Int) {
            if let made = rendered[index] { return made }
            let made = Self.styled(formats.formatters[index].pieces(date))
            rendered[index] = made
            return made
        }
        var payload = Caffe_V1_ComplicationPayload()
        payload.requestID = request.requestID
        payload.userID = request.userID
        payload.locale = locale
        payload.notes = notes
        for family in families {
            // The richest format that fits; the plainest when none does.
            var chosen = level(formats.formatters.count - 1).text
            for index in formats.formatters.indices {
                let candidate = level(index)
                if candidate.width <= family.widthLimit {
                    chosen = candidate.text
                    break
                }
            }
            var entry = Caffe_V1_ComplicationEntry()
            entry.family = family
            entry.text = chosen
            payload.entries.append(entry)
        }
        return payload
    }

    /// Date pieces as styled text: each field run carries `dateField`, the weekday `foregroundColor`.
    @_spi(Benchmarks)
    public static func styled(_ pieces: [DateFieldFormatter.Piece]) -> (text: Caffe_V1_StyledText, width: Int) {
        var text = Caffe_V1_StyledText()
        var plain = ""
        text.runs.reserveCapacity(pieces.count)
        for piece in pieces {
            plain += piece.text
            var run = Caffe_V1_AttributedRun()
            run.text = piece.text
            if let field = piece.field { run.attributes = fieldAttributes[field] ?? [:] }
            text.runs.append(run)
        }
        text.plain = plain
        return (text, DisplayWidth.of(plain))
    }

    /// The run attributes of each date field, made once.
    static let fieldAttributes: [DateFieldFormatter.Field: [String: String]] = {
        let fields: [DateFieldFormatter.Field] = [
            .era, .year, .quarter, .month, .weekOfYear, .weekOfMonth, .day, .dayOfYear, .weekday, .amPM, .hour,
            .minute, .second, .secondFraction, .timeZone,
        ]
        return Dictionary(
            uniqueKeysWithValues: fields.map { field in
                var attributes = ["dateField": "\"" + field.rawValue + "\""]
                if field == .weekday { attributes["foregroundColor"] = "\"orange\"" }
                return (field, attributes)
            }
        )
    }()
}
