import Foundation

/// Each source's highest contiguous sequence whose outputs were all published, kept in a small
/// JSON file that is replaced atomically (written beside it, flushed, renamed), so a crash leaves
/// either the old checkpoint or the new one, never half of one.
public struct Checkpoint: Hashable, Sendable, Codable {
    public static let formatVersion = 1

    public var version: Int = Checkpoint.formatVersion
    /// Source id → highest contiguous sequence done.
    public var sources: [String: UInt64] = [:]

    public init(sources: [String: UInt64] = [:]) {
        self.sources = sources
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
            guard checkpoint.version == formatVersion else {
                throw Problem(
                    path: url.path,
                    message: "format version \(checkpoint.version); this worker reads \(formatVersion)"
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
