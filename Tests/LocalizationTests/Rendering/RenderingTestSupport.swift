// Caffe — Localization tests.
import CaffeTestKit
import Foundation
import Localization
import Testing

/// Shared helpers for the rendering, fallback, lint and command-line tests.
enum RenderingSupport {
    /// The repository root (`Tests/LocalizationTests/Rendering/<file>` is four levels below it).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Rendering
        .deletingLastPathComponent()  // LocalizationTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
        .standardizedFileURL

    /// `config/Localizations`, the sample catalog the worker ships with.
    static let configDirectory = repositoryRoot.appendingPathComponent("config/Localizations")

    /// `shared/corpus/catalogs`: the real catalogs (the property-list tests' folder).
    static let corpusDirectory = PropertyListTestSupport.corpusDirectory

    /// `config/Localizations`, loaded once.
    static let configCatalog: StringCatalog = {
        do {
            return try StringCatalog(directory: configDirectory)
        } catch {
            fatalError("cannot load \(configDirectory.path): \(error)")
        }
    }()

    /// The whole corpus folder, loaded once.
    static let corpusCatalog: StringCatalog = {
        do {
            return try StringCatalog(directory: corpusDirectory)
        } catch {
            fatalError("cannot load \(corpusDirectory.path): \(error)")
        }
    }()

    /// A localizer over `config/Localizations`.
    static func config(_ locale: String, _ options: RenderOptions = RenderOptions()) throws -> Localizer {
        try Localizer(catalog: configCatalog, locale: locale, options: options)
    }

    /// A localizer over the corpus folder.
    static func corpus(_ locale: String, _ options: RenderOptions = RenderOptions()) throws -> Localizer {
        try Localizer(catalog: corpusCatalog, locale: locale, options: options)
    }

    // MARK: Temporary catalog folders

    /// Writes `files` (path relative to a new temporary folder → UTF-8 contents) and returns the folder.
    static func makeFolder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("caffe-rendering-tests-\(UUID().uuidString)", isDirectory: true)
        for (path, contents) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(contents.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Runs `body` with a temporary catalog folder holding `files`, then deletes the folder.
    static func withFolder<T>(_ files: [String: String], _ body: (URL) throws -> T) throws -> T {
        let folder = try makeFolder(files)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    /// Runs `body` with the catalog loaded from a temporary folder holding `files`.
    static func withCatalog<T>(_ files: [String: String], _ body: (StringCatalog) throws -> T) throws -> T {
        try withFolder(files) { folder in try body(try StringCatalog(directory: folder)) }
    }

    /// A `.strings` file (text format) with `pairs` in order.
    static func stringsFile(_ pairs: [(String, String)]) -> String {
        pairs.map { "\"\(escape($0.0))\" = \"\(escape($0.1))\";\n" }.joined()
    }

    private static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }

    /// An XML property list with the usual prolog.
    static func plist(_ body: String) -> String {
        PropertyListTestSupport.xml(body)
    }

    /// A `.stringsdict` of plural entries — (key, format, variable, [(category, text)]), each
    /// variable declared `d` — after the raw XML entries `before` (for broken neighbours).
    static func stringsdict(_ entries: [(String, String, String, [(String, String)])], before: String = "") -> String {
        var body = "<dict>\n" + before
        for (key, format, variable, cases) in entries {
            body += "<key>\(key)</key><dict><key>NSStringLocalizedFormatKey</key><string>\(format)</string>"
            body += "<key>\(variable)</key><dict>"
            body += "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
            body += "<key>NSStringFormatValueTypeKey</key><string>d</string>"
            for (category, text) in cases { body += "<key>\(category)</key><string>\(text)</string>" }
            body += "</dict></dict>\n"
        }
        return plist(body + "</dict>")
    }

    /// A String Catalog (JSON) with source language `en` and the given `strings` object.
    static func xcstrings(_ strings: [String: Any], sourceLanguage: String = "en") throws -> String {
        let root: [String: Any] = ["sourceLanguage": sourceLanguage, "strings": strings, "version": "1.0"]
        let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// A String Catalog `stringUnit` localization.
    static func unit(_ value: String, state: String = "translated") -> [String: Any] {
        ["stringUnit": ["state": state, "value": value]]
    }

    /// A String Catalog whole-string plural variation.
    static func plural(_ cases: [String: String], state: String = "translated") -> [String: Any] {
        ["variations": ["plural": cases.mapValues { unit($0, state: state) }]]
    }

    // MARK: The caffe executable

    /// The `caffe` executable built next to this test bundle, or `nil` when it is not there.
    static let caffeExecutable: URL? = ExecutableRunner.locate("caffe")

    typealias ProcessResult = ExecutableRunner.Result

    /// Runs the `caffe` executable with `arguments` and waits for it.
    static func runCaffe(_ arguments: [String]) throws -> ProcessResult {
        try ExecutableRunner.run(try #require(caffeExecutable), arguments)
    }
}

extension LocalizedString {
    /// The substituted texts, cut out of ``text`` by their UTF-8 ranges.
    var substitutedTexts: [String] {
        let bytes = Array(text.utf8)
        return substitutions.map { String(decoding: bytes[$0.utf8Range], as: UTF8.self) }
    }
}
