/// The catalog keys the core renders, as they appear in `config/Localizations`.
enum CatalogKeys {
    static let greeting = "Welcome, %@!"
    static let orderLine = "%lld %@ %@"
    static let summary = "You ordered %@."
    static let itemCount = "%lld items"
    static let pickup = "Your order will be ready at %@"
    static let orderNumber = "Order #%@"
    static let receiptLine = "%1$@ (%2$@ each): %3$@"
    static let labelledAmount = "%1$@: %2$@"
    static let subtotal = "Subtotal"
    static let tax = "Tax (%@)"
    static let tip = "Tip"
    static let total = "Total"
    static let ingredients = "Our %@ is made from: %@."
    static let thankYou = "Thank you"
    static let slogan = "Fast & Delicious Food"
    /// In the menu's name table.
    static let storeName = "store_name"
}
