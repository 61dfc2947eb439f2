// Caffe — Localization tests.
import CaffeTestKit
import Foundation
import Testing

private typealias Support = RenderingSupport

/// Issue 44: `caffe lint` as a CI gate fails on what it was asked to fail on, and says what it
/// could not check: `--strict` fails on warnings, a span copied into a language without agreement
/// rules is named, and a menu is checked against the localizations it must serve.
@Suite("Issue 44: caffe lint's gates")
struct LintGateTests {
    /// `config/` copied into a temporary folder, `edit` applied, `body` run on the copy.
    static func withConfiguration<T>(_ edit: (URL) throws -> Void = { _ in }, _ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lint-gate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Support.repositoryRoot.appendingPathComponent("config"), to: folder)
        try edit(folder)
        return try body(folder)
    }

    /// A Czech copy of the order line: Czech has no agreement rules (Polish, the first language
    /// this test used, has had them since issue 50).
    static func addCzech(to folder: URL) throws {
        let path = folder.appendingPathComponent("Localizations/cs.lproj")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        try Data(
            """
            "%lld %@ %@" = "^[%1$lld %2$@ %3$@](inflect: true)";
            "You ordered %@." = "Vaše objednávka: %@.";

            """.utf8
        ).write(to: path.appendingPathComponent("Localizable.strings"))
    }

    @Test("--strict fails on a warning, --allow-warning accepts its code, and a code that is none is refused")
    func strictMeansStrict() throws {
        try Self.withConfiguration { folder in
            let catalog = folder.appendingPathComponent("Localizations").path
            let plain = try Support.runCaffe(["lint", catalog])
            #expect(plain.status == 0, "\(plain.standardOutput)")
            let strict = try Support.runCaffe(["lint", "--strict", catalog])
            #expect(strict.status == 1)
            #expect(
                strict.standardOutput.hasSuffix(
                    "0 errors, 1 warning, 0 notes\nstrict: 1 warning fails (needs-review); --allow-warning CODE accepts a code\n"
                ),
                "\(strict.standardOutput)"
            )
            let allowed = try Support.runCaffe(["lint", "--strict", "--allow-warning", "needs-review", catalog])
            #expect(allowed.status == 0 && allowed.standardOutput.hasSuffix("strict: passes (allowed: needs-review)\n"))
            let typo = try Support.runCaffe(["lint", "--strict", "--allow-warning", "neds-review", catalog])
            #expect(typo.status == 64 && typo.standardError.contains("neds-review is no warning code"))
            let loose = try Support.runCaffe(["lint", "--allow-warning", "needs-review", catalog])
            #expect(loose.status == 64 && loose.standardError.contains("--allow-warning only matters with --strict"))
            let rules = try Support.runCaffe(["lint", "--accept-rules", catalog])
            #expect(rules.status == 64)
        }
    }

    @Test("a Czech copy of the order line: lint warns, the strict preflight fails naming key and language")
    func spanCopiedIntoCzech() throws {
        try Self.withConfiguration(Self.addCzech) { folder in
            let catalog = folder.appendingPathComponent("Localizations").path
            let lint = try Support.runCaffe(["lint", catalog])
            #expect(lint.status == 0)
            #expect(
                lint.standardOutput.contains(
                    "cs.lproj/Localizable.strings:1:1: warning: [agreement-without-rules] '%lld %@ %@' (cs): cs has no agreement rules"
                ),
                "\(lint.standardOutput)"
            )
            #expect(lint.standardOutput.contains("  cs      no store sells in it"))
            let strict = try Support.runCaffe(["lint", "--strict", catalog])
            #expect(strict.status == 1)
            #expect(strict.standardOutput.contains("agreement-without-rules"))
            let preflight = try Support.runCaffe(["lint", "--agreement", "--strict", catalog])
            #expect(preflight.status == 1)
            #expect(
                preflight.standardOutput.contains(
                    "  cs: '%lld %@ %@' (Localizable) has an agreement span: shown as written"
                ),
                "\(preflight.standardOutput)"
            )
            #expect(preflight.standardOutput.hasSuffix("strict: 1 fail\n"))
            let plainPreflight = try Support.runCaffe(["lint", "--agreement", catalog])
            #expect(plainPreflight.status == 0)
        }
    }

    @Test(
        "lint --menu: a new store's items without a price in its currency are errors; a store without a localization is named"
    )
    func marketReadiness() throws {
        let edit: (URL) throws -> Void = { folder in
            try Self.addCzech(to: folder)
            let url = folder.appendingPathComponent("menu.json")
            var menu = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            var stores = try #require(menu["stores"] as? [[String: Any]])
            stores.append([
                "id": "store-cz-prg", "locale": "cs-CZ", "currency": "CZK", "timeZone": "Europe/Prague",
                "taxRate": "0.12",
            ])
            stores.append([
                "id": "store-nl-ams", "locale": "nl-NL", "currency": "EUR", "timeZone": "Europe/Amsterdam",
                "taxRate": "0.09",
            ])
            stores.append(["id": "store-xx", "taxRate": "0.05"])
            menu["stores"] = stores
            var items = try #require(menu["items"] as? [[String: Any]])
            for index in items.indices where items[index]["id"] as? String == "pizza" {
                var prices = try #require(items[index]["prices"] as? [String: [String: String]])
                prices["small"]?["CZK"] = "189.00"
                prices["large"]?["CZK"] = "259.00"
                items[index]["prices"] = prices
            }
            menu["items"] = items
            try JSONSerialization.data(withJSONObject: menu, options: [.prettyPrinted]).write(to: url)
        }
        try Self.withConfiguration(edit) { folder in
            let result = try Support.runCaffe([
                "lint", "--menu", folder.appendingPathComponent("menu.json").path,
                folder.appendingPathComponent("Localizations").path,
            ])
            #expect(result.status == 1)
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            let missing = lines.filter { $0.contains("[missing-price]") }
            #expect(missing.count == 7, "\(missing)")
            #expect(
                missing.contains {
                    $0.hasSuffix(
                        "error: [missing-price] 'salad' (cs-CZ): store-cz-prg sells in CZK, and salad has no CZK price for small, large: its orders there are dead-lettered (missing-price)"
                    )
                }
            )
            #expect(!missing.contains { $0.contains("'pizza'") || $0.contains("store-nl-ams") })
            #expect(
                lines.contains {
                    $0.contains("[store-without-localization] 'store-nl-ams' (nl-NL): no localization serves nl-NL")
                }
            )
            #expect(
                lines.contains {
                    $0.contains("[store-without-market] 'store-xx': the store has no locale, currency, timeZone")
                }
            )
            #expect(lines.contains("  cs      store-cz-prg (cs-CZ, CZK): 7 items without a price"))
        }
    }

    @Test("the README's table of lint codes lists every code caffe lint --list-codes prints, with its severities")
    func readmeListsEveryCode() throws {
        let result = try Support.runCaffe(["lint", "--list-codes", "--json"])
        #expect(result.status == 0)
        let codes = try #require(
            try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]]
        )
        let readme = try String(
            contentsOf: Support.repositoryRoot.appendingPathComponent("README.md"),
            encoding: .utf8
        )
        // `| `code` | severity | what it finds |` rows of the "What caffe lint reports" table.
        var rows: [String: String] = [:]
        for line in readme.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, cells[0].hasPrefix("`"), cells[0].hasSuffix("`") else { continue }
            rows[String(cells[0].dropFirst().dropLast())] = cells[1]
        }
        for code in codes {
            let name = try #require(code["code"] as? String)
            let severities = try #require(code["severities"] as? [String])
            let cell = try #require(rows[name], "README's lint table has no row for \(name)")
            for severity in severities {
                // "a note" and "(zero: a note)" name a note; "error (warning when …)" both.
                #expect(cell.contains(severity), "README: \(name) is \(severities), its row says '\(cell)'")
            }
        }
        let listed = Set(codes.compactMap { $0["code"] as? String })
        let documented = Set(rows.keys.filter { $0.contains("-") && !$0.contains(" ") && !$0.contains("/") })
        #expect(documented.subtracting(listed).isEmpty, "README rows with no code: \(documented.subtracting(listed))")
    }
}
