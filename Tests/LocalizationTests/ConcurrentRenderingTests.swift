// Caffe — Localization tests.
import Foundation
import Localization
import Testing

@Suite("One localizer shared by many threads")
struct ConcurrentRenderingTests {
    static let catalog = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config/Localizations")

    @Test func concurrentRendersAgreeWithSerialOnes() async throws {
        let catalog = try StringCatalog(directory: Self.catalog)
        let localizers = try ["es-MX", "ar-EG", "en-US"].map { try Localizer(catalog: catalog, locale: $0) }
        // Expected texts rendered one at a time first.
        var expected: [String: String] = [:]
        for localizer in localizers {
            for count in [0, 1, 2, 5, 21, 1000, 1_000_000] {
                let text = try localizer.string("%lld items", arguments: [.integer(Int64(count))]).text
                expected["\(localizer.locale)/\(count)"] = text
            }
        }
        let frozen = expected
        let mismatches = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<2_000 {
                        let localizer = localizers[(worker + round) % localizers.count]
                        let count = [0, 1, 2, 5, 21, 1000, 1_000_000][round % 7]
                        let text = try localizer.string("%lld items", arguments: [.integer(Int64(count))]).text
                        if frozen["\(localizer.locale)/\(count)"] != text { wrong += 1 }
                    }
                    return wrong
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect(expected["es-MX/1000000"] == "1,000,000 de artículos")
        #expect(expected["ar-EG/21"] == "٢١ عنصرًا")
        #expect(expected["en-US/1"] == "1 item")
    }
}
