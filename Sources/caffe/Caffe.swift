import ArgumentParser
import Foundation
import Localization

/// `caffe`: Caffe's command-line tool. Parses arguments and hands over to the libraries.
@main
struct Caffe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caffe",
        abstract: "Localize café orders: render confirmations, receipts and complications; check catalogs.",
        subcommands: [
            WorkerCommand.self, ProxyCommand.self, KeygenCommand.self, Render.self, Complication.self, Plural.self,
            StringCommand.self, Lint.self,
            Markdown.self, Inflect.self,
        ]
    )
}

struct Plural: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the CLDR plural category of each number, one per line.",
        discussion: "Visible fraction digits count: in English 1 is 'one' and 1.0 is 'other'."
    )

    @Option(help: "BCP 47 locale identifier, such as ru or es-MX.")
    var locale: String

    @Argument(help: "Numbers as written: 1, 2, 1.5, 1.0, 1000000.")
    var numbers: [String]

    func validate() throws {
        guard !numbers.isEmpty else { throw ValidationError("give at least one number") }
        for number in numbers where !FormatArgument(parsing: number).isNumber {
            throw ValidationError("'\(number)' is not a number")
        }
    }

    func run() throws {
        let rules = try PluralRules(locale: locale)
        for number in numbers {
            print(rules.category(for: FormatArgument(parsing: number)).rawValue)
        }
    }
}

struct StringCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "string",
        abstract: "Render one catalog string for a locale.",
        discussion: "Arguments that parse as numbers are numbers; everything else is text."
    )

    @Option(help: "The catalog folder (.lproj folders and .xcstrings files).")
    var catalog: String

    @Option(help: "BCP 47 locale identifier, such as es-MX.")
    var locale: String

    @Option(help: "The table (file name without extension).")
    var table: String = StringCatalog.defaultTable

    @Option(help: "The device whose variants to use: iphone, ipad, mac, applewatch, appletv, applevision, other.")
    var device: String = "iphone"

    @Flag(help: "Wrap substituted values in bidi isolates (FSI…PDI) for right-to-left locales.")
    var isolate = false

    @Argument(help: "The key.")
    var key: String

    @Argument(help: "Arguments for the string's format specifiers, in order.")
    var arguments: [String] = []

    func run() throws {
        let loaded = try StringCatalog(directory: URL(fileURLWithPath: catalog))
        guard let deviceClass = DeviceClass(rawValue: device) else {
            throw ValidationError("unknown device '\(device)'")
        }
        let options = RenderOptions(device: deviceClass, bidiIsolation: isolate ? .rightToLeftLocales : .never)
        let localizer = try Localizer(catalog: loaded, locale: locale, options: options)
        if let note = localizer.fallbackNote { FileHandle.standardError.write(Data("caffe: \(note)\n".utf8)) }
        let rendered = try localizer.string(key, table: table, arguments: arguments.map(FormatArgument.init(parsing:)))
        if rendered.isMissing {
            FileHandle.standardError.write(Data("caffe: no localization has the key '\(key)' in table \(table)\n".utf8))
        }
        print(rendered.text)
    }
}
