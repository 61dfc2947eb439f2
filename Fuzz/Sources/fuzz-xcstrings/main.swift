// String Catalogs (`.xcstrings`, JSON): every localization, variation and substitution they
// declare, damaged files included (the reader keeps the keys before the damage), taken through
// lint and rendering in their first localizations.
import CatalogFuzzing
import FuzzSupport

let target = CatalogFuzzTarget(relativePath: "Localizable.xcstrings")
FuzzDriver.run { input in target.run(input.data) }
