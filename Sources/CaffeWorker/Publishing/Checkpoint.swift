import Foundation

/// What the worker has done, per source, kept on disk: each source's highest contiguous sequence
/// whose outputs were all delivered (acknowledged, on the acknowledged output; accepted by the
/// socket, on PUB and PUSH), the ranges it gave up as unrecoverable, and the replay endpoint
/// pinned for it.
///
/// Two files: a snapshot (`checkpoint.path`, JSON, replaced atomically: written beside it,
/// flushed, renamed) and a journal beside it (`<path>.journal`, one JSON change per line, appended
/// and flushed). Each write appends only what changed; when the journal has grown past the
/// snapshot, the whole state is written as a new snapshot and the journal emptied (compaction).
/// Every write has a generation; the snapshot records the last one it includes, so journal lines
/// left behind by a crash between the two steps are skipped when read. A torn last line (a crash
/// while appending) is ignored; anything else that does not read is damage, and refused.
///
/// Version 3 adds the generation and the pinned endpoints; versions 1 and 2 (snapshot only) are read.
public struct Checkpoint: Hashable, Sendable, Codable {
    public static let formatVersion = 3

    public var version: Int = Checkpoint.formatVersion
    /// The last write this snapshot includes.
    public var generation: UInt64 = 0
    /// Source id → highest contiguous sequence done.
    public var sources: [String: UInt64] = [:]
    /// Source id → ranges given up on, as `[from, to]` pairs.
    public var givenUp: [String: [[UInt64]]] = [:]
    /// Source id → its pinned replay endpoint.
    public var endpoints: [String: String] = [:]
    /// Source id → the CURVE identity that pinned its endpoint (only those pinned by one).
    public var endpointIdentities: [String: String] = [:]

    enum CodingKeys: String, CodingKey {
        case version, generation, sources, endpoints
        case givenUp = "given_up"
        case endpointIdentities = "endpoint_identities"
    }

    public init(
        sources: [String: UInt64] = [:],
        givenUp: [String: [ClosedRange<UInt64>]] = [:],
        pins: [String: IntakeTracker.Pin] = [:]
    ) {
        self.sources = sources
        self.givenUp = givenUp.mapValues { $0.map { [$0.lowerBound, $0.upperBound] } }
        for (source, pin) in pins { setPin(pin, for: source) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        generation = try container.decodeIfPresent(UInt64.self, forKey: .generation) ?? 0
        sources = try container.decodeIfPresent([String: UInt64].self, forKey: .sources) ?? [:]
        givenUp = try container.decodeIfPresent([String: [[UInt64]]].self, forKey: .givenUp) ?? [:]
        endpoints = try container.decodeIfPresent([String: String].self, forKey: .endpoints) ?? [:]
        endpointIdentities =
            try container.decodeIfPresent([String: String].self, forKey: .endpointIdentities) ?? [:]
    }

    /// The given-up ranges as ranges.
    public var givenUpRanges: [String: [ClosedRange<UInt64>]] {
        givenUp.mapValues { pairs in
            pairs.compactMap { pair in pair.count == 2 && pair[0] <= pair[1] ? pair[0]...pair[1] : nil }
        }
    }

    /// The pinned endpoints with the identities that pinned them.
    public var pins: [String: IntakeTracker.Pin] {
        var pins: [String: IntakeTracker.Pin] = [:]
        for (source, endpoint) in endpoints {
            pins[source] = IntakeTracker.Pin(endpoint: endpoint, identity: endpointIdentities[source] ?? "")
        }
        return pins
    }

    mutating func setPin(_ pin: IntakeTracker.Pin, for source: String) {
        endpoints[source] = pin.endpoint
        endpointIdentities[source] = pin.identity.isEmpty ? nil : pin.identity
    }

    // MARK: Changes

    /// What changed since the last write: one journal line.
    public struct Change: Hashable, Sendable, Codable {
        /// The write's generation (set by the writer).
        public var generation: UInt64 = 0
        /// Marks that moved.
        public var sources: [String: UInt64] = [:]
        /// Sources whose given-up ranges changed, with all their ranges now (empty: none left).
        public var givenUp: [String: [[UInt64]]] = [:]
        /// Endpoints pinned or changed.
        public var endpoints: [String: String] = [:]
        public var endpointIdentities: [String: String] = [:]

        enum CodingKeys: String, CodingKey {
            case generation = "g"
            case sources = "s"
            case givenUp = "u"
            case endpoints = "e"
            case endpointIdentities = "i"
        }

        public init(
            sources: [String: UInt64] = [:],
            givenUp: [String: [ClosedRange<UInt64>]] = [:],
            pins: [String: IntakeTracker.Pin] = [:]
        ) {
            self.sources = sources
            self.givenUp = givenUp.mapValues { $0.map { [$0.lowerBound, $0.upperBound] } }
            for (source, pin) in pins {
                endpoints[source] = pin.endpoint
                if !pin.identity.isEmpty { endpointIdentities[source] = pin.identity }
            }
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            generation = try container.decode(UInt64.self, forKey: .generation)
            sources = try container.decodeIfPresent([String: UInt64].self, forKey: .sources) ?? [:]
            givenUp = try container.decodeIfPresent([String: [[UInt64]]].self, forKey: .givenUp) ?? [:]
            endpoints = try container.decodeIfPresent([String: String].self, forKey: .endpoints) ?? [:]
            endpointIdentities =
                try container.decodeIfPresent([String: String].self, forKey: .endpointIdentities) ?? [:]
        }

        public var isEmpty: Bool { sources.isEmpty && givenUp.isEmpty && endpoints.isEmpty }

        /// Adds a later change to this one.
        public mutating func merge(_ later: Change) {
            sources.merge(later.sources) { max($0, $1) }
            givenUp.merge(later.givenUp) { $1 }
            for (source, endpoint) in later.endpoints {
                endpoints[source] = endpoint
                endpointIdentities[source] = later.endpointIdentities[source]
            }
        }
    }

    /// Applies a change: marks only move up; given-up ranges and endpoints are replaced.
    public mutating func apply(_ change: Change) {
        for (source, mark) in change.sources where mark > sources[source] ?? 0 { sources[source] = mark }
        for (source, pairs) in change.givenUp { givenUp[source] = pairs.isEmpty ? nil : pairs }
        for (source, endpoint) in change.endpoints {
            endpoints[source] = endpoint
            endpointIdentities[source] = change.endpointIdentities[source]
        }
        generation = max(generation, change.generation)
    }

    // MARK: Files

    /// Why a checkpoint file could not be used.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "checkpoint \(path): \(message)" }
    }

    /// The journal beside a snapshot.
    public static func journalURL(for url: URL) -> URL {
        url.deletingLastPathComponent().appendingPathComponent(url.lastPathComponent + ".journal")
    }

    /// Reads the snapshot at `url` and its journal; missing files are an empty checkpoint (a first
    /// start). Refuses damage: a file that does not decode, or values no worker writes (sequences
    /// beyond 2^62, ranges backwards, endpoints that are not `tcp://` or `ipc://`).
    public static func read(_ url: URL) throws(Problem) -> Checkpoint {
        var checkpoint = Checkpoint()
        if FileManager.default.fileExists(atPath: url.path) {
            do {
                checkpoint = try JSONDecoder().decode(Checkpoint.self, from: Data(contentsOf: url))
            } catch {
                throw Problem(path: url.path, message: "unreadable (\(error)); move it aside to start over")
            }
            guard (1...formatVersion).contains(checkpoint.version) else {
                throw Problem(
                    path: url.path,
                    message: "format version \(checkpoint.version); this worker reads 1 through \(formatVersion)"
                )
            }
            if let damage = checkpoint.damage {
                throw Problem(path: url.path, message: "\(damage); move it aside to start over")
            }
        }
        let journal = journalURL(for: url)
        guard let data = FileManager.default.contents(atPath: journal.path), !data.isEmpty else {
            checkpoint.version = formatVersion
            return checkpoint
        }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The last piece is empty when the file ends with a newline, else a torn write: ignored.
        for (number, line) in lines.dropLast().enumerated() where !line.isEmpty {
            let change: Change
            do {
                change = try JSONDecoder().decode(Change.self, from: Data(line))
            } catch {
                throw Problem(
                    path: journal.path,
                    message: "line \(number + 1) is unreadable (\(error)); move it aside to start over"
                )
            }
            var probe = Checkpoint()
            probe.sources = change.sources
            probe.givenUp = change.givenUp
            probe.endpoints = change.endpoints
            if let damage = probe.damage {
                throw Problem(path: journal.path, message: "line \(number + 1): \(damage)")
            }
            guard change.generation > checkpoint.generation else { continue }
            checkpoint.apply(change)
        }
        checkpoint.version = formatVersion
        return checkpoint
    }

    /// What makes these values impossible for a worker to have written, if anything.
    var damage: String? {
        let limit = IntakeTracker.maxSequence
        if let (source, mark) = sources.first(where: { $0.value > limit }) {
            return "source '\(source)' has sequence \(mark), beyond the highest a worker accepts (\(limit))"
        }
        for (source, pairs) in givenUp {
            for pair in pairs where pair.count != 2 || pair[0] == 0 || pair[0] > pair[1] || pair[1] > limit {
                return "source '\(source)' has a given-up range \(pair), not [from, to] within 1...\(limit)"
            }
        }
        if let (source, endpoint) = endpoints.first(where: { !Intake.isAcceptableAnnouncement($0.value) }) {
            return "source '\(source)' has replay endpoint '\(endpoint)', not a tcp:// or ipc:// endpoint"
        }
        return nil
    }

    /// Replaces the snapshot at `url` with this checkpoint atomically. Returns its size in bytes.
    @discardableResult
    public func write(to url: URL) throws(Problem) -> Int {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent("." + url.lastPathComponent + ".tmp-\(getpid())")
        let bytes = encoded()
        do throws(Problem) {
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else {
                throw Problem(path: url.path, message: "cannot create \(temporary.path): \(Self.errnoText)")
            }
            defer { close(descriptor) }
            guard Self.writeAll(bytes, to: descriptor), fsync(descriptor) == 0 else {
                throw Problem(path: url.path, message: "cannot write \(temporary.path): \(Self.errnoText)")
            }
            guard rename(temporary.path, url.path) == 0 else {
                throw Problem(
                    path: url.path,
                    message: "cannot rename \(temporary.lastPathComponent) into place: \(Self.errnoText)"
                )
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
        return bytes.count
    }

    /// Appends `change` to the journal beside `url` and flushes it. Returns the bytes appended.
    @discardableResult
    public static func append(_ change: Change, toJournalOf url: URL) throws(Problem) -> Int {
        let journal = journalURL(for: url)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard var line = try? encoder.encode(change) else {
            throw Problem(path: journal.path, message: "cannot encode a change")
        }
        line.append(UInt8(ascii: "\n"))
        let descriptor = open(journal.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else {
            throw Problem(path: journal.path, message: "cannot open for appending: \(errnoText)")
        }
        defer { close(descriptor) }
        guard writeAll(Array(line), to: descriptor), fsync(descriptor) == 0 else {
            throw Problem(path: journal.path, message: "cannot append: \(errnoText)")
        }
        return line.count
    }

    /// Empties the journal beside `url` (after a snapshot that includes it).
    public static func truncateJournal(of url: URL) throws(Problem) {
        let journal = journalURL(for: url)
        guard truncate(journal.path, 0) == 0 || errno == ENOENT else {
            throw Problem(path: journal.path, message: "cannot empty: \(errnoText)")
        }
    }

    private static var errnoText: String { String(cString: strerror(errno)) }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// The snapshot as JSON, written by hand: a checkpoint of a million sources encodes in tens of
    /// milliseconds and without a copy of itself in memory.
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + sources.count * 24)
        func string(_ text: String) {
            out.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    out.append(UInt8(ascii: "\\"))
                    out.append(byte)
                case 0..<0x20:
                    out.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
                default: out.append(byte)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        func number(_ value: UInt64) { out.append(contentsOf: Array(String(value).utf8)) }
        func object<Value>(_ key: String, _ map: [String: Value], _ value: (Value) -> Void) {
            out.append(UInt8(ascii: ","))
            string(key)
            out.append(UInt8(ascii: ":"))
            out.append(UInt8(ascii: "{"))
            // Sorted while small, for people reading the file; large ones as they come.
            let keys = map.count <= 10_000 ? map.keys.sorted() : Array(map.keys)
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                string(key)
                out.append(UInt8(ascii: ":"))
                value(map[key]!)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: Array("{\"version\":\(Self.formatVersion),\"generation\":\(generation)".utf8))
        object("sources", sources, number)
        object("given_up", givenUp) { pairs in
            out.append(UInt8(ascii: "["))
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                out.append(UInt8(ascii: "["))
                for (position, value) in pair.enumerated() {
                    if position > 0 { out.append(UInt8(ascii: ",")) }
                    number(value)
                }
                out.append(UInt8(ascii: "]"))
            }
            out.append(UInt8(ascii: "]"))
        }
        object("endpoints", endpoints, string)
        object("endpoint_identities", endpointIdentities, string)
        out.append(contentsOf: Array("}\n".utf8))
        return out
    }
}
