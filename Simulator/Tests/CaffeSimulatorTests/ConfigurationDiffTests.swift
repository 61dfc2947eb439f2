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
    /// Two copies of `config/`, `before` and `after`, in a new temporary folder `root`.
    static func copies() throws -> (root: URL, before: URL, after: URL) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("diff-\(UUID().uuidString)")
        let before = root.appendingPathComponent("before")
        let after = root.appendingPathComponent("after")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CatalogBenchmarkTests.configuration, to: before)
        try FileManager.default.copyItem(at: CatalogBenchmarkTests.configuration, to: after)
        return (root, before, after)
    }

    static func configurations() throws -> (before: URL, after: URL, journal: URL) {
        let (root, before, after) = try copies()
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
            .init(seed: 11, orders: 3000, markets: try TestMarkets.mix("fr-FR:30,de-DE:30,en-US:40")),
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

        // Each key with its values and what the journal made of it: the unused note reaches German
        // orders and none shows it; the menu's removed item shows as dead letters.
        let keys = Dictionary(uniqueKeysWithValues: report.keyChanges.map { ($0.key, $0) })
        let german = try #require(report.keyChanges.first { $0.key == "Menu:juice [de]" })
        #expect(german.before == "Saft" && german.after == "Fruchtsaft" && german.kind == .changed)
        #expect(german.outputsChanged == 2 * juice.count && german.eventsReaching > 0 && german.isSeen)
        let note = try #require(keys["Menu:unused_note [de]"])
        #expect(note.kind == .added && note.before == nil && note.after == "Notiz" && note.outputsChanged == 0)
        #expect(
            note.unseenReason
                == "\(note.eventsReaching) events fall back to de, and none shows a difference: no event uses it, "
                + "or its new value renders alike"
        )
        let menu = try #require(keys["menu.json"])
        #expect(menu.outputsChanged == 0 && menu.failuresCaused == failure.count && menu.isSeen)
        #expect(keys["Localizable:Welcome, %@! [fr]"]?.before?.contains("Bienvenu") == true)

        #expect(ConfigurationDiff.trips(report, gates: [], allow: []).isEmpty)
        // Four changes by keys not allowed, and the note nobody saw.
        #expect(ConfigurationDiff.trips(report, gates: [.changed], allow: []).count == 5)
        let allowed = ["Menu:juice", "Welcome, %@!", "prosciutto"]
        #expect(
            ConfigurationDiff.trips(report, gates: [.changed], allow: allowed) == [
                "changed: Menu:unused_note [de] not checked: \(note.unseenReason ?? "") (--allow-unreached, or "
                    + "--allow Menu:unused_note, accepts it)"
            ]
        )
        #expect(ConfigurationDiff.trips(report, gates: [.changed], allow: allowed, allowUnreached: true).isEmpty)
        #expect(ConfigurationDiff.trips(report, gates: [.changed], allow: allowed + ["unused_note"]).isEmpty)
        // An --allow that names no key that differs trips every gate: a typo allows nothing.
        #expect(
            ConfigurationDiff.trips(report, gates: [.failures], allow: ["Menu:jiuce"])
                .contains("allow: 'Menu:jiuce' names no key that differs")
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

    @Test("the HTML marks the words that changed and escapes the rest")
    func htmlMarksWords() throws {
        #expect(
            ConfigurationDiff.marked("1 großer Saft", "1 großer Fruchtsaft")
                == ("1 großer <del>Saft</del>", "1 großer <ins>Fruchtsaft</ins>")
        )
        #expect(
            ConfigurationDiff.marked("2 <b> & Säfte", "2 <b> & kleine Säfte")
                == ("2 &lt;b&gt; &amp; Säfte", "2 &lt;b&gt; &amp; <ins>kleine </ins>Säfte")
        )
        #expect(ConfigurationDiff.marked("Bienvenu, Ana !", "") == ("<del>Bienvenu, Ana !</del>", ""))
        #expect(
            ConfigurationDiff.words("1 kleiner Saft, bitte") == ["1", " ", "kleiner", " ", "Saft", ",", " ", "bitte"]
        )
        // Cut to the change at word boundaries, `…` where cut.
        let long = String(repeating: "Kaffee mit Milch, ", count: 6)
        let (before, after) = Lane.excerpts(long + "1 Saft und 1 Pizza", long + "1 Fruchtsaft und 1 Pizza")
        #expect(before == "…Milch, Kaffee mit Milch, 1 Saft und 1 Pizza")
        #expect(after == "…Milch, Kaffee mit Milch, 1 Fruchtsaft und 1 Pizza")
    }

    /// The repository's own history: 9f48d74 made French and German confirmations agree and added
    /// Italian and Portuguese. Its message names what changed for fr and de orders: the order
    /// line, the French welcome and sizes, and the German "You ordered" label; the report must name
    /// exactly those keys, not the other 85 that differ (it, pt-BR, the add-to-order string).
    @Test("on real history: the keys a commit changed for French and German orders, and no others")
    func realHistory() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let before = try ConfigurationSource("9f48d74^:config", repository: repository)
        defer { before.remove() }
        let after = try ConfigurationSource("9f48d74:config", repository: repository)
        defer { after.remove() }
        let journal = FileManager.default.temporaryDirectory.appendingPathComponent(
            "history-\(UUID().uuidString).journal"
        )
        try JournalTests.generate(
            .init(seed: 9, orders: 2000, markets: try TestMarkets.mix("fr-FR:50,de-DE:50")),
            to: journal
        )
        let report = try ConfigurationDiff(
            configuration: .init(journal: journal, before: before.folder, after: after.folder)
        ).run()
        #expect(report.catalogChanges.count == 92)
        #expect(
            Set(report.changes.map(\.key)) == [
                "Localizable:%lld %@ %@ [de]", "Localizable:You ordered %@. [de]", "Localizable:%lld %@ %@ [fr]",
                "Localizable:Welcome, %@! [fr]", "Menu:large [fr]", "Menu:small [fr]",
            ]
        )
        let welcome = try #require(report.changes.first { $0.key == "Localizable:Welcome, %@! [fr]" })
        #expect(welcome.examples.allSatisfy { $0.field == "greeting" && $0.after.hasPrefix("Bienvenu") })
        #expect(report.failures.isEmpty)
    }

    /// A key in a localization the catalog did not have (de-DE beside de): the single-change
    /// catalog makes the new localization reachable, so the key is named alone.
    @Test("a key in a new localization is named alone")
    func newLocalization() throws {
        let (root, before, after) = try Self.copies()
        defer { try? FileManager.default.removeItem(at: root) }
        let strings = after.appendingPathComponent("Localizations/Localizable.xcstrings")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: strings)) as? [String: Any])
        var all = try #require(document["strings"] as? [String: Any])
        var greeting = try #require(all["Welcome, %@!"] as? [String: Any])
        var localizations = try #require(greeting["localizations"] as? [String: Any])
        localizations["de-DE"] = ["stringUnit": ["state": "translated", "value": "Grüß Gott, %@!"]]
        greeting["localizations"] = localizations
        all["Welcome, %@!"] = greeting
        document["strings"] = all
        try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys]).write(to: strings)
        let journal = root.appendingPathComponent("orders.journal")
        try JournalTests.generate(.init(seed: 2, orders: 200, markets: try TestMarkets.mix("de-DE:100")), to: journal)
        let report = try ConfigurationDiff(configuration: .init(journal: journal, before: before, after: after)).run()
        #expect(report.catalogChanges == ["Localizable:Welcome, %@! [de-DE]"])
        #expect(report.changes.map(\.key) == ["Localizable:Welcome, %@! [de-DE]"])
        #expect(report.changes.first?.attribution == .alone)
        #expect(report.changes.first?.count == 200)
        #expect(report.changes.first?.examples.first?.after.hasPrefix("Grüß Gott, ") == true)
    }

    @Test("a change in a localization no event of the journal reaches is not checked, and the gate fails")
    func unreachedLocalization() throws {
        let (root, before, after) = try Self.copies()
        defer { try? FileManager.default.removeItem(at: root) }
        let italian = after.appendingPathComponent("Localizations/it.lproj/Menu.strings")
        let text = try String(contentsOf: italian, encoding: .utf8)
        try text.replacingOccurrences(of: "\"juice\" = \"succo\";", with: "\"juice\" = \"spremuta\";")
            .write(to: italian, atomically: true, encoding: .utf8)
        let journal = root.appendingPathComponent("orders.journal")
        try JournalTests.generate(.init(seed: 5, orders: 300, markets: try TestMarkets.mix("de-DE,fr-FR")), to: journal)
        let report = try ConfigurationDiff(configuration: .init(journal: journal, before: before, after: after)).run()
        #expect(report.catalogChanges == ["Menu:juice [it]"])
        #expect(report.changedEvents == 0 && report.changes.isEmpty)
        let key = try #require(report.keyChanges.first)
        #expect(key.before == "succo" && key.after == "spremuta" && key.eventsReaching == 0 && !key.isSeen)
        #expect(key.unseenReason == "no event of the journal falls back to it")
        #expect(
            ConfigurationDiff.trips(report, gates: [.changed], allow: []) == [
                "changed: Menu:juice [it] not checked: no event of the journal falls back to it (--allow-unreached, "
                    + "or --allow Menu:juice, accepts it)"
            ]
        )
        #expect(
            ConfigurationDiff.summary(report).contains(
                "  Menu:juice [it] changed: NOT CHECKED: no event of the journal falls back to it"
            )
        )
        // Italian traffic reaches it.
        try JournalTests.generate(.init(seed: 5, orders: 300, markets: try TestMarkets.mix("it-IT")), to: journal)
        let reached = try ConfigurationDiff(configuration: .init(journal: journal, before: before, after: after)).run()
        #expect(reached.keyChanges.first?.isSeen == true && reached.changedEvents > 0)
        #expect(ConfigurationDiff.trips(reached, gates: [.changed], allow: ["Menu:juice"]).isEmpty)
    }

    @Test("a damaged journal fails the diff (exit 2, naming the damage): a gate never passes on what was not read")
    func damagedJournal() throws {
        let (before, after, journal) = try Self.configurations()
        let contents = try Journal.read(journal)
        let second = try #require(contents.entries.dropFirst().first).offset
        var bytes = try Data(contentsOf: journal)
        bytes = bytes.prefix(second) + Data(repeating: 0xFF, count: 64)
        let damaged = journal.deletingLastPathComponent().appendingPathComponent("damaged.journal")
        try bytes.write(to: damaged)
        defer { try? FileManager.default.removeItem(at: damaged) }
        #expect(throws: JournalError.self) {
            try ConfigurationDiff(configuration: .init(journal: damaged, before: before, after: after)).run()
        }
        let sim = try #require(ExecutableRunner.locate("caffe-sim"))
        let result = try ExecutableRunner.run(
            sim,
            ["diff", "--journal", damaged.path, "--before", before.path, "--after", after.path, "--fail-on", "changed"]
        )
        #expect(result.status == 2 && !result.standardOutput.contains("gates: pass"))
        #expect(result.standardError.contains("after 1 good record"), "\(result.standardError)")
        #expect(result.standardError.contains("the diff reads a whole journal or none"))
        let replay = try ExecutableRunner.run(sim, ["replay", damaged.path, "--dry-run"])
        #expect(
            replay.status == 1 && replay.standardError.contains("nothing sent (--accept-damage sends the 1 records")
        )
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
        let allow = ["--allow", "Menu:juice", "--allow", "Welcome, %@!", "--allow", "prosciutto"]
        // The unused note reaches no output: not checked, so the gate still fails, saying so.
        let unchecked = try ExecutableRunner.run(sim, common + ["--fail-on", "changed"] + allow)
        #expect(unchecked.status == 1)
        #expect(unchecked.standardOutput.contains("  Menu:unused_note [de] added: NOT CHECKED: "))
        #expect(unchecked.standardOutput.contains("      was (absent)\n      now \"Notiz\"\n"))
        #expect(unchecked.standardOutput.contains("  changed: Menu:unused_note [de] not checked: "))
        let allowed = try ExecutableRunner.run(
            sim,
            common + ["--fail-on", "changed"] + allow + ["--allow-unreached", "--format", "json"]
        )
        #expect(allowed.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(allowed.standardOutput.utf8)) as? [String: Any]
        )
        #expect((object["trips"] as? [Any])?.isEmpty == true)
        #expect(object["allow_unreached"] as? Bool == true)
        let report = try #require(object["report"] as? [String: Any])
        #expect((report["changes"] as? [Any])?.count == 4)
        #expect(report["orders"] as? Int == 3000)
        let keys = try #require(report["key_changes"] as? [[String: Any]])
        let juice = try #require(keys.first { $0["key"] as? String == "Menu:juice [de]" })
        #expect(juice["before"] as? String == "Saft" && juice["after"] as? String == "Fruchtsaft")
        #expect((juice["outputs_changed"] as? Int ?? 0) > 0 && (juice["events_reaching"] as? Int ?? 0) > 0)
        // A typo in --allow: reported, and it fails the gate.
        let typo = try ExecutableRunner.run(
            sim,
            common + ["--fail-on", "changed"] + allow + ["--allow-unreached", "--allow", "Menu:jiuce"]
        )
        #expect(typo.status == 1 && typo.standardOutput.contains("  allow: 'Menu:jiuce' names no key that differs"))
        // A configuration that cannot be read: exit 2, saying which.
        let unreadable = try ExecutableRunner.run(
            sim,
            ["diff", "--journal", journal.path, "--before", "no-such-revision:config", "--after", after.path]
        )
        #expect(unreadable.status == 2)
        #expect(unreadable.standardError.contains("caffe-sim diff: --before: 'no-such-revision:config': git failed"))
    }
}
