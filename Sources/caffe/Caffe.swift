import ArgumentParser
import CaffeCore
import Foundation
import Localization

/// `caffe`: Caffe's command-line tool. Parses arguments and hands over to the libraries.
@main
struct Caffe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caffe",
        abstract: "Localize café orders: render confirmations, receipts and complications; check catalogs.",
        version: CaffeVersion.current,
        subcommands: [
            WorkerCommand.self, ProxyCommand.self, HealthCommand.self, KeygenCommand.self, Render.self,
            Complication.self,
            Plural.self,
            StringCommand.self, Lint.self,
            Markdown.self, Inflect.self, Redrive.self, CheckpointCommand.self, CatalogCommand.self,
        ]
    )
}

struct Plural: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the CLDR plural category of each number, one per line.",
        discussion:
            "Visible fraction digits count: in English 1 is 'one' and 1.0 is 'other'. Negative numbers are numbers."
    )

    @Option(help: "BCP 47 locale identifier, such as ru or es-MX.")
    var locale: String

    // `.allUnrecognized`: -1 is a number here, not an option.
    @Argument(parsing: .allUnrecognized, help: "Numbers as written: 1, 2, 1.5, 1.0, 1000000, -1.")
    var numbers: [String]

    func validate() throws {
        if let option = EndOfOptions.unknownOption(in: numbers) { throw ValidationError("unknown option '\(option)'") }
        let values = EndOfOptions.values(numbers)
        guard !values.isEmpty else { throw ValidationError("give at least one number") }
        let ended = numbers.contains("--")
        for number in values where !FormatArgument(parsing: number).isNumber {
            throw ValidationError(
                number.hasPrefix("-") && !ended ? "unknown option '\(number)'" : "'\(number)' is not a number"
            )
        }
    }

    func run() throws {
        let rules = try PluralRules(locale: locale)
        for number in EndOfOptions.values(numbers) {
            print(rules.category(for: FormatArgument(parsing: number)).rawValue)
        }
    }
}
