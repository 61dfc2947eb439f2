/// The decimal digits of a number, least significant first, kept on the stack: what the compiled
/// formats (and anything else writing numbers into a buffer) write digit by digit, left to right.
public struct DecimalDigits {
    private var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)
    /// How many digits are held (at least one, and at least the minimum asked for).
    public private(set) var count = 0

    /// The most digits held: enough for any `UInt64` and zero padding to 24.
    public static let capacity = 24

    /// The digits of `value`, padded with zeros to `minimumCount` (at most ``capacity``).
    @inline(__always)
    public init(_ value: UInt64, minimumCount: Int = 1) {
        var rest = value
        var count = 0
        let padding = min(minimumCount, Self.capacity)
        withUnsafeMutableBytes(of: &storage) { buffer in
            repeat {
                buffer[count] = UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            while count < padding {
                buffer[count] = 0
                count += 1
            }
        }
        self.count = count
    }

    /// The digit worth 10^`position` (0 for the ones).
    @inline(__always)
    public subscript(position: Int) -> Int {
        withUnsafeBytes(of: storage) { Int($0[position]) }
    }
}
