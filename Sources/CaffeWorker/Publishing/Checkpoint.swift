import Foundation

/// Each source's highest contiguous sequence whose outputs were all delivered (acknowledged, on
/// the acknowledged output; accepted by the socket, on PUB and PUSH), kept in a small JSON file
/// that is replaced atomically (written beside it, flushed, renamed), so a crash leaves either
/// the old checkpoint or the new one, never half of one.
///
/// Version 2 adds the ranges given up as unrecoverable (`given_up`, as `[from, to]` pairs), so an
/// event that arrives late inside one after a restart is still rendered. Version 1 files are read.
public struct Checkpoint: Hashable, Sendable, Codable {
    public static let formatVersion = 2

    public var version: Int = Checkpoint.formatVersion
    /// Source id → highest contiguous sequence done.
    public var sources: [String: UInt64] = [:]
    /// Source id → ranges given up on, as `[from, to]` pairs.
    public var givenUp: [String: [[UInt64]]] = [:]

    enum CodingKeys: String, CodingKey {
        case version, sources
        case givenUp = "given_up"
    }

    public init(sources: [String: UInt64] = [:], givenUp: [String: [ClosedRange<UInt64>]] = [:]) {
        self.sources = sources
        self.givenUp = givenUp.mapValues { $0.map { [$0.lowerBound, $0.upperBound] } }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        sources = try container.decodeIfPresent([String: UInt64].self, forKey: .sources) ?? [:]
        givenUp = try container.decodeIfPresent([String: [[UInt64]]].self, forKey: .givenUp) ?? [:]
    }

    /// The given-up ranges as ranges (malformed pairs are skipped).
    public var givenUpRanges: [String: [ClosedRange<UInt64>]] {
        givenUp.mapValues { pairs in
            pairs.compactMap { pair in pair.count == 2 && pair[0] <= pair[1] ? pair[0]...pair[1] : nil }
        }
    }

    /// Why a checkpoint file could not be used.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "checkpoint \(path): \(message)" }
    }

    /// Reads `url`; a missing file is an empty checkpoint (a first start).
    public static func read(_ url: URL) throws(Problem) -> Checkpoint {
        guard FileManager.default.fileExists(atPath: url.path) else { return Checkpoint() }
        do {
            let checkpoint = try JSONDecoder().decode(Checkpoint.self, from: Data(contentsOf: url))
            guard (1...formatVersion).contains(checkpoint.version) else {
                throw Problem(
                    path: url.path,
                    message: "format version \(checkpoint.version); this worker reads 1 through \(formatVersion)"
                )
            }
            return checkpoint
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(path: url.path, message: "unreadable (\(error)); move it aside to start over")
        }
    }

    /// Replaces `url` with this checkpoint atomically.
    public func write(to url: URL) throws(Problem) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent("." + url.lastPathComponent + ".tmp-\(getpid())")
        do {
            let data = try encoder.encode(self)
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else { throw Problem(path: url.path, message: "cannot create \(temporary.path)") }
            defer { close(descriptor) }
            let written = data.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            guard written == data.count, fsync(descriptor) == 0 else {
                throw Problem(path: url.path, message: "cannot write \(temporary.path)")
            }
            guard rename(temporary.path, url.path) == 0 else {
                throw Problem(path: url.path, message: "cannot rename \(temporary.lastPathComponent) into place")
            }
        } catch let problem as Problem {
            try? FileManager.default.removeItem(at: temporary)
            throw problem
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw Problem(path: url.path, message: "\(error)")
        }
    }
}
