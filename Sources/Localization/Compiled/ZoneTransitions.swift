import _FoundationICU

/// A time zone's offsets from UTC as ICU has them, read once into a table of transitions: what a
/// compiled date format adds to an instant to get local time, without asking ICU per date.
///
/// The table holds every transition ICU reports (`ucal_getTimeZoneTransitionDate`) from 1900 to
/// 2100 with the total offset (raw + daylight) in effect after it; an instant outside that span has
/// no answer here (``offset(atMilliseconds:)`` returns `nil`) and the caller asks ICU.
///
/// Immutable: share it across threads freely.
public final class ZoneTransitions: Sendable {
    /// The IANA identifier, as given.
    public let identifier: String
    /// `starts[i]` is the first millisecond of an interval with offset `offsets[i]` milliseconds;
    /// the intervals run back to back up to ``validUntil``.
    private let starts: [Double]
    private let offsets: [Int32]
    /// The span covered: from `starts[0]` (inclusive) to this (exclusive).
    public let validUntil: Double

    /// 1900-01-01T00:00:00Z and 2100-01-01T00:00:00Z in milliseconds.
    static let span: (from: Double, until: Double) = (-2_208_988_800_000, 4_102_444_800_000)

    /// Reads `identifier`'s transitions from ICU.
    ///
    /// - Throws: ``LocalizationError`` `.unknownLocale` when ICU cannot open a calendar for it.
    public init(identifier: String) throws(LocalizationError) {
        self.identifier = identifier
        let zone = Array(identifier.utf16)
        var status = U_ZERO_ERROR
        guard let calendar = swift_ucal_open(zone, Int32(zone.count), "en_US_POSIX", UCAL_GREGORIAN, &status),
            status.rawValue <= U_ZERO_ERROR.rawValue
        else { throw LocalizationError(.unknownLocale, "ICU cannot open the time zone '\(identifier)'") }
        defer { swift_ucal_close(calendar) }

        func offset(at instant: Double) -> Int32? {
            var status = U_ZERO_ERROR
            swift_ucal_setMillis(calendar, instant, &status)
            let raw = swift_ucal_get(calendar, UCAL_ZONE_OFFSET, &status)
            let daylight = swift_ucal_get(calendar, UCAL_DST_OFFSET, &status)
            return status.rawValue <= U_ZERO_ERROR.rawValue ? raw + daylight : nil
        }

        var starts = [Self.span.from]
        guard let first = offset(at: Self.span.from) else {
            throw LocalizationError(.unknownLocale, "ICU has no offsets for '\(identifier)'")
        }
        var offsets = [first]
        var instant = Self.span.from
        while true {
            var next: UDate = 0
            status = U_ZERO_ERROR
            swift_ucal_setMillis(calendar, instant, &status)
            let found = swift_ucal_getTimeZoneTransitionDate(calendar, UCAL_TZ_TRANSITION_NEXT, &next, &status)
            guard found != 0, status.rawValue <= U_ZERO_ERROR.rawValue, next > instant, next < Self.span.until else {
                break
            }
            guard let after = offset(at: next) else { break }
            instant = next
            // A transition that changes only the split between raw and daylight time keeps the total.
            if after == offsets[offsets.count - 1] { continue }
            starts.append(next)
            offsets.append(after)
        }
        self.starts = starts
        self.offsets = offsets
        validUntil = Self.span.until
    }

    /// The offset in milliseconds at `milliseconds` since 1970 (UTC), or `nil` outside the table.
    @inline(__always)
    public func offset(atMilliseconds milliseconds: Double) -> Int32? {
        guard milliseconds >= starts[0], milliseconds < validUntil else { return nil }
        // The last interval starting at or before the instant.
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= milliseconds { low = middle } else { high = middle - 1 }
        }
        return offsets[low]
    }

    /// The instants at which the offset changes, within `range` (milliseconds): where DST begins
    /// and ends. For tests and probes.
    public func transitions(in range: Range<Double>) -> [Double] {
        starts.dropFirst().filter { range.contains($0) }
    }
}
