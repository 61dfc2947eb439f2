// Caffe — simulator tests.
import CaffeCore
import CaffeTestKit
import Foundation
import Testing

@testable import CaffeSimulator

/// `caffe-sim diff`: two copies of `config/`, one edited as a localization team would, and a
/// generated journal rendered through both.
@Suite("Configuration diff", .serialized)
struct ConfigurationDiffTests {
    /// `config/` twice; the second with the French greeting reworded, the German juice renamed, a
    /// German ingredient renamed (receipts list ingredients), a German key added that nothing uses,
    /// and the cortadito taken off the menu (its orders are dead-lettered after).
    static func configurations() throws -> (before: URL, after: URL, journal: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString)")
        let before = root.appendingPathComponent("before")
        let after = root.appendingPathComponent("after")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CatalogBenchmarkTests.configuration, to: before)
        try FileManager.default.copyItem(at: CatalogBenchmarkTests.configuration, to: after)
        let catalog = after.appendingPathComponent("Localizations")
        let strings = catalog.appendingPathComponent("Localizable.xcstrings")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: strings)) as? [String: Any])
        var all = try #require(document["strings"] as? [String: Any])
        var greeting = try #require(all["Welcome, %@!"] as? [String: Any])
        var localizations = try #require(greeting["localizations"] as? [String: Any])
        localizations["fr"] = ["stringUnit": ["state": "translated", "value": "Bonjour, %@ !"]]
        greeting["localizations"] = localizations
        all["Welcome, %@!"] = greeting
        document["strings"] = all
        try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys]).write(to: strings)
        let menuStrings = catalog.appendingPathComponent("de.lproj/Menu.strings")
        let german =
            try String(contentsOf: menuStrings, encoding: .utf8)
            .replacingOccurrences(of: "\"juice\" = \"Saft\";", with: "\"juice\" = \"Fruchtsaft\";")
            .replacingOccurrences(of: "\"prosciutto\" = \"Prosciutto\";", with: "\"prosciutto\" = \"Rohschinken\";")
            + "\n\"unused_note\" = \"Notiz\";\n"
        try german.write(to: menuStrings, atomically: true, encoding: .utf8)
        let menuURL = after.appendingPathComponent("menu.json")
        var menu = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: menuURL)) as? [String: Any])
        let items = try #require(menu["items"] as? [[String: Any]])
        menu["items"] = items.filter { $0["id"] as? String != "cortadito" }
        try JSONSerialization.data(withJSONObject: menu, options: [.prettyPrinted]).write(to: menuURL)
        let journal = root.appendingPathComponent("orders.journal")
        try JournalTests.generate(
            .init(seed: 11, orders: 3000, locales: [("fr-FR", 30), ("de-DE", 30), ("en-US", 40)]),
            to: journal
        )
        return (before, after, journal)
    }

    @Test("names exactly the keys that change outputs, with examples; dead letters that appear; gates")
    func namesTheKeysThatChanged() throws {
        let (before, after, journal) = try Self.configurations()
        var configuration = ConfigurationDiff.Configuration(journal: journal, before: before, after: after)
        configuration.threads = 2
        let report = try ConfigurationDiff(configuration: configuration).run()
        #expect(report.orders == 3000)
        #expect(
            report.catalogChanges == [
                "Localizable:Welcome, %@! [fr]", "Menu:juice [de]", "Menu:prosciutto [de]", "Menu:unused_note [de]",
                "menu.json",
            ]
        )
        let lines = report.changes.map { "\($0.output) \($0.locale) \($0.key)" }
        #expect(
            lines == [
                "confirmation de Menu:juice [de]", "confirmation fr Localizable:Welcome, %@! [fr]",
                "receipt de Menu:juice [de]", "receipt de Menu:prosciutto [de]",
            ]
        )
        let greeting = try #require(report.changes.first { $0.key.hasPrefix("Localizable") })
        #expect(greeting.examples.count == 3)
        for example in greeting.examples {
            #expect(example.field == "greeting" && !example.stylingOnly)
            #expect(example.before.hasPrefix("Bienvenu") && example.after.hasPrefix("Bonjour, "))
        }
        let juice = try #require(report.changes.first { $0.output == "receipt" && $0.key.hasPrefix("Menu:juice") })
        // "Saft" or its plural "Säfte", inflected the same way after the rename.
        #expect(juice.examples.allSatisfy { !$0.before.contains("Frucht") && $0.after.contains("Fruchts") })
        #expect(juice.count == report.changes.first { $0.output == "confirmation" && $0.locale == "de" }?.count)
        let ham = try #require(report.changes.first { $0.key.hasPrefix("Menu:prosciutto") })
        #expect(ham.examples.allSatisfy { $0.before.contains("Prosciutto") && $0.after.contains("Rohschinken") })
        let failure = try #require(report.failures.first)
        #expect(report.failures.count == 1)
        #expect(failure.change == "appears" && failure.reason == "unknown-item" && failure.count > 0)

        #expect(ConfigurationDiff.trips(report, gates: [], allow: []).isEmpty)
        #expect(ConfigurationDiff.trips(report, gates: [.changed], allow: []).count == 4)
        #expect(
            ConfigurationDiff.trips(report, gates: [.changed], allow: ["Menu:juice", "Welcome, %@!", "prosciutto"])
                .isEmpty
        )
        #expect(
            ConfigurationDiff.trips(report, gates: [.failures], allow: [])
                == ["failures: \(failure.count) now fail (unknown-item)"]
        )

        // The same report on one thread: lanes merge in journal order.
        configuration.threads = 1
        let alone = try ConfigurationDiff(configuration: configuration).run()
        #expect(alone.changes == report.changes)
        #expect(alone.failures == report.failures)
    }

    @Test("the same configuration twice: nothing changes, the gates pass")
    func identicalConfigurations() throws {
        let (before, _, journal) = try Self.configurations()
        let report = try ConfigurationDiff(
            configuration: .init(journal: journal, before: before, after: before)
        ).run()
        #expect(report.catalogChanges.isEmpty && report.changes.isEmpty && report.failures.isEmpty)
        #expect(report.changedEvents == 0)
        #expect(ConfigurationDiff.trips(report, gates: [.changed, .failures], allow: []).isEmpty)
    }

    @Test("caffe-sim diff exits 1 when a gate trips, 0 when the change is allowed; JSON for CI")
    func commandLine() throws {
        let (before, after, journal) = try Self.configurations()
        let sim = try #require(ExecutableRunner.locate("caffe-sim"))
        let common = ["diff", "--journal", journal.path, "--before", before.path, "--after", after.path]
        let tripped = try ExecutableRunner.run(sim, common + ["--fail-on", "changed"])
        #expect(tripped.status == 1)
        #expect(tripped.standardOutput.contains("gates: FAIL"))
        let allowed = try ExecutableRunner.run(
            sim,
            common + [
                "--fail-on", "changed", "--allow", "Menu:juice", "--allow", "Welcome, %@!", "--allow", "prosciutto",
                "--format", "json",
            ]
        )
        #expect(allowed.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(allowed.standardOutput.utf8)) as? [String: Any]
        )
        #expect((object["trips"] as? [Any])?.isEmpty == true)
        let report = try #require(object["report"] as? [String: Any])
        #expect((report["changes"] as? [Any])?.count == 4)
        #expect(report["orders"] as? Int == 3000)
    }
}
