// `caffe catalog import`'s in-place `.stringsdict` editing, fed what arrives from outside: the
// input is the language's `.stringsdict` as a damaged or foreign tool left it, and, after a NUL
// byte, the translators' XLIFF (without one, an XLIFF translating every plural of the source).
// The import may refuse, never trap; and a file it writes must read back without a syntax error,
// every changed value as the translation gave it.
import Foundation
import FuzzSupport
import Localization

/// The development language's file the import takes missing structure from.
let source = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>%lld free coffees</key>
    \t<dict>
    \t\t<key>NSStringLocalizedFormatKey</key>
    \t\t<string>%#@coffees@</string>
    \t\t<key>coffees</key>
    \t\t<dict>
    \t\t\t<key>NSStringFormatSpecTypeKey</key>
    \t\t\t<string>NSStringPluralRuleType</string>
    \t\t\t<key>NSStringFormatValueTypeKey</key>
    \t\t\t<string>lld</string>
    \t\t\t<key>one</key>
    \t\t\t<string>%lld free coffee</string>
    \t\t\t<key>other</key>
    \t\t\t<string>%lld free coffees</string>
    \t\t</dict>
    \t</dict>
    \t<key>%1$@ added &amp; %2$lld</key>
    \t<dict>
    \t\t<key>NSStringLocalizedFormatKey</key>
    \t\t<string>%1$@ added %2$#@items@</string>
    \t\t<key>items</key>
    \t\t<dict>
    \t\t\t<key>NSStringFormatSpecTypeKey</key>
    \t\t\t<string>NSStringPluralRuleType</string>
    \t\t\t<key>NSStringFormatValueTypeKey</key>
    \t\t\t<string>lld</string>
    \t\t\t<key>other</key>
    \t\t\t<string>%2$lld items</string>
    \t\t</dict>
    \t</dict>
    </dict>
    </plist>

    """

/// Every plural of the source in Russian, with text that needs escaping.
let defaultXLIFF: [UInt8] = {
    var units = ""
    for (key, variable) in [("%lld free coffees", "coffees"), ("%1$@ added &amp; %2$lld", "items")] {
        let number = variable == "items" ? "%2$lld" : "%lld"
        for category in ["one", "few", "many", "other"] {
            units += """
                <trans-unit id="/\(key):dict/\(variable):dict/\(category):dict/:string">
                <source>x</source><target state="translated">\(number) &lt;\(category)&gt; &amp; кофе</target>
                </trans-unit>

                """
        }
    }
    return Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">
        <file original="en.lproj/Receipt.stringsdict" source-language="en" target-language="ru" datatype="plaintext">
        <body>
        \(units)</body>
        </file>
        </xliff>

        """.utf8
    )
}()

let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("caffe-fuzz-import-\(ProcessInfo.processInfo.processIdentifier)")
let target = folder.appendingPathComponent("ru.lproj/Receipt.stringsdict")
do {
    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("en.lproj"),
        withIntermediateDirectories: true
    )
    ScratchFolders.write(Data(source.utf8), to: folder.appendingPathComponent("en.lproj/Receipt.stringsdict"))
} catch {
    FuzzDriver.fail("cannot create the scratch folder \(folder.path): \(error)")
}
ScratchFolders.removeAtExit(folder)

FuzzDriver.run { input in
    let parts = input.bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let file = Array(parts[0])
    // An empty file is skipped: Foundation on Linux leaks reading one (see CatalogFuzzTarget).
    guard !file.isEmpty else { return }
    ScratchFolders.write(Data(file), to: target)
    guard let document = try? XLIFFReader.read(parts.count > 1 ? Array(parts[1]) : defaultXLIFF),
        let merge = try? LocalizationImport(document: document, catalogFolder: folder)
    else { return }
    guard let written = merge.files["ru.lproj/Receipt.stringsdict"] else { return }
    // The reader checks what the import does not look into (numbers, dates…): no new error.
    func errors(_ result: PropertyListReadResult) -> Set<String> {
        Set(result.diagnostics.filter { $0.severity == .error }.map(\.message))
    }
    let result = PropertyListReader.read(Data(written), file: "ru.lproj/Receipt.stringsdict")
    let new = errors(result).subtracting(
        errors(PropertyListReader.read(Data(file), file: "ru.lproj/Receipt.stringsdict"))
    )
    if let error = new.first {
        FuzzDriver.fail("the merged file does not read back: \(error)")
    }
    for change in merge.changes where change.file == "ru.lproj/Receipt.stringsdict" {
        // `/KEY:dict/…:dict/:string`, read from the end as the import does.
        let parts = change.id.dropFirst().dropLast(":dict/:string".count).components(separatedBy: ":dict/")
        let key =
            parts.count > 2 && parts.last != "NSStringLocalizedFormatKey"
            ? parts.dropLast(2).joined(separator: ":dict/") : parts.dropLast().joined(separator: ":dict/")
        var value = result.value?.dictionaryValue?[key]
        for step in parts.dropFirst(parts.count - (parts.last == "NSStringLocalizedFormatKey" ? 1 : 2)) {
            value = value?.dictionaryValue?[step]
        }
        guard value?.stringValue == change.new else {
            FuzzDriver.fail("\(change.id) reads back as \(String(describing: value)), not \(change.new)")
        }
    }
}
