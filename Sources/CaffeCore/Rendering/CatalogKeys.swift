/// The catalog keys the core renders, as they appear in `config/Localizations`.
@_spi(Benchmarks)
public enum CatalogKeys {
    public static let greeting = "Welcome, %@!"
    public static let orderLine = "%lld %@ %@"
    public static let summary = "You ordered %@."
    public static let itemCount = "%lld items"
    public static let pickup = "Your order will be ready at %@"
    public static let orderNumber = "Order #%@"
    public static let receiptLine = "%1$@ (%2$@ each): %3$@"
    public static let labelledAmount = "%1$@: %2$@"
    public static let subtotal = "Subtotal"
    public static let tax = "Tax (%@)"
    public static let tip = "Tip"
    public static let total = "Total"
    public static let ingredients = "Our %@ is made from: %@."
    public static let thankYou = "Thank you"
    public static let slogan = "Fast & Delicious Food"
    /// In the menu's name table.
    public static let storeName = "store_name"
}
