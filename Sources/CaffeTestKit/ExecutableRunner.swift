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

    /// The executable `name` built next to the running test bundle, or `nil` when it is not there
    /// (``ChildProcess/locate(_:)``).
    public static func locate(_ name: String) -> URL? { ChildProcess.locate(name) }

    /// Runs `executable` with `arguments` to its end, `input` on standard input
    /// (``ChildProcess/run(_:_:input:)``, the launcher the tests and the simulator share).
    public static func run(_ executable: URL, _ arguments: [String], input: String = "") throws -> Result {
        let result = try ChildProcess.run(executable, arguments, input: input)
        return Result(status: result.status, standardOutput: result.standardOutput, standardError: result.standardError)
    }
}
