// Caffe — simulator tests.
import CaffeCore
import CaffeSimulator
import CaffeTestKit
import Foundation
import Testing

/// The reliability suite, small, against real worker processes: nothing lost in any row.
@Suite("caffe-sim chaos", .serialized)
struct ChaosTests {
    @Test("kill -9, SIGTERM, slow consumers and hostile input: every order arrives")
    func everyRowLosesNothing() throws {
        let executable = try #require(ExecutableRunner.locate("caffe"), "build with swift build --build-tests")
        var configuration = ChaosSuite.Configuration(
            executable: executable,
            configurationDirectory: ConfigurationDirectory.builtIn
        )
        configuration.orders = 600
        configuration.rate = 1000
        configuration.kills = 3
        configuration.settleSeconds = 45
        let rows = try ChaosSuite(configuration: configuration).run()
        #expect(rows.map(\.name) == ChaosSuite.rowNames)
        for row in rows {
            #expect(row.sent == 600 && row.delivered == 600 && row.lost == 0, "\(row.name): \(row)")
        }
        let hostile = try #require(rows.first { $0.name == "hostile-input" })
        // Every hostile message is dead-lettered; the three whose header skips sequence 1 of their
        // (replay-less) source add an unrecoverable-gap letter each.
        #expect(hostile.hostile == 24 && hostile.hostileDeadLettered == 27, "\(hostile)")
        #expect(hostile.note.hasSuffix("worker still running"))
        // Without a crash nothing comes twice.
        for row in rows where !row.name.hasPrefix("kill") && !row.name.hasPrefix("sigterm") {
            #expect(row.duplicated == 0, "\(row.name)")
        }
    }
}
