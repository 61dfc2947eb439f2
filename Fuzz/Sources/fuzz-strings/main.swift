// `.strings` files: OpenStep text (UTF-8 or UTF-16, with or without byte-order marks), XML
// property lists and binary property lists (`bplist00`), read as an Arabic table (six plural
// categories, right-to-left) and taken through lint and rendering.
import CatalogFuzzing
import FuzzSupport

let target = CatalogFuzzTarget(relativePath: "ar.lproj/Localizable.strings")
FuzzDriver.run { input in target.run(input.data) }
