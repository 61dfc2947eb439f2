import _FoundationICU

/// An ISO 4217 currency as ICU knows it: its code and its minor units.
public struct Currency: Hashable, Sendable, CustomStringConvertible {
    /// The three-letter code, upper case ("USD").
    public let code: String
    /// Digits after the decimal point in ordinary use, from ICU's currency data: JPY 0, USD 2, BHD 3.
    public let fractionDigits: Int

    /// The currency with ISO code `code`, or `nil` when ICU has never heard of it (or it is not three
    /// ASCII letters). Codes are case-sensitive, as in ISO 4217.
    public init?(code: String) {
        // ICU reads the code as a NUL-terminated string.
        let units = Array(code.utf16) + [0]
        guard units.count == 4, units.dropLast().allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else { return nil }
        var status = U_ZERO_ERROR
        // Ever in use, at any time: withdrawn currencies still format, so old orders replay.
        let known = swift_ucurr_isAvailable(
            units,
            -Double.greatestFiniteMagnitude,
            Double.greatestFiniteMagnitude,
            &status
        )
        guard status.rawValue <= U_ZERO_ERROR.rawValue, known != 0 else { return nil }
        let digits = swift_ucurr_getDefaultFractionDigits(units, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, digits >= 0 else { return nil }
        self.code = code
        fractionDigits = Int(digits)
    }

    public var description: String { code }
}
