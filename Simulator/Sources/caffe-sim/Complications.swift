import ArgumentParser
import CaffeCore
import CaffeProtocol
import CaffeSimulator
import Foundation
import SwiftProtobuf

/// `caffe-sim complications`: "next free coffee" requests for many users across time zones, as a
/// journal, rendered locally, or checked for fit in every locale and pseudo-locale.
struct Complications: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Complication requests across time zones, DST changes and year ends: write, print, or check fit.",
        discussion: """
            -o writes the requests as a journal (for replay); --print renders them here; \
            --check-fit reports every (locale, family) whose text is wider than the family shows — \
            for every configured market, or those --locales names — \
            including the pseudo-locales en-XA (accented, expanded) and ar-XB (right to left); \
            exit status 1 when something overflows.
            """
    )

    @Option(help: "Requests to generate.")
    var count = 20

    @OptionGroup var seed: SeedOptions

    @OptionGroup var markets: MarketOptions

    @Option(name: .shortAndLong, help: "Write the requests to this journal.")
    var output: String?

    @Flag(help: "Render each request here and print its families.")
    var print = false

    @Flag(help: "Check every locale and pseudo-locale against each family's width.")
    var checkFit = false

    @Flag(help: "Print --check-fit as JSON.")
    var json = false

    @Flag(name: .long, inversion: .prefixedNo, help: "Colour (default: when writing to a terminal).")
    var color: Bool = TerminalStyle.colorByDefault()

    @OptionGroup var config: ConfigurationOptions

    func validate() throws {
        guard output != nil || print || checkFit else {
            throw ValidationError("say what to do: -o FILE, --print or --check-fit")
        }
    }

    func run() throws {
        let (directory, mix) = try markets.mix(in: config.directory)
        var generator = ComplicationGenerator(configuration: .init(seed: seed.seed, markets: mix))
        let requests = generator.next(count)
        if let output {
            var header = Caffe_V1_JournalHeader()
            header.createdAt = Google_Protobuf_Timestamp(date: Date())
            header.origin = CommandLineText.current(as: "caffe-sim")
            let writer = try JournalWriter(url: URL(fileURLWithPath: output), header: header)
            for (index, request) in requests.enumerated() {
                var eventHeader = Caffe_V1_EventHeader()
                eventHeader.sourceID = "cx-sim"
                eventHeader.sequence = UInt64(index + 1)
                try writer.append(
                    Caffe_V1_JournalRecord(
                        capturedAt: request.nextFreeCoffee.date,
                        topic: CaffeProtocol.CaffeTopic.complicationRequest(user: request.userID),
                        header: eventHeader,
                        body: request
                    )
                )
            }
            try writer.close()
            FileHandle.standardError.write(
                Data("caffe-sim complications: \(requests.count) requests written to \(output)\n".utf8)
            )
        }
        guard print || checkFit else { return }
        let session = try RenderingCore(configurationDirectory: config.directory).makeSession()
        let style = TerminalStyle(enabled: color)
        if print {
            let iso = Date.ISO8601FormatStyle()
            for request in requests {
                let payload = try session.complication(request)
                Swift.print(
                    style.bold(request.requestID) + " "
                        + style.dim(
                            "\(request.locale) \(request.timeZone) \(request.nextFreeCoffee.date.formatted(iso))"
                        )
                        + (request.hourCycle.isEmpty ? "" : style.dim(" \(request.hourCycle)"))
                )
                for entry in payload.entries {
                    Swift.print(
                        "  \(entry.family.name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(style.render(entry.text))"
                    )
                }
            }
        }
        if checkFit {
            // Every configured market, or those --locales names.
            let checked = markets.locales == nil ? directory.markets : mix.filter { $0.weight > 0 }.map(\.market)
            let result = try ComplicationFit(locales: checked.map { ($0.locale, $0.timeZone) }).run(session: session)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
                Swift.print(String(decoding: try encoder.encode(result), as: UTF8.self))
            } else {
                Swift.print("checked \(result.checked) (locale, family) pairs; \(result.overflows.count) overflow")
                for overflow in result.overflows { Swift.print("  " + overflow.description) }
            }
            if !result.overflows.isEmpty { throw ExitCode(1) }
        }
    }
}
