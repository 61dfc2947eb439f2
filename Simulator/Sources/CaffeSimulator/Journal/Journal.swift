import CaffeProtocol
import Foundation
import SwiftProtobuf

/// Why a journal could not be read or written, where, and how much of it was good.
public struct JournalError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The file does not start with the journal magic.
        public static let notAJournal = Code("not-a-journal")
        /// The header names a format version this reader does not know.
        public static let unsupportedVersion = Code("unsupported-version")
        /// The file ends inside a record (or inside its length).
        public static let truncated = Code("truncated")
        /// A record's bytes are not a valid message.
        public static let malformed = Code("malformed")
        /// The file could not be read or written.
        public static let io = Code("io")
    }

    public var code: Code
    public var message: String
    /// The byte offset of the record (or header) at fault.
    public var offset: Int
    /// Records read intact before it.
    public var recordsBefore: Int

    public init(_ code: Code, _ message: String, offset: Int = 0, recordsBefore: Int = 0) {
        self.code = code
        self.message = message
        self.offset = offset
        self.recordsBefore = recordsBefore
    }

    public var description: String {
        "\(code) at byte \(offset) (after \(recordsBefore) good record\(recordsBefore == 1 ? "" : "s")): \(message)"
    }
}

/// The journal file format: `CAFFEJNL`, then a length-delimited ``Caffe_V1_JournalHeader`` and
/// length-delimited ``Caffe_V1_JournalRecord``s (`Proto/caffe/v1/journal.proto`).
public enum Journal {
    /// The first bytes of every journal.
    public static let magic = Array("CAFFEJNL".utf8)
    /// The format version this code writes and reads.
    public static let formatVersion: UInt32 = 1

    /// One record with where it starts in the file (for `--from-offset` and error reports).
    public struct Entry: Sendable {
        public var offset: Int
        public var record: Caffe_V1_JournalRecord
    }

    /// What a read found: the header, every intact record, and the error that stopped it, if any
    /// (records before a corrupt one are kept).
    public struct Contents: Sendable {
        public var header: Caffe_V1_JournalHeader
        public var entries: [Entry]
        public var error: JournalError?
    }

    /// Reads a whole journal file.
    ///
    /// - Throws: ``JournalError`` only when not even the header can be read; later damage is
    ///   reported in ``Contents/error`` beside the records before it.
    public static func read(_ url: URL) throws(JournalError) -> Contents {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw JournalError(.io, "cannot read \(url.path): \(error.localizedDescription)")
        }
        return try read(data)
    }

    /// Reads journal bytes.
    public static func read(_ data: Data) throws(JournalError) -> Contents {
        // Offsets count from the file's start; the bytes are read in place (a mapped file is
        // not copied).
        let bytes = data.startIndex == 0 ? data : Data(data)
        guard bytes.count >= magic.count, bytes.prefix(magic.count).elementsEqual(magic) else {
            throw JournalError(.notAJournal, "the file does not start with CAFFEJNL")
        }
        var position = magic.count
        let headerBytes = try frame(bytes, at: &position, recordsBefore: 0, what: "header")
        guard let headerBytes else { throw JournalError(.truncated, "the header is missing", offset: position) }
        let header: Caffe_V1_JournalHeader
        do {
            header = try Caffe_V1_JournalHeader(serializedBytes: headerBytes)
        } catch {
            throw JournalError(.malformed, "the header is not a JournalHeader: \(error)", offset: magic.count)
        }
        guard header.formatVersion == formatVersion else {
            throw JournalError(
                .unsupportedVersion,
                "format version \(header.formatVersion); this caffe-sim reads version \(formatVersion)",
                offset: magic.count
            )
        }
        var entries: [Entry] = []
        while position < bytes.count {
            let start = position
            do throws(JournalError) {
                guard let recordBytes = try frame(bytes, at: &position, recordsBefore: entries.count, what: "record")
                else { break }
                let record: Caffe_V1_JournalRecord
                do {
                    record = try Caffe_V1_JournalRecord(serializedBytes: recordBytes)
                } catch {
                    throw JournalError(
                        .malformed,
                        "record \(entries.count + 1) is not a JournalRecord: \(error)",
                        offset: start,
                        recordsBefore: entries.count
                    )
                }
                entries.append(Entry(offset: start, record: record))
            } catch {
                return Contents(header: header, entries: entries, error: error)
            }
        }
        return Contents(header: header, entries: entries, error: nil)
    }

    /// The next length-delimited message's bytes, or `nil` at the very end.
    private static func frame(
        _ bytes: Data,
        at position: inout Int,
        recordsBefore: Int,
        what: String
    ) throws(JournalError) -> Data? {
        guard position < bytes.count else { return nil }
        let start = position
        var length = 0
        var shift = 0
        while true {
            guard position < bytes.count else {
                throw JournalError(
                    .truncated,
                    "the file ends inside a \(what)'s length",
                    offset: start,
                    recordsBefore: recordsBefore
                )
            }
            let byte = bytes[position]
            position += 1
            length |= Int(byte & 0x7F) << shift
            if byte & 0x80 == 0 { break }
            shift += 7
            guard shift < 35 else {
                throw JournalError(
                    .malformed,
                    "a \(what) length is not a valid varint",
                    offset: start,
                    recordsBefore: recordsBefore
                )
            }
        }
        guard length <= bytes.count - position else {
            throw JournalError(
                .truncated,
                "the \(what) needs \(length) bytes, the file has \(bytes.count - position) left",
                offset: start,
                recordsBefore: recordsBefore
            )
        }
        defer { position += length }
        return bytes[position..<(position + length)]
    }

    /// `bytes` with its varint length in front.
    static func delimited(_ bytes: [UInt8]) -> [UInt8] {
        var prefix: [UInt8] = []
        var length = bytes.count
        repeat {
            var byte = UInt8(length & 0x7F)
            length >>= 7
            if length > 0 { byte |= 0x80 }
            prefix.append(byte)
        } while length > 0
        return prefix + bytes
    }

    /// A stable fingerprint of files' bytes (FNV-1a, 64 bits, hex): tells which menu or catalog a
    /// journal was made against. An identifier, not a security measure.
    public static func fingerprint(_ urls: [URL]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for url in urls.sorted(by: { $0.path < $1.path }) {
            guard let data = try? Data(contentsOf: url) else { continue }
            for byte in Array(url.lastPathComponent.utf8) + [0] + [UInt8](data) {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

/// Writes a journal: the header first, then records as they come, buffered.
public final class JournalWriter {
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    public private(set) var records = 0

    /// Creates (or replaces) the file at `url` and writes `header` with the current format version.
    public init(url: URL, header: Caffe_V1_JournalHeader) throws(JournalError) {
        guard FileManager.default.createFile(atPath: url.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: url.path)
        else {
            throw JournalError(.io, "cannot create \(url.path)")
        }
        self.handle = handle
        var header = header
        header.formatVersion = Journal.formatVersion
        buffer = Journal.magic
        // Maps in deterministic order, so the same header always gives the same bytes.
        var options = BinaryEncodingOptions()
        options.useDeterministicOrdering = true
        do {
            buffer += Journal.delimited(try header.serializedBytes(options: options))
        } catch {
            throw JournalError(.io, "cannot encode the header: \(error)")
        }
    }

    /// Appends one record.
    public func append(_ record: Caffe_V1_JournalRecord) throws(JournalError) {
        do {
            buffer += Journal.delimited(try record.serializedBytes())
        } catch {
            throw JournalError(.io, "cannot encode record \(records + 1): \(error)")
        }
        records += 1
        if buffer.count >= 1 << 20 { try flush() }
    }

    /// Writes what is buffered.
    public func flush() throws(JournalError) {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw JournalError(.io, "cannot write: \(error.localizedDescription)")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes and closes the file.
    public func close() throws(JournalError) {
        try flush()
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw JournalError(.io, "cannot close: \(error.localizedDescription)")
        }
    }
}

extension Caffe_V1_JournalRecord {
    /// A record of an event's frames captured at `time`.
    public init(capturedAt time: Date, topic: String, header: Caffe_V1_EventHeader, body: some SwiftProtobuf.Message)
        throws
    {
        self.init()
        capturedAt = Google_Protobuf_Timestamp(date: time)
        self.topic = topic
        self.header = try header.serializedData()
        self.body = try body.serializedData()
    }

    /// The record's event header.
    public func eventHeader() throws -> Caffe_V1_EventHeader { try Caffe_V1_EventHeader(serializedBytes: header) }

    /// The frames to send: `[topic][header][body]`.
    public var frames: [[UInt8]] { [Array(topic.utf8), [UInt8](header), [UInt8](body)] }
}
