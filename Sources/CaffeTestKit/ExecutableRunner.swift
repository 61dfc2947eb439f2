import Foundation
import WorkerTestKit

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

    /// Runs `executable` with `arguments` to its end, `input` on standard input
    /// (``ChildProcess/run(_:_:input:)``, the launcher the tests and the simulator share).
    public static func run(_ executable: URL, _ arguments: [String], input: String = "") throws -> Result {
        let result = try ChildProcess.run(executable, arguments, input: input)
        return Result(status: result.status, standardOutput: result.standardOutput, standardError: result.standardError)
    }
}
