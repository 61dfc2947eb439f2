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

    static func log() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
    }

    @Test("ChildProcess: a child that ignores SIGTERM is killed after the timeout; its status is the signal's negative")
    func stopEscalates() throws {
        let child = ChildProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "trap '' TERM; echo ready >&2; while :; do sleep 0.1; done"],
            log: Self.log()
        )
        defer { try? FileManager.default.removeItem(at: child.log) }
        try child.start()
        #expect(child.waitForLog("ready", timeout: .seconds(10)))
        let started = ContinuousClock.now
        #expect(child.stop(SIGTERM, timeout: 1) == -SIGKILL)
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(child.exits == [-SIGKILL] && !child.isRunning)
        #expect(child.stop() == nil)
    }

    @Test("ChildProcess: a killed child whose own child holds on is given up on, not waited for or read")
    func stopGivesUpOnLingeringChildren() throws {
        let marker = "caffe-linger-\(UUID().uuidString.prefix(8))"
        let child = ChildProcess(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", "sleep 30 \(marker) 2>/dev/null & echo ready >&2; wait"],
            log: Self.log()
        )
        defer {
            try? FileManager.default.removeItem(at: child.log)
            _ = try? ChildProcess.run(URL(fileURLWithPath: "/usr/bin/pkill"), ["-f", marker])
        }
        try child.start()
        #expect(child.waitForLog("ready", timeout: .seconds(10)))
        let started = ContinuousClock.now
        let status = child.stop(SIGKILL, timeout: 1)
        // Foundation may or may not see the exit while the grandchild holds its watch socket:
        // either way the call returns, without trapping, within twice the timeout.
        #expect(status == nil || status == -SIGKILL)
        #expect(ContinuousClock.now - started < .seconds(5))
    }

    @Test("ChildProcess.run: output, error and status of a command run to its end")
    func runToTheEnd() throws {
        let result = try ChildProcess.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "cat; echo oops >&2; exit 3"],
            input: "in\n"
        )
        #expect(result.status == 3 && result.standardOutput == "in\n" && result.standardError == "oops\n")
        let killed = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "kill -9 $$"])
        #expect(killed.status == -SIGKILL)
    }
}
