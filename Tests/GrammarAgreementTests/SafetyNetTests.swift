// Caffe — GrammarAgreement tests.
import Foundation
import Localization
import RichText
import Testing

@testable import GrammarAgreement

/// Issue 44: the checks a localization team relies on tell what they know from what they guess,
/// and say what they cannot check.
@Suite("Issue 44: the preflight tells guesses from knowledge")
struct SafetyNetTests {
    static let configuration = IssueTwentySevenTests.configuration

    /// `config/Localizations` copied into a temporary folder, `edit` applied, and the preflight run
    /// with the order line's uses (sizes in slot 2, items in slot 3).
    static func preflight(
        items: Set<String> = ["coffee", "pizza"],
        _ edit: (URL) throws -> Void
    ) throws -> AgreementPreflight.Report {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("safety-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: configuration.appendingPathComponent("Localizations"), to: folder)
        try edit(folder)
        let uses = [AgreementPreflight.Use(key: "%lld %@ %@", arguments: [1: ["small", "large"], 2: items])]
        return AgreementPreflight(catalog: try StringCatalog(directory: folder), uses: uses).run()
    }

    /// Appends `line` to a `.strings` file of the copy.
    static func append(_ line: String, to file: String, in folder: URL) throws {
        let handle = try FileHandle(forWritingTo: folder.appendingPathComponent(file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "\n").utf8))
        try handle.close()
    }

    @Test("an invented German noun ending in a real one is left as written and reported, not pluralised")
    func inventedGermanNounsStayAsWritten() throws {
        for word in ["Snorkette", "Gnatzer", "Plimmerkette", "Schnurzeltasse"] {
            let text = try GrammarAgreement.inflect(
                "Kaffee ^[mit %lld %@](inflect: true)",
                arguments: [.integer(2), .string(word)],
                locale: "de-DE"
            )
            #expect(text.plainText == "Kaffee mit 2 \(word)")
            #expect(text.warnings.map(\.code) == [.unknownWord], "\(word)")
        }
        // Real compounds still agree: a listed first part, one without its -e, one of listed
        // compounds (Spätzle|presse), two parts (Voll|korn).
        for (word, plural) in [
            ("Kaffeebecher", "Kaffeebechern"), ("Erdbeertorte", "Erdbeertorten"),
            ("Spätzlepfanne", "Spätzlepfannen"), ("Vollkornbrötchen", "Vollkornbrötchen"),
        ] {
            let text = try GrammarAgreement.inflect(
                "Kaffee ^[mit %lld %@](inflect: true)",
                arguments: [.integer(2), .string(word)],
                locale: "de-DE"
            )
            #expect(text.plainText == "Kaffee mit 2 \(plural)")
        }
    }

    @Test("English and Spanish words no lexicon lists are inflected by rule, and say so")
    func ruleInflectionsAreReported() throws {
        let english = try GrammarAgreement.inflect(
            "Add ^[%lld %@ %@](inflect: true)",
            arguments: [.integer(2), .string("large"), .string("zorblat")],
            locale: "en-US"
        )
        #expect(english.plainText == "Add 2 large zorblats")
        #expect(english.warnings.map(\.code) == [.inflectedByRule])
        #expect(english.warnings.first?.word == "zorblat")
        let known = try GrammarAgreement.inflect(
            "Add ^[%lld %@ %@](inflect: true)",
            arguments: [.integer(2), .string("large"), .string("pizza")],
            locale: "en-US"
        )
        #expect(known.plainText == "Add 2 large pizzas" && known.warnings.isEmpty)
        let spanish = try GrammarAgreement.inflect(
            "Añadir ^[%1$lld %3$@ %2$@](inflect: true)",
            arguments: [.integer(2), .string("pequeño"), .string("zorpeta")],
            locale: "es-ES"
        )
        #expect(spanish.plainText == "Añadir 2 zorpetas pequeñas")
        #expect(spanish.warnings.map(\.code) == [.inflectedByRule, .inflectedByRule])
        #expect(spanish.warnings.map(\.message).last?.contains("its ending makes it feminine") == true)
    }

    @Test("the preflight labels each word lexicon, declared, rule or unknown; strict fails on rule unless accepted")
    func preflightTreatments() throws {
        let clean = try Self.preflight { _ in }
        #expect(clean.unknown == 0 && clean.ambiguous == 0 && clean.rule == 0)
        #expect(clean.strictFailures(acceptingRules: false).isEmpty)
        let english = try #require(clean.locales.first { $0.locale == "en" })
        #expect(english.words.first { $0.word == "pizza" }?.treatment == .lexicon)
        #expect(english.words.first { $0.word == "cortadito" } == nil)

        let report = try Self.preflight(items: ["coffee", "zorblat", "snorkette"]) { folder in
            try Self.append("\"zorblat\" = \"zorblat\";", to: "en.lproj/Menu.strings", in: folder)
            try Self.append("\"snorkette\" = \"Snorkette\";", to: "de.lproj/Menu.strings", in: folder)
        }
        let en = try #require(report.locales.first { $0.locale == "en" })
        let zorblat = try #require(en.words.first { $0.word == "zorblat" })
        #expect(zorblat.treatment == .rule && zorblat.from == ["Menu/zorblat"])
        #expect(zorblat.reason?.contains("follows the spelling rules") == true)
        let de = try #require(report.locales.first { $0.locale == "de" })
        #expect(de.words.first { $0.word == "Snorkette" }?.treatment == .unknown)
        #expect(report.rule >= 1 && report.unknown >= 1)
        let failures = report.strictFailures(acceptingRules: false)
        #expect(failures.contains("en: rule 'zorblat' (Menu/zorblat)"))
        #expect(failures.contains("de: unknown 'Snorkette' (Menu/snorkette)"))
        let accepting = report.strictFailures(acceptingRules: true)
        #expect(!accepting.contains("en: rule 'zorblat' (Menu/zorblat)"))
        #expect(accepting.contains("de: unknown 'Snorkette' (Menu/snorkette)"))
        // German falls back to the English name, which no German lexicon knows.
        #expect(accepting.contains("de: unknown 'zorblat' (Menu/zorblat)"))

        // Version 2's JSON: lexicon and rule counted apart, and version 1's known still there.
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        #expect(json?["version"] as? Int == 2)
        let locale = (json?["locales"] as? [[String: Any]])?.first { $0["locale"] as? String == "en" }
        #expect(locale?["rule"] as? Int == en.rule && locale?["known"] as? Int == en.lexicon + en.rule)
    }

    @Test("a span copied into a language without agreement rules fails the strict preflight and warns in lint")
    func spansWithoutRules() throws {
        let report = try Self.preflight { folder in
            let path = folder.appendingPathComponent("cs.lproj")
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            try Data(#""%lld %@ %@" = "^[%1$lld %2$@ %3$@](inflect: true)";"#.utf8)
                .write(to: path.appendingPathComponent("Localizable.strings"))
        }
        #expect(report.withoutRules == ["ar", "cs", "ja"])
        #expect(report.spansWithoutRules == [.init(locale: "cs", table: "Localizable", key: "%lld %@ %@")])
        #expect(
            report.strictFailures(acceptingRules: true) == [
                "cs: '%lld %@ %@' (Localizable) has an agreement span, and cs has no agreement rules: shown as written"
            ]
        )
    }

    @Test("the markup lint warns about an agreement span in a language without rules, not in one with them")
    func markupLintWarnsWithoutRules() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("markup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (language, value) in [
            ("en", "Your order: ^[%lld %@](inflect: true)."), ("cs", "Vaše objednávka: ^[%lld %@](inflect: true)."),
            ("de", "Ihre Bestellung: ^[%lld %@](inflect: true)."),
        ] {
            let path = folder.appendingPathComponent("\(language).lproj")
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            try Data("\"Your order: %lld %@.\" = \"\(value)\";\n".utf8)
                .write(to: path.appendingPathComponent("Localizable.strings"))
        }
        let findings = CatalogMarkupLinter(catalog: try StringCatalog(directory: folder, developmentLanguage: "en"))
            .lint().findings
        #expect(findings.map(\.code) == [.agreementWithoutRules])
        #expect(findings.first?.locale == "cs" && findings.first?.severity == .warning)
        #expect(findings.first?.key == "Your order: %lld %@.")
    }
}
