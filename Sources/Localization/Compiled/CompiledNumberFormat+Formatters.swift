extension CurrencyFormatter {
    /// This formatter's format compiled (see ``CompiledNumberFormat``): amounts in the currency's
    /// minor units formatted without ICU, exactly as ``string(decimal:)`` formats them. `nil` when
    /// the locale's format does not compile; keep calling ICU then.
    public func compiled() -> CompiledNumberFormat? {
        CompiledNumberFormat.compile(
            format,
            minimumFractionDigits: currency.fractionDigits,
            maximumFractionDigits: currency.fractionDigits,
            multiplierExponent: 0
        )
    }
}

extension PercentFormatter {
    /// This formatter's format compiled (see ``CompiledNumberFormat``): fractions given as decimal
    /// text come out as ``string(decimal:)`` writes them, rounded half to even. `nil` when the
    /// locale's format does not compile.
    public func compiled() -> CompiledNumberFormat? {
        CompiledNumberFormat.compile(
            format,
            minimumFractionDigits: 0,
            maximumFractionDigits: maximumFractionDigits,
            multiplierExponent: 2
        )
    }
}
