import Foundation

/// Runs the package's own executables as real processes from tests.
public enum ExecutableRunner {
    /// What a finished process left behind.
    public struct Result: Sendable {
        public var status: Int32
        public var standardOutput: String
        public var standardError: String
    }

    /// The executable `name` built next to the running test bundle (`swift build --build-tests`
    /// puts products and the test bundle in one folder), or `nil` when it is not there.
    public static func locate(_ name: String) -> URL? {
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate.standardizedFileURL
            }
        }
        return nil
    }

    /// Runs `executable` with `arguments`, feeding `input` on standard input, and waits for it.
    /// Output goes through temporary files, so no pipe can fill up and block the child.
    public static func run(_ executable: URL, _ arguments: [String], input: String = "") throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("caffe-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputURL = folder.appendingPathComponent("stdin")
        let outputURL = folder.appendingPathComponent("stdout")
        let errorURL = folder.appendingPathComponent("stderr")
        try Data(input.utf8).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let inputHandle = try FileHandle(forReadingFrom: inputURL)
        let output = try FileHandle(forWritingTo: outputURL)
        let error = try FileHandle(forWritingTo: errorURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = inputHandle
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        try inputHandle.close()
        try output.close()
        try error.close()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: try Data(contentsOf: outputURL), as: UTF8.self),
            standardError: String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
        )
    }
}
