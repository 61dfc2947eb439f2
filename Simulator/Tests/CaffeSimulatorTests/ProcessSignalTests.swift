import Foundation
import Testing
import WorkerTestKit

@testable import CaffeSimulator

@Suite("Child processes")
struct ProcessSignalTests {
    /// The blocked-signal mask a child reports for itself (`SigBlk` in `/proc/self/status`).
    static func blockedSignals(of process: Process, start: (Process) throws -> Void) throws -> String {
        // grep itself, not a shell: shells reset their mask at start.
        process.executableURL = URL(fileURLWithPath: "/bin/grep")
        process.arguments = ["^SigBlk:", "/proc/self/status"]
        let output = Pipe()
        process.standardOutput = output
        try start(process)
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return printed.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a child started from a pool thread that blocks signals starts with none blocked")
    func childStartsWithNoSignalBlocked() async throws {
        // Block SIGTERM on this thread, as the concurrency pool's threads do, for the spawn.
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }

        let plain = try Self.blockedSignals(of: Process()) { try $0.run() }
        let unblocked = try Self.blockedSignals(of: Process()) { try $0.runWithSignalsUnblocked() }
        #expect(plain != "SigBlk:\t0000000000000000")
        #expect(unblocked == "SigBlk:\t0000000000000000")
    }
}
