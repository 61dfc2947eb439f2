// Caffe — Localization tests.

import Foundation
import Localization
import Testing

@Suite("Property list reader: real .stringsdict files")
struct StringsDictCorpusTests {
    typealias Support = PropertyListTestSupport

    static let files = [
        "deltachat-ios/he.lproj/Localizable.stringsdict",
        "deltachat-ios/uk.lproj/Localizable.stringsdict",
        "duckduckgo-ios/cs.lproj/Localizable.stringsdict",
        "element-x-ios/pl.lproj/Localizable.stringsdict",
        "mastodon-ios/ar.lproj/Intents.stringsdict",
        "mastodon-ios/ar.lproj/Localizable.stringsdict",
        "paragraph/ru.lproj/Account.stringsdict",
        "paragraph/ru.lproj/Main.stringsdict",
    ]

    static let formatSpecKeys: Set<String> = ["NSStringFormatSpecTypeKey", "NSStringFormatValueTypeKey"]

    /// The category keys of a variable dictionary, in file order.
    static func categories(_ variable: PropertyListValue?) -> [String] {
        (variable?.dictionaryValue?.keys ?? []).filter { !formatSpecKeys.contains($0) }
    }

    @Test(arguments: files)
    func loadsWithoutDiagnostics(path: String) throws {
        let result = try Support.readCorpusPropertyList(path)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        #expect(result.value?.dictionaryValue != nil)
    }

    // MARK: 1. mastodon-ios/ar.lproj/Localizable.stringsdict

    @Test func mastodonArabicHasSixCategories() throws {
        let root = try #require(
            try Support.readCorpusPropertyList("mastodon-ios/ar.lproj/Localizable.stringsdict").value
        )
        #expect(root.dictionaryValue?.count == 30)

        let unread = try #require(root["a11y.plural.count.unread.notification"])
        #expect(unread["NSStringLocalizedFormatKey"] == .string("%#@notification_count_unread_notification@"))
        let variable = unread["notification_count_unread_notification"]
        #expect(variable?["NSStringFormatSpecTypeKey"] == .string("NSStringPluralRuleType"))
        #expect(variable?["NSStringFormatValueTypeKey"] == .string("ld"))
        #expect(Self.categories(variable) == ["zero", "one", "two", "few", "many", "other"])
        #expect(variable?["few"] == .string("%ld إشعارات غير مقروءة"))
        #expect(variable?["two"] == .string("إشعاران غير مقروءان"))

        let mutual = try #require(root["plural.count.followed_by_and_mutual"])
        #expect(mutual["NSStringLocalizedFormatKey"] == .string("%#@names@%#@count_mutual@"))
        let names = mutual["names"]
        #expect(Self.categories(names) == ["zero", "one", "two", "few", "many", "other"])
        #expect(Self.categories(names).allSatisfy { names?[$0] == .string("") })
        #expect(names?["NSStringFormatValueTypeKey"] == .string("ld"))
        #expect(mutual["count_mutual"]?["one"] == .string("مُتابَعٌ مِن قِبَلِ %1$@، وشَخصٌ آخَرُ مُتبادَل"))
    }

    // MARK: 2. duckduckgo-ios/cs.lproj/Localizable.stringsdict

    @Test func duckDuckGoCzechHasNestedVariables() throws {
        let root = try #require(
            try Support.readCorpusPropertyList("duckduckgo-ios/cs.lproj/Localizable.stringsdict").value
        )
        #expect(root.dictionaryValue?.count == 13)

        let body = try #require(root["autofill.delete.all.passwords.confirmation.body"])
        #expect(body["NSStringLocalizedFormatKey"] == .string("%1$#@passwords@"))
        let passwords = body["passwords"]
        #expect(Self.categories(passwords) == ["one", "few", "many", "other"])
        for category in ["one", "few", "many", "other"] {
            #expect(passwords?[category]?.stringValue?.contains("%2$#@accounts@") == true)
        }
        #expect(body["accounts"]?["one"] == .string("účtu"))
        #expect(body["accounts"]?["few"] == .string("účtům"))

        let trackers = try #require(root["dax.onboarding.browsing.multiple.trackers"])
        #expect(trackers["NSStringLocalizedFormatKey"] == .string("%1#@count@"))
        let few = try #require(trackers["count"]?["few"]?.stringValue)
        #expect(few.hasPrefix("*%2$@, %3$@* a *%1$d\u{A0}další subjekty*"))
        #expect(few.contains("\n\n"))
    }

    // MARK: 3. element-x-ios/pl.lproj/Localizable.stringsdict

    @Test func elementPolishHasNoOtherCategory() throws {
        let root = try #require(
            try Support.readCorpusPropertyList("element-x-ios/pl.lproj/Localizable.stringsdict").value
        )
        let dictionary = try #require(root.dictionaryValue)
        #expect(dictionary.count == 42)
        var variableCount = 0
        for entry in dictionary.entries {
            for variable in entry.value.dictionaryValue?.entries ?? []
            where variable.value["NSStringFormatSpecTypeKey"] != nil {
                variableCount += 1
                #expect(variable.value["other"] == nil, "\(entry.key).\(variable.key)")
            }
        }
        #expect(variableCount >= 42)

        let digits = try #require(root["a11y_digits_entered"])
        #expect(digits["NSStringLocalizedFormatKey"] == .string("%#@COUNT@"))
        #expect(digits["COUNT"]?["one"] == .string("Wprowadzono %1$d cyfrę"))
        #expect(digits["COUNT"]?["few"] == .string("Wprowadzono %1$d cyfry"))
        #expect(digits["COUNT"]?["many"] == .string("Wprowadzono %1$d cyfr"))
        #expect(Set(Self.categories(digits["COUNT"])) == ["one", "few", "many"])
        // File order: the variable dict comes before the format key.
        #expect(digits.dictionaryValue?.keys == ["COUNT", "NSStringLocalizedFormatKey"])
        #expect(dictionary.entries.first?.location == SourceLocation(line: 5, column: 2))
        #expect(
            digits.dictionaryValue?.entries.map(\.location) == [
                SourceLocation(line: 7, column: 3), SourceLocation(line: 20, column: 3),
            ]
        )
    }

    // MARK: 4. paragraph/ru.lproj/Account.stringsdict

    @Test func paragraphRussianWidthGenderAndPlural() throws {
        let root = try #require(try Support.readCorpusPropertyList("paragraph/ru.lproj/Account.stringsdict").value)
        #expect(root.dictionaryValue?.keys == ["days", "birthday", "width", "call"])

        let expectedWidth = PropertyListValue.dictionary([
            "NSStringVariableWidthRuleType": .dictionary([
                "1": .string("маленький"), "5": .string("средний"), "20": .string("большой"),
            ])
        ])
        #expect(root["width"] == expectedWidth)
        #expect(root["width"]?["NSStringLocalizedFormatKey"] == nil)

        let call = try #require(root["call"])
        #expect(call["NSStringLocalizedFormatKey"] == .string("%#@pronoun@ мне %#@times@ сегодня"))
        #expect(call["pronoun"]?["NSStringFormatSpecTypeKey"] == .string("NSStringGenderRuleType"))
        #expect(Self.categories(call["pronoun"]) == ["0", "1", "2"])
        #expect(call["pronoun"]?["1"] == .string("Она звонила"))
        #expect(call["times"]?["few"] == .string("%d раза"))

        #expect(Self.categories(root["days"]?["days"]) == ["zero", "one", "two", "few", "many", "other"])
        #expect(root["days"]?["days"]?["one"] == .string("%d день"))
    }

    // MARK: 5. paragraph/ru.lproj/Main.stringsdict

    @Test func paragraphRussianDeviceRule() throws {
        let root = try #require(try Support.readCorpusPropertyList("paragraph/ru.lproj/Main.stringsdict").value)
        #expect(root.dictionaryValue?.keys == ["device"])
        let devices = try #require(root["device"]?["NSStringDeviceSpecificRuleType"]?.dictionaryValue)
        #expect(devices.keys == ["appletv", "applewatch", "ipad", "iphone", "ipod", "mac"])
        #expect(devices["mac"] == .string("мак"))
        #expect(devices["iphone"] == .string("айфон"))
        #expect(devices["applewatch"] == .string("эпл вотч"))
        // The file mixes tab and space indentation; columns count characters either way.
        #expect(root.dictionaryValue?.entries.first?.location == SourceLocation(line: 5, column: 2))
        #expect(devices.entries.first?.location == SourceLocation(line: 9, column: 13))
    }

    // MARK: 6. mastodon-ios/ar.lproj/Intents.stringsdict

    @Test func mastodonIntentStrings() throws {
        let root = try #require(try Support.readCorpusPropertyList("mastodon-ios/ar.lproj/Intents.stringsdict").value)
        let entry = try #require(root["There are ${count} options matching ‘${visibility}’."])
        #expect(entry["NSStringLocalizedFormatKey"] == .string("There are %#@count_option@ matching ‘${visibility}’."))
        #expect(entry["count_option"]?["NSStringFormatValueTypeKey"] == .string("%ld"))
        #expect(entry["count_option"]?["two"] == .string("2 options"))
    }

    // MARK: 7. deltachat-ios/he.lproj/Localizable.stringsdict

    @Test func deltaChatHebrew() throws {
        let root = try #require(
            try Support.readCorpusPropertyList("deltachat-ios/he.lproj/Localizable.stringsdict").value
        )
        let dictionary = try #require(root.dictionaryValue)
        #expect(dictionary.count == 18)
        #expect(
            dictionary.entries.allSatisfy {
                $0.value["NSStringLocalizedFormatKey"] == .string("%#@localized_format_key@")
            }
        )
        let hours = root["n_hours"]?["localized_format_key"]
        #expect(Self.categories(hours) == ["one", "two", "other"])
        #expect(hours?["one"] == .string("%d שעה"))
        #expect(hours?["two"] == .string("%d שעות"))
    }

    @Test func agreesWithFoundationOnEveryFile() throws {
        // Our XML parser and Foundation's must read the same content (order aside).
        for path in Self.files {
            let data = try Support.corpusData(path)
            let ours = try #require(PropertyListReader.read(data, file: path).value)
            let foundation = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
            let binary = try PropertyListSerialization.data(fromPropertyList: foundation, format: .binary, options: 0)
            let theirs = try #require(PropertyListReader.read(binary, file: path).value)
            #expect(Self.sortedByKey(ours) == theirs, "\(path)")
        }
    }

    /// The value with every dictionary's entries sorted by key, as binary property lists come out.
    static func sortedByKey(_ value: PropertyListValue) -> PropertyListValue {
        switch value {
        case .dictionary(let dictionary):
            let entries = dictionary.entries
                .map { PropertyListDictionary.Entry(key: $0.key, value: sortedByKey($0.value)) }
                .sorted { $0.key < $1.key }
            return .dictionary(PropertyListDictionary(entries))
        case .array(let elements):
            return .array(elements.map(sortedByKey))
        default:
            return value
        }
    }
}
