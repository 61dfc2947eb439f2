import CaffeCore
import CaffeProtocol
import Foundation
import SwiftProtobuf

/// `caffe-sim complications --check-fit`: for each locale (and pseudo-locale) and each watch
/// family, the widest text a "next free coffee" date renders to over a week of dates at awkward
/// times, around DST changes and a year end, against the family's width. What overflows is
/// reported with its worst example. Pseudo-locales transform the text the renderer chose for
/// en-US (it does not reflow to a plainer format for them), so an en-XA overflow means the family
/// has no room for a language about 40% longer than English.
public struct ComplicationFit: Sendable {
    /// One (locale, family) that does not fit.
    public struct Overflow: Hashable, Sendable, Codable, CustomStringConvertible {
        public var locale: String
        public var family: String
        public var width: Int
        public var limit: Int
        public var example: String

        public var description: String { "\(locale)\t\(family)\t\(width) > \(limit)\t\(example)" }
    }

    /// What was checked and what overflowed.
    public struct Result: Sendable, Codable {
        public var checked: Int
        public var overflows: [Overflow]
    }

    public let locales: [(locale: String, timeZone: String)]
    public let pseudoLocales: [PseudoLocale]

    public init(
        locales: [(locale: String, timeZone: String)],
        pseudoLocales: [PseudoLocale] = PseudoLocale.allCases
    ) {
        self.locales = locales
        self.pseudoLocales = pseudoLocales
    }

    /// The dates checked: every day of a week (from Sunday 2026-11-22) at 00:00, 09:41, 12:00,
    /// 17:45 and 23:59 UTC, plus the generator's DST and year-end anchors ± an hour.
    public static var dates: [Date] {
        let sunday = 1_795_305_600.0  // 2026-11-22T00:00:00Z
        var dates: [Date] = []
        for day in 0..<7 {
            for minutes in [0, 581, 720, 1065, 1439] {
                dates.append(Date(timeIntervalSince1970: sunday + Double(day * 86_400 + minutes * 60)))
            }
        }
        for anchor in ComplicationGenerator.Configuration.defaultAnchors {
            for offset in [-3600.0, 0, 3600] { dates.append(anchor.addingTimeInterval(offset)) }
        }
        return dates
    }

    public func run(session: RenderSession) throws -> Result {
        var checked = 0
        var overflows: [Overflow] = []
        var subjects: [(label: String, locale: String, timeZone: String, pseudo: PseudoLocale?)] =
            locales.map { ($0.locale, $0.locale, $0.timeZone, nil) }
        subjects += pseudoLocales.map { ($0.rawValue, $0.base, "America/Los_Angeles", $0) }
        for subject in subjects {
            var worst: [Caffe_V1_ComplicationFamily: (width: Int, text: String)] = [:]
            for (index, date) in Self.dates.enumerated() {
                var request = Caffe_V1_ComplicationRequest()
                request.requestID = "fit-\(index)"
                request.userID = "qa"
                request.locale = subject.locale
                request.timeZone = subject.timeZone
                request.nextFreeCoffee = Google_Protobuf_Timestamp(date: date)
                let payload = try session.complication(request)
                for entry in payload.entries {
                    let text = subject.pseudo.map { $0.transform(entry.text) } ?? entry.text
                    let width = DisplayWidth.of(text.plain)
                    if width > (worst[entry.family]?.width ?? -1) { worst[entry.family] = (width, text.plain) }
                }
            }
            for family in Caffe_V1_ComplicationFamily.rendered {
                checked += 1
                guard let found = worst[family], found.width > family.widthLimit else { continue }
                overflows.append(
                    Overflow(
                        locale: subject.label,
                        family: family.name,
                        width: found.width,
                        limit: family.widthLimit,
                        example: found.text
                    )
                )
            }
        }
        return Result(checked: checked, overflows: overflows)
    }
}
