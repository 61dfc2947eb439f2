// `.stringsdict` files (XML or binary property lists): plural, device and width rules, read as
// a Russian table (one, few, many, other) and taken through lint and rendering.
import CatalogFuzzing
import FuzzSupport

let target = CatalogFuzzTarget(relativePath: "ru.lproj/Localizable.stringsdict")
FuzzDriver.run { input in target.run(input.data) }
