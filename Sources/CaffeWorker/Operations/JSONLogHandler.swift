import CaffeBooks
import Foundation
import Logging
import RichText
import Synchronization

/// Writes each log record as one JSON object on its own line, for log shippers:
/// `{"ts":"2026-11-22T10:00:00.123Z","level":"warning","label":"caffe.worker","message":"sequence gap","source":"pos-1",…}`.
/// Metadata keys become top-level fields (nested metadata is kept as JSON objects and arrays).
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    public var logLevel: Logger.Level = .info
    private let label: String
    private let output: JSONLogOutput

    /// A handler writing to standard error.
    public static func standardError(label: String) -> JSONLogHandler {
        JSONLogHandler(label: label, output: .standardError)
    }

    init(label: String, output: JSONLogOutput) {
        self.label = label
        self.output = output
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let own = event.metadata { fields.merge(own) { _, new in new } }
        output.write(
            Self.line(level: event.level, label: label, message: "\(event.message)", metadata: fields, at: Date())
        )
    }

    /// The JSON line for one record, fields in a stable order: `ts`, `level`, `label`, `message`,
    /// then the metadata sorted by key.
    static func line(level: Logger.Level, label: String, message: String, metadata: Logger.Metadata, at date: Date)
        -> String
    {
        var line = "{\"ts\":" + quoted(timestamp(date))
        line += ",\"level\":" + quoted(level.rawValue)
        line += ",\"label\":" + quoted(label)
        line += ",\"message\":" + quoted(message)
        for key in metadata.keys.sorted() where !["ts", "level", "label", "message"].contains(key) {
            if let value = metadata[key] { line += "," + quoted(key) + ":" + json(value) }
        }
        return line + "}\n"
    }

    private static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .stringConvertible(let value): quoted(value.description)
        case .array(let items): "[" + items.map(json).joined(separator: ",") + "]"
        case .dictionary(let entries):
            "{"
                + entries.keys.sorted().compactMap { key in entries[key].map { quoted(key) + ":" + json($0) } }
                .joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String { JSONValue.string(text).jsonText }

    /// UTC, millisecond precision.
    private static func timestamp(_ date: Date) -> String {
        date.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC") ?? .gmt)
        )
    }
}

/// Where JSON lines go; whole lines are written under a lock so threads never interleave.
final class JSONLogOutput: Sendable {
    private let lock = Mutex<Void>(())
    private let descriptor: Int32

    static let standardError = JSONLogOutput(descriptor: 2)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func write(_ line: String) {
        var bytes = Array(line.utf8)
        lock.withLock { _ in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeMutableBytes {
                    Foundation.write(descriptor, $0.baseAddress, $0.count)
                }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}

/// Whether the `count`-th occurrence of something a peer can repeat at will is logged: the first
/// ten, then one in a thousand, so a flood of it cannot flood the log (its counter counts them all).
func isLoggedOccurrence(_ count: UInt64) -> Bool {
    count <= 10 || count % 1000 == 0
}
