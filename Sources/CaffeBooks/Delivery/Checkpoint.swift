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
/// while appending) is skipped and reported (``Reading/tornLine``); anything else that does not
/// read is damage, and refused.
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
    /// Source id (without epoch) → the epoch below which an unknown run of it is refused: its
    /// older runs were retired once a newer one took over and theirs were done.
    public var epochFloors: [String: UInt64] = [:]

    package enum CodingKeys: String, CodingKey {
        case version, generation, sources, endpoints
        case givenUp = "given_up"
        case endpointIdentities = "endpoint_identities"
        case epochFloors = "epoch_floors"
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
        epochFloors = try container.decodeIfPresent([String: UInt64].self, forKey: .epochFloors) ?? [:]
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

    package mutating func setPin(_ pin: IntakeTracker.Pin, for source: String) {
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
        /// Runs retired: their marks, ranges and endpoints go.
        public var retired: [String] = []
        /// Epoch floors raised (``Checkpoint/epochFloors``).
        public var epochFloors: [String: UInt64] = [:]

        package enum CodingKeys: String, CodingKey {
            case generation = "g"
            case sources = "s"
            case givenUp = "u"
            case endpoints = "e"
            case endpointIdentities = "i"
            case retired = "r"
            case epochFloors = "f"
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
            retired = try container.decodeIfPresent([String].self, forKey: .retired) ?? []
            epochFloors = try container.decodeIfPresent([String: UInt64].self, forKey: .epochFloors) ?? [:]
        }

        public var isEmpty: Bool {
            sources.isEmpty && givenUp.isEmpty && endpoints.isEmpty && retired.isEmpty && epochFloors.isEmpty
        }

        /// Adds a later change to this one.
        public mutating func merge(_ later: Change) {
            sources.merge(later.sources) { max($0, $1) }
            givenUp.merge(later.givenUp) { $1 }
            for (source, endpoint) in later.endpoints {
                endpoints[source] = endpoint
                endpointIdentities[source] = later.endpointIdentities[source]
            }
            retired += later.retired
            epochFloors.merge(later.epochFloors) { max($0, $1) }
        }
    }

    /// Applies a change: marks only move up; given-up ranges and endpoints are replaced; retired
    /// runs go (after the marks, which a change may still carry for them); floors only move up.
    public mutating func apply(_ change: Change) {
        for (source, mark) in change.sources where mark > sources[source] ?? 0 { sources[source] = mark }
        for (source, pairs) in change.givenUp { givenUp[source] = pairs.isEmpty ? nil : pairs }
        for (source, endpoint) in change.endpoints {
            endpoints[source] = endpoint
            endpointIdentities[source] = change.endpointIdentities[source]
        }
        for key in change.retired {
            sources[key] = nil
            givenUp[key] = nil
            endpoints[key] = nil
            endpointIdentities[key] = nil
        }
        epochFloors.merge(change.epochFloors) { max($0, $1) }
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

    /// What reading a checkpoint found besides its values.
    public struct Reading: Sendable {
        public var checkpoint: Checkpoint
        /// The journal's last line when it had no newline (a crash while appending): skipped.
        public var tornLine: TornLine?
        /// Whether the snapshot or the journal existed (neither: a first start).
        public var existed: Bool
    }

    /// A journal's torn last line: where, and how many bytes were skipped.
    public struct TornLine: Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var bytes: Int
        public var description: String {
            "\(path): line \(line) ends without a newline (\(bytes) bytes, a write cut short); skipped"
        }
    }

    /// Reads the snapshot at `url` and its journal; missing files are an empty checkpoint (a first
    /// start). Refuses damage: a file that does not decode, or values no worker writes (sequences
    /// beyond 2^62, ranges backwards, endpoints that are not `tcp://` or `ipc://`).
    public static func read(_ url: URL) throws(Problem) -> Checkpoint { try reading(url).checkpoint }

    /// ``read(_:)``, also saying whether a torn last journal line was skipped and whether any file
    /// existed. A journal whose only content is a torn line, with no snapshot beside it, is
    /// refused: nothing in it can be read, and starting from nothing would render again what the
    /// lost writes had recorded as done.
    public static func reading(_ url: URL) throws(Problem) -> Reading {
        var checkpoint = Checkpoint()
        let snapshotExists = FileManager.default.fileExists(atPath: url.path)
        if snapshotExists {
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
        let journalExists = FileManager.default.fileExists(atPath: journal.path)
        guard let data = FileManager.default.contents(atPath: journal.path), !data.isEmpty else {
            checkpoint.version = formatVersion
            return Reading(checkpoint: checkpoint, tornLine: nil, existed: snapshotExists || journalExists)
        }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The last piece is empty when the file ends with a newline, else a torn write.
        var tornLine: TornLine?
        if let last = lines.last, !last.isEmpty {
            tornLine = TornLine(path: journal.path, line: lines.count, bytes: last.count)
            if !snapshotExists, lines.count == 1 {
                throw Problem(
                    path: journal.path,
                    message: "holds nothing readable (one line of \(last.count) bytes without a newline) and "
                        + "there is no snapshot; move it aside to start over"
                )
            }
        }
        for (number, line) in lines.dropLast().enumerated() {
            // The writer writes whole lines: an empty one is a line whose bytes were lost.
            guard !line.isEmpty else {
                throw Problem(
                    path: journal.path,
                    message: "line \(number + 1) is empty (its change was lost); move it aside to start over"
                )
            }
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
        return Reading(checkpoint: checkpoint, tornLine: tornLine, existed: true)
    }

    /// What makes these values impossible for a worker to have written, if anything.
    package var damage: String? {
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
        try CheckpointState(self).write(to: url)
    }

    /// Appends `change` to the journal beside `url` (one line, written by hand: a change of a
    /// hundred thousand marks is encoded without JSONEncoder's copy of it) and flushes it.
    /// Returns the bytes appended.
    @discardableResult
    public static func append(_ change: Change, toJournalOf url: URL) throws(Problem) -> Int {
        let journal = journalURL(for: url)
        let descriptor = open(journal.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else {
            throw Problem(path: journal.path, message: "cannot open for appending: \(errnoText)")
        }
        defer { close(descriptor) }
        var output = ChunkedOutput(descriptor: descriptor)
        output.append("{\"g\":\(change.generation)")
        output.object("e", change.endpoints) { text, out in out.string(text) }
        output.object("i", change.endpointIdentities) { text, out in out.string(text) }
        output.object("s", change.sources) { mark, out in out.append("\(mark)") }
        if !change.retired.isEmpty { output.array("r", change.retired) }
        if !change.epochFloors.isEmpty {
            output.object("f", change.epochFloors) { epoch, out in out.append("\(epoch)") }
        }
        output.object("u", change.givenUp) { pairs, out in out.ranges(pairs) }
        output.append("}\n")
        guard output.finish(), fsync(descriptor) == 0 else {
            throw Problem(path: journal.path, message: "cannot append: \(errnoText)")
        }
        return output.total
    }

    /// Cuts a torn last line off its journal, so the next append starts a line of its own (an
    /// append after the torn bytes would join them into one unreadable line).
    public static func dropTornLine(_ torn: TornLine) throws(Problem) {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: torn.path))?[.size] as? Int,
            size >= torn.bytes, truncate(torn.path, off_t(size - torn.bytes)) == 0
        else { throw Problem(path: torn.path, message: "cannot cut its torn last line off: \(errnoText)") }
    }

    /// Empties the journal beside `url` (after a snapshot that includes it).
    public static func truncateJournal(of url: URL) throws(Problem) {
        let journal = journalURL(for: url)
        guard truncate(journal.path, 0) == 0 || errno == ENOENT else {
            throw Problem(path: journal.path, message: "cannot empty: \(errnoText)")
        }
    }

    package static var errnoText: String { String(cString: strerror(errno)) }

    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

}

/// The whole checkpoint as its writer keeps it: the marks in a ``SourceTable`` (a million sources
/// in ~40 MB, where a dictionary took 60), the rest in dictionaries; written as a snapshot without
/// a copy of itself in memory.
package struct CheckpointState: Sendable {
    package var generation: UInt64 = 0
    package private(set) var marks = SourceTable<UInt64>()
    package var givenUp: [String: [[UInt64]]] = [:]
    package var endpoints: [String: String] = [:]
    package var endpointIdentities: [String: String] = [:]
    package var epochFloors: [String: UInt64] = [:]
    /// Marks of retired runs, left out of every snapshot; the table is rebuilt without them once
    /// they are many.
    private var removed: Set<Int> = []

    package init(_ checkpoint: Checkpoint) {
        generation = checkpoint.generation
        epochFloors = checkpoint.epochFloors
        marks = SourceTable(minimumCapacity: checkpoint.sources.count)
        for (source, mark) in checkpoint.sources { marks.append(source, mark) }
        givenUp = checkpoint.givenUp
        endpoints = checkpoint.endpoints
        endpointIdentities = checkpoint.endpointIdentities
    }

    /// Applies a change: marks only move up; given-up ranges and endpoints are replaced.
    package mutating func apply(_ change: Checkpoint.Change) {
        for (source, mark) in change.sources {
            if let index = marks.index(of: source) {
                if mark > marks[index] { marks[index] = mark }
            } else {
                marks.append(source, mark)
            }
        }
        for (source, pairs) in change.givenUp { givenUp[source] = pairs.isEmpty ? nil : pairs }
        for (source, endpoint) in change.endpoints {
            endpoints[source] = endpoint
            endpointIdentities[source] = change.endpointIdentities[source]
        }
        for key in change.retired {
            if let index = marks.index(of: key) { removed.insert(index) }
            givenUp[key] = nil
            endpoints[key] = nil
            endpointIdentities[key] = nil
        }
        if removed.count >= 1024, removed.count * 4 >= marks.count {
            marks = marks.compacted { removed.contains($0) }.table
            removed = []
        }
        epochFloors.merge(change.epochFloors) { max($0, $1) }
        generation = max(generation, change.generation)
    }

    /// Sources with a mark (retired runs left out).
    package var sourceCount: Int { marks.count - removed.count }

    /// Replaces the snapshot at `url` atomically (written beside it in 64 KiB pieces, flushed,
    /// renamed). Returns its size in bytes.
    package func write(to url: URL) throws(Checkpoint.Problem) -> Int {
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent("." + url.lastPathComponent + ".tmp-\(getpid())")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else {
            throw Checkpoint.Problem(
                path: url.path,
                message: "cannot create \(temporary.path): \(Checkpoint.errnoText)"
            )
        }
        var output = ChunkedOutput(descriptor: descriptor)
        encode(into: &output)
        let written = output.finish()
        let synced = written && fsync(descriptor) == 0
        close(descriptor)
        guard synced else {
            let problem = Checkpoint.errnoText
            unlink(temporary.path)
            throw Checkpoint.Problem(path: url.path, message: "cannot write \(temporary.path): \(problem)")
        }
        guard rename(temporary.path, url.path) == 0 else {
            let problem = Checkpoint.errnoText
            unlink(temporary.path)
            throw Checkpoint.Problem(
                path: url.path,
                message: "cannot rename \(temporary.lastPathComponent) into place: \(problem)"
            )
        }
        return output.total
    }

    /// The snapshot as JSON, written by hand, keys sorted while there are few of them.
    private func encode(into out: inout ChunkedOutput) {
        out.append("{\"version\":\(Checkpoint.formatVersion),\"generation\":\(generation)")
        out.append(",\"sources\":{")
        let live = removed.isEmpty ? Array(marks.indices) : marks.indices.filter { !removed.contains($0) }
        let order = live.count <= 10_000 ? live.sorted { marks.key(at: $0) < marks.key(at: $1) } : live
        for (position, index) in order.enumerated() {
            if position > 0 { out.append(",") }
            out.string(marks.key(at: index))
            out.append(":\(marks[index])")
        }
        out.append("}")
        out.object("given_up", givenUp) { pairs, out in out.ranges(pairs) }
        out.object("endpoints", endpoints) { text, out in out.string(text) }
        out.object("endpoint_identities", endpointIdentities) { text, out in out.string(text) }
        if !epochFloors.isEmpty { out.object("epoch_floors", epochFloors) { epoch, out in out.append("\(epoch)") } }
        out.append("}\n")
    }
}

/// Bytes written to a file descriptor 64 KiB at a time.
package struct ChunkedOutput {
    package let descriptor: Int32
    private var buffer: [UInt8] = []
    private var failed = false
    package private(set) var total = 0

    package init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer.reserveCapacity(1 << 16)
    }

    package mutating func append(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    /// `text` as a JSON string.
    package mutating func string(_ text: String) {
        buffer.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(byte)
            case 0..<0x20:
                buffer.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
            default: buffer.append(byte)
            }
        }
        buffer.append(UInt8(ascii: "\""))
        if buffer.count >= 1 << 16 { flush() }
    }

    /// `,"key":{…}` with `map`'s entries, keys sorted while there are at most 10,000.
    package mutating func object<Value>(
        _ key: String,
        _ map: [String: Value],
        _ value: (Value, inout ChunkedOutput) -> Void
    ) {
        append(",")
        string(key)
        append(":{")
        let keys = map.count <= 10_000 ? map.keys.sorted() : Array(map.keys)
        for (position, key) in keys.enumerated() {
            if position > 0 { append(",") }
            string(key)
            append(":")
            value(map[key]!, &self)
        }
        append("}")
    }

    /// `,"key":["a","b"]`.
    package mutating func array(_ key: String, _ items: [String]) {
        append(",")
        string(key)
        append(":[")
        for (position, item) in items.enumerated() {
            if position > 0 { append(",") }
            string(item)
        }
        append("]")
    }

    /// `[[from,to],…]`.
    package mutating func ranges(_ pairs: [[UInt64]]) {
        append("[" + pairs.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }.joined(separator: ",") + "]")
    }

    private mutating func flush() {
        guard !failed, !buffer.isEmpty else { return }
        if Checkpoint.writeAll(buffer, to: descriptor) { total += buffer.count } else { failed = true }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is left; whether every byte was written.
    package mutating func finish() -> Bool {
        flush()
        return !failed
    }
}
