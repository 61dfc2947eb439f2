import Foundation
import WorkerTestKit

/// Where `caffe-sim diff` finds a configuration: a folder, or `REVISION:PATH` — the folder as a
/// git revision of the repository around the working directory had it (`HEAD~3:config`,
/// `v0.29.0:config`), exported with `git archive` into a temporary folder.
public struct ConfigurationSource: Sendable {
    /// The folder to load.
    public let folder: URL
    /// The temporary folder to remove afterwards, for a revision.
    private let temporary: URL?

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `text` as a folder if one exists there, else as `REVISION:PATH` of the repository around
    /// `repository` (the working directory when `nil`).
    public init(_ text: String, repository: URL? = nil) throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: text, isDirectory: &isFolder), isFolder.boolValue {
            folder = URL(fileURLWithPath: text)
            temporary = nil
            return
        }
        guard let colon = text.lastIndex(of: ":"), colon != text.startIndex else {
            throw Failure(description: "'\(text)' is neither a folder nor REVISION:PATH (such as HEAD~1:config)")
        }
        let revision = String(text[..<colon])
        let path = String(text[text.index(after: colon)...]).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("caffe-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let archive = root.appendingPathComponent("export.tar")
        do {
            let place = repository.map { ["-C", $0.path] } ?? []
            try Self.run(
                "git",
                place + [
                    "archive", "--format=tar", "--output", archive.path, revision, "--", path.isEmpty ? "." : path,
                ]
            )
            try Self.run("tar", ["-xf", archive.path, "-C", root.path])
        } catch {
            try? FileManager.default.removeItem(at: root)
            throw Failure(description: "'\(text)': \(error)")
        }
        try? FileManager.default.removeItem(at: archive)
        folder = path.isEmpty ? root : root.appendingPathComponent(path)
        temporary = root
    }

    /// Removes the exported folder, for a revision.
    public func remove() {
        if let temporary { try? FileManager.default.removeItem(at: temporary) }
    }

    private static func run(_ tool: String, _ arguments: [String]) throws {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments)
        guard result.status == 0 else {
            let text = result.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(description: "\(tool) failed: \(text)")
        }
    }
}
