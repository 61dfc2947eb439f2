/// SplitMix64: a small, fast generator whose sequence depends only on its seed, so generated
/// traffic is the same on every machine and every Swift version (the standard library's
/// `random(in:using:)` makes no such promise, so this type draws its own bounded values).
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A value in `0..<bound` (Lemire's multiply-high; the bias is below 2⁻⁶⁰ for bounds this small).
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int(next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// True with probability `percent` / 100.
    public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

    /// One element of a non-empty array.
    public mutating func pick<Element>(_ elements: [Element]) -> Element { elements[below(elements.count)] }
}
