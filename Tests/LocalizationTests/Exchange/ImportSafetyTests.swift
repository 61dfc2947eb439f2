// Caffe — Localization tests.
import CaffeTestKit
import Foundation
import Testing

@testable import Localization

fileprivate typealias Support = RenderingSupport

/// Issue 45: `caffe catalog import` writes only what the worker loads, all at once: a translation
/// the worker's check refuses, one over the size cap, one holding a noncharacter, or a unit id
/// naming a path thousands of levels deep is refused and nothing is written; what is written keeps
/// the files' modes; staging copies a killed import left are removed by the next one.
@Suite("Issue 45: catalog import writes only what the worker loads")
struct ImportSafetyTests {
    /// `config/` copied into a temporary folder; `body` gets its `Localizations` folder.
    static func withConfiguration<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-safety-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Support.repositoryRoot.appendingPathComponent("config"), to: folder)
        return try body(folder.appendingPathComponent("Localizations"))
    }

    /// An XLIFF giving German `target` for the String Catalog key `id` (text escaped for XML).
    static func xliff(_ id: String, _ target: String, raw: Bool = false) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff version="1.2"><file original="Localizable.xcstrings" source-language="en" target-language="de">
            <body><trans-unit id="\(escaped(id))"><source>x</source><target>\(raw ? target : escaped(target))</target></trans-unit>
            </body></file></xliff>
            """
    }

    /// Runs `caffe catalog import` of `xliff` into `catalog`; the result and whether any file changed.
    fileprivate static func importing(_ xliff: String, into catalog: URL) throws -> (
        ExecutableRunner.Result, changed: Bool
    ) {
        let file = catalog.deletingLastPathComponent().appendingPathComponent("in-\(UUID().uuidString).xliff")
        try xliff.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let before = try snapshot(catalog)
        let result = try Support.runCaffe(["catalog", "import", file.path, "--catalog", catalog.path])
        return (result, try snapshot(catalog) != before)
    }

    /// Every file of the folder with its bytes.
    static func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in FileManager.default.subpaths(atPath: folder.path) ?? [] {
            var isFolder: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test("C-typed specifiers and %n for %@ are refused by name, and nothing is written")
    func specifiers() throws {
        try Self.withConfiguration { catalog in
            for (target, reason) in [
                ("Willkommen, %c!", "formats argument 1 as '%c', a C type the app never passes"),
                ("Willkommen, %s!", "formats argument 1 as '%s', a C type the app never passes"),
                ("Willkommen, %@!%n", "has '%n', which is no conversion"),
            ] {
                let (result, changed) = try Self.importing(Self.xliff("Welcome, %@!", target), into: catalog)
                #expect(result.status == 1 && !changed, "\(target)")
                #expect(result.standardOutput.contains(reason), "\(result.standardOutput)")
            }
        }
    }

    @Test("a translation over 16 KiB, one holding U+FFFE or a control character, and a path 20 levels deep: refused")
    func sizesAndCharacters() throws {
        try Self.withConfiguration { catalog in
            let huge = String(repeating: "Kaffee ", count: 3000)
            var (result, changed) = try Self.importing(Self.xliff("Welcome, %@!", huge + "%@"), into: catalog)
            #expect(result.status == 1 && !changed)
            #expect(result.standardOutput.contains("the translation is 21002 bytes; a value is at most 16384"))
            (result, changed) = try Self.importing(
                Self.xliff("Welcome, %@!", "Hallo &#xFFFE;%@", raw: true),
                into: catalog
            )
            #expect(result.status != 0 && !changed, "\(result.standardOutput)\(result.standardError)")
            // C0 controls XML itself refuses (exit 2); a C1 control it allows is refused here.
            (result, changed) = try Self.importing(
                Self.xliff("Welcome, %@!", "Hallo &#x7;%@", raw: true),
                into: catalog
            )
            #expect(result.status == 2 && !changed)
            (result, changed) = try Self.importing(
                Self.xliff("Welcome, %@!", "Hallo &#x85;%@", raw: true),
                into: catalog
            )
            #expect(result.status == 1 && !changed)
            #expect(result.standardOutput.contains("holds U+0085, a control character"))
            let deep = "Welcome, %@!|==|" + Array(repeating: "device.iphone", count: 10).joined(separator: ".")
            let started = ContinuousClock.now
            (result, changed) = try Self.importing(Self.xliff(deep, "Hallo %@"), into: catalog)
            #expect(result.status == 1 && !changed && ContinuousClock.now - started < .seconds(30))
            #expect(result.standardOutput.contains("names a variation path 20 levels deep; at most 16"))
        }
    }

    @Test("an import keeps the modes of the files it replaces, leaves no staging copy, and removes a killed one's")
    func modesAndStaging() throws {
        try Self.withConfiguration { catalog in
            let file = catalog.appendingPathComponent("Localizable.xcstrings")
            try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
            let parent = catalog.deletingLastPathComponent()
            // A staging copy of an import killed earlier: its process is gone.
            let abandoned = parent.appendingPathComponent(".Localizations.caffe-import-2147483646-7")
            try FileManager.default.createDirectory(at: abandoned, withIntermediateDirectories: true)
            let (result, changed) = try Self.importing(Self.xliff("Welcome, %@!", "Servus, %@!"), into: catalog)
            #expect(result.status == 0 && changed, "\(result.standardOutput)\(result.standardError)")
            #expect(!result.standardOutput.contains("note: no menu.json"))
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o640)
            #expect(try String(contentsOf: file, encoding: .utf8).contains("Servus, %@!"))
            let left = try FileManager.default.contentsOfDirectory(atPath: parent.path).filter {
                $0.contains("caffe-import")
            }
            #expect(left.isEmpty, "\(left)")
        }
    }

    @Test("a file the import may not write stops it before anything changes: all old, nothing left behind")
    func allOrNothing() throws {
        try Self.withConfiguration { catalog in
            let locked = catalog.appendingPathComponent("de.lproj/Menu.strings")
            let lock = Process()
            lock.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
            lock.arguments = ["+i", locked.path]
            try lock.run()
            lock.waitUntilExit()
            try #require(lock.terminationStatus == 0, "chattr +i is needed to make a file no one may write")
            defer {
                let unlock = Process()
                unlock.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
                unlock.arguments = ["-i", locked.path]
                try? unlock.run()
                unlock.waitUntilExit()
            }
            let xliff = """
                <?xml version="1.0" encoding="UTF-8"?>
                <xliff version="1.2">
                <file original="Localizable.xcstrings" source-language="en" target-language="de"><body>
                <trans-unit id="Welcome"><source>Welcome</source><target>Herzlich willkommen</target></trans-unit>
                </body></file>
                <file original="en.lproj/Menu.strings" source-language="en" target-language="de"><body>
                <trans-unit id="juice"><source>juice</source><target>Fruchtsaft</target></trans-unit>
                </body></file></xliff>
                """
            let (result, changed) = try Self.importing(xliff, into: catalog)
            #expect(result.status == 2 && !changed)
            #expect(
                result.standardError.contains(
                    "cannot write de.lproj/Menu.strings: Operation not permitted (nothing changed)"
                ),
                "\(result.standardError)"
            )
            let left = try FileManager.default.contentsOfDirectory(atPath: catalog.deletingLastPathComponent().path)
                .filter { $0.contains("caffe-import") }
            #expect(left.isEmpty, "\(left)")
        }
    }

    @Test("a catalog file reached through a symbolic link is refused, and the file it points to is untouched")
    func symbolicLinks() throws {
        try Self.withConfiguration { catalog in
            let live = catalog.deletingLastPathComponent().appendingPathComponent("live.xcstrings")
            let file = catalog.appendingPathComponent("Localizable.xcstrings")
            try FileManager.default.moveItem(at: file, to: live)
            try FileManager.default.createSymbolicLink(at: file, withDestinationURL: live)
            let before = try Data(contentsOf: live)
            let (result, _) = try Self.importing(Self.xliff("Welcome, %@!", "Servus, %@!"), into: catalog)
            #expect(result.status == 2)
            #expect(result.standardError.contains("Localizable.xcstrings is reached through a symbolic link"))
            #expect(try Data(contentsOf: live) == before)
        }
    }

    @Test("export --language takes a BCP 47 tag, never a path")
    func exportLanguage() throws {
        try Self.withConfiguration { catalog in
            let output = catalog.deletingLastPathComponent().appendingPathComponent("out")
            let result = try Support.runCaffe([
                "catalog", "export", "--language", "../x", "--output", output.path, "--catalog", catalog.path,
            ])
            #expect(result.status == 64)
            #expect(result.standardError.contains("'../x' is not a BCP 47 language tag"))
            #expect(
                !FileManager.default.fileExists(
                    atPath: catalog.deletingLastPathComponent().appendingPathComponent("x.xcloc").path
                )
            )
        }
    }
}
