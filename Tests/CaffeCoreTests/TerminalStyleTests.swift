// Caffe — CaffeCore tests.
import CaffeCore
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Terminal colour by default")
struct TerminalStyleTests {
    @Test("on a terminal colour is on unless NO_COLOR is set and not empty; never on a pipe")
    func noColor() throws {
        // A pseudo-terminal's master side is a terminal to isatty(3).
        let terminal = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(terminal >= 0 && isatty(terminal) == 1)
        defer { close(terminal) }
        #expect(TerminalStyle.colorByDefault(on: terminal, environment: [:]))
        #expect(TerminalStyle.colorByDefault(on: terminal, environment: ["NO_COLOR": ""]))
        #expect(!TerminalStyle.colorByDefault(on: terminal, environment: ["NO_COLOR": "1"]))
        var pipes: [Int32] = [0, 0]
        #expect(pipe(&pipes) == 0)
        defer { pipes.forEach { close($0) } }
        #expect(!TerminalStyle.colorByDefault(on: pipes[1], environment: [:]))
    }
}
