/// How long a socket call, option or close may wait, with libzmq's millisecond resolution.
///
/// libzmq encodes "forever" as `-1` and "not at all" as `0`; this type names both.
public enum ZMQTimeout: Hashable, Sendable, CustomStringConvertible {
    /// Wait as long as it takes.
    case infinite
    /// Wait at most this many milliseconds; `0` means do not wait.
    case milliseconds(Int32)

    /// Do not wait at all.
    public static let zero = ZMQTimeout.milliseconds(0)

    /// A timeout in whole seconds.
    public static func seconds(_ seconds: Int32) -> ZMQTimeout {
        .milliseconds(Int32(clamping: Int64(seconds) * 1000))
    }

    /// Rounds a `Duration` up to whole milliseconds (so a short positive wait never becomes "no wait").
    public init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) {
            self = .zero
            return
        }
        // Durations beyond Int32 milliseconds (about 24 days) clamp rather than overflow.
        guard seconds < Int64(Int32.max) / 1000 else {
            self = .milliseconds(Int32.max)
            return
        }
        let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        self = .milliseconds(Int32(clamping: millis))
    }

    /// libzmq's encoding: `-1` for ``infinite``.
    public var rawMilliseconds: Int32 {
        switch self {
        case .infinite: -1
        case .milliseconds(let value): max(0, value)
        }
    }

    /// Decodes libzmq's encoding, where any negative value means ``infinite``.
    public init(rawMilliseconds: Int32) {
        self = rawMilliseconds < 0 ? .infinite : .milliseconds(rawMilliseconds)
    }

    public var description: String {
        switch self {
        case .infinite: "infinite"
        case .milliseconds(let value): "\(value) ms"
        }
    }
}
