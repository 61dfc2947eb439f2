import Foundation
import Localization

/// The date formats of the "next free coffee" complication for one locale, hour cycle and time
/// zone, richest first — weekday + hour + minute, weekday + hour, then the weekday abbreviated,
/// short and narrow — as watch text providers step down when a family is too narrow. Arabic needs
/// the narrow step: its abbreviated and short weekdays are the full names ("ثلاثاء"), too wide for
/// the circular-small family; the narrow form is "ث".
final class ComplicationFormats {
    struct Key: Hashable {
        /// The locale with the request's hour cycle in it (`en-US-u-hc-h23`).
        var locale: String
        var timeZone: String
    }

    static let skeletons = ["EEEjm", "EEEj", "EEE", "EEEEEE", "EEEEE"]

    let formatters: [DateFieldFormatter]

    init(_ key: Key) throws(RenderError) {
        var formatters: [DateFieldFormatter] = []
        for skeleton in Self.skeletons {
            do {
                formatters.append(
                    try DateFieldFormatter(locale: key.locale, timeZone: key.timeZone, skeleton: skeleton)
                )
            } catch {
                throw RenderError(.renderFailed, field: "locale", "\(error)")
            }
        }
        self.formatters = formatters
    }
}
