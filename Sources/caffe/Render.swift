import ArgumentParser
import CaffeCore
import CaffeProtocol
import Foundation
import SwiftProtobuf

/// Output forms shared by `caffe render` and `caffe complication`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, html, ansi, json
}

/// Options every core command takes.
struct CoreOptions: ParsableArguments {
    @Option(
        help:
            "The configuration folder (Localizations/ and menu.json). Default: $CAFFE_CONFIG, ./config, the built-in one."
    )
    var config: String?

    @Option(help: "Locale for inputs that have none.")
    var defaultLocale: String = CoreDefaults().locale

    @Option(help: "Time zone for inputs that have none.")
    var defaultTimeZone: String = CoreDefaults().timeZone

    /// A session over the configuration; a configuration that does not load exits 1 with the reason
    /// (it is not a usage error, so no usage text).
    func makeSession(command: String) throws -> RenderSession {
        let defaults = CoreDefaults(locale: defaultLocale, timeZone: defaultTimeZone)
        do {
            return try RenderingCore(configurationDirectory: ConfigurationDirectory.resolve(config), defaults: defaults)
                .makeSession()
        } catch {
            FileHandle.standardError.write(Data("caffe \(command): \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the confirmation and receipt of an order.",
        discussion: """
            The order is a caffe.v1.OrderEvent in the protobuf JSON mapping, from a file or standard \
            input (-). text prints the confirmation, a blank line and the receipt; html prints the \
            receipt's e-mail fragment; ansi styles the text for a terminal; json prints \
            {"confirmation": …, "receipt": …} in the protobuf JSON mapping. A bad order exits 1 with \
            the reason on standard error.
            """
    )

    @Option(help: "The order as protobuf JSON: a file, or - for standard input.")
    var order: String

    @Option(help: "Render in this locale instead of the customer's.")
    var locale: String?

    @Option(help: "Output format: text, html, ansi or json.")
    var format: OutputFormat = .text

    @OptionGroup var core: CoreOptions

    func run() throws {
        var event: Caffe_V1_OrderEvent
        do {
            event = try ProtobufJSONInput.read(Caffe_V1_OrderEvent.self, from: order)
        } catch {
            FileHandle.standardError.write(Data("caffe render: \(error)\n".utf8))
            throw ExitCode(1)
        }
        if let locale { event.customer.locale = locale }
        let rendered: RenderedOrder
        do {
            rendered = try core.makeSession(command: "render").render(event)
        } catch let error as RenderError {
            FileHandle.standardError.write(Data("caffe render: \(error)\n".utf8))
            throw ExitCode(1)
        }
        for note in rendered.confirmation.notes {
            FileHandle.standardError.write(Data("caffe render: note: \(note.code): \(note.detail)\n".utf8))
        }
        switch format {
        case .text:
            print(rendered.confirmation.text.plain + "\n\n" + rendered.receipt.text.plain)
        case .ansi:
            let style = TerminalStyle(enabled: true)
            print(style.render(rendered.confirmation.text) + "\n\n" + style.render(rendered.receipt.text))
        case .html:
            print(rendered.receipt.text.html, terminator: "")
        case .json:
            let confirmation = try rendered.confirmation.jsonString()
            let receipt = try rendered.receipt.jsonString()
            print("{\"confirmation\":\(confirmation),\"receipt\":\(receipt)}")
        }
    }
}

struct Complication: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render the \"next free coffee\" complication for each watch family.",
        discussion: """
            Each family gets the richest of weekday + hour + minute, weekday + hour and weekday that fits \
            its width. text prints "family: text" lines; ansi marks the weekday orange; json prints the \
            caffe.v1.ComplicationPayload in the protobuf JSON mapping.
            """
    )

    @Option(help: "The date, ISO 8601 (2026-11-20T15:45:00Z).")
    var date: String

    @Option(help: "BCP 47 locale identifier, such as ja-JP.")
    var locale: String

    @Option(help: "IANA time zone, such as Asia/Tokyo.")
    var timeZone: String

    @Option(help: "h12 or h23 (also h11, h24); default: the locale's.")
    var hourCycle: String?

    @Option(
        name: .customLong("family"),
        help: "A family (repeatable): \(Caffe_V1_ComplicationFamily.rendered.map(\.name).joined(separator: ", "))."
    )
    var families: [String] = []

    @Option(help: "Output format: text, ansi or json.")
    var format: OutputFormat = .text

    @OptionGroup var core: CoreOptions

    func validate() throws {
        guard parsedDate != nil else { throw ValidationError("'\(date)' is not an ISO 8601 date and time") }
        for name in families where Caffe_V1_ComplicationFamily(name: name) == nil {
            throw ValidationError("'\(name)' is not a complication family")
        }
        guard format != .html else { throw ValidationError("complications have no HTML form") }
    }

    private var parsedDate: Date? {
        (try? Date(date, strategy: .iso8601))
            ?? (try? Date(date, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    func run() throws {
        var request = Caffe_V1_ComplicationRequest()
        request.requestID = "cli"
        request.userID = "cli"
        request.locale = locale
        request.timeZone = timeZone
        request.hourCycle = hourCycle ?? ""
        request.nextFreeCoffee = Google_Protobuf_Timestamp(date: parsedDate ?? Date())
        request.families = families.compactMap(Caffe_V1_ComplicationFamily.init(name:))
        let payload: Caffe_V1_ComplicationPayload
        do {
            payload = try core.makeSession(command: "complication").complication(request)
        } catch let error as RenderError {
            FileHandle.standardError.write(Data("caffe complication: \(error)\n".utf8))
            throw ExitCode(1)
        }
        let style = TerminalStyle(enabled: format == .ansi)
        switch format {
        case .json:
            print(try payload.jsonString())
        case .text, .ansi, .html:
            for entry in payload.entries {
                print("\(entry.family.name): \(style.render(entry.text))")
            }
        }
    }
}
