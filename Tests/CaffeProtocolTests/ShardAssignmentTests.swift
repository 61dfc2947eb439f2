// Caffe — protocol tests.

import Foundation
import Testing

@testable import CaffeProtocol

/// Which shard owns a source: FNV-1a 64 of the id, then jump consistent hash.
@Suite("Shard assignment")
struct ShardAssignmentTests {
    /// FNV-1a 64's published test vectors.
    @Test func fnv1aMatchesItsReferenceVectors() {
        #expect(ShardAssignment.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(ShardAssignment.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(ShardAssignment.fnv1a("foobar") == 0x8594_4171_f739_67e8)
    }

    /// Values other implementations of the paper's algorithm publish (jump(256, 1024) = 520;
    /// jump(0, 60) = 0, jump(1, 60) = 55, jump(2, 60) = 46).
    @Test func jumpMatchesPublishedValues() {
        #expect(ShardAssignment.jump(256, buckets: 1024) == 520)
        #expect(ShardAssignment.jump(0, buckets: 60) == 0)
        #expect(ShardAssignment.jump(1, buckets: 60) == 55)
        #expect(ShardAssignment.jump(2, buckets: 60) == 46)
    }

    /// The shards the Python client's `shard_of` computes for the same ids (clients/python/tests).
    @Test func knownSourcesLandWhereThePythonClientPutsThem() {
        let expected: [(String, Int, Int)] = ShardAssignmentTests.crossLanguage
        for (source, count, shard) in expected {
            #expect(ShardAssignment.shard(of: source, among: count) == shard, "\(source) among \(count)")
        }
    }

    static let crossLanguage: [(String, Int, Int)] = [
        ("pos-1", 3, 1), ("pos-1", 4, 1), ("store-mx-cdmx", 3, 2),
        ("store-mx-cdmx", 4, 2), ("kiosk-ñ-7", 5, 0), ("", 2, 1),
    ]

    @Test func parsesIndexOverCount() {
        #expect(ShardAssignment("2/4") == ShardAssignment(index: 2, count: 4))
        #expect(ShardAssignment("2/4")?.description == "2/4")
        for bad in ["4/4", "-1/2", "a/b", "1/0", "0/4097", "1", "1/2/3", "", " 1/2"] {
            #expect(ShardAssignment(bad) == nil, "\(bad)")
        }
        #expect(ShardAssignment("0/1")?.owns("anything") == true)
    }

    /// A partitioning forwarder's topic prefix, and reading it back (canonical spelling only).
    @Test func topicPrefixesNameTheShardAndItsFleet() throws {
        let shard = try #require(ShardAssignment("2/4"))
        #expect(shard.topicPrefix == "shard/2-of-4/")
        let split = try #require(ShardAssignment.split(partitionedTopic: "shard/2-of-4/order.sf-1"))
        #expect(split.shard == shard)
        #expect(split.topic == "order.sf-1")
        #expect(ShardAssignment.split(partitionedTopic: "shard/0-of-1/")?.topic == "")
        for bad in [
            "order.sf-1", "shard/2-of-4", "shard/4-of-4/x", "shard/02-of-4/x", "shard/2-of-04/x", "shard/+2-of-4/x",
            "shard/2of4/x", "shard/2-to-4/x", "shard//x", "shard/2-of-4097/x", "Shard/2-of-4/x",
        ] {
            #expect(ShardAssignment.split(partitionedTopic: bad[...]) == nil, "\(bad)")
        }
    }

    /// Sources spread evenly, and going from three shards to four moves only what the fourth takes.
    @Test func spreadsEvenlyAndMovesOnlyWhatTheNewShardTakes() {
        let sources = (0..<12_000).map { "pos-\($0)" }
        var perShard = [Int](repeating: 0, count: 4)
        var moved = 0
        for source in sources {
            let before = ShardAssignment.shard(of: source, among: 3)
            let after = ShardAssignment.shard(of: source, among: 4)
            perShard[after] += 1
            if after != before {
                #expect(after == 3, "\(source) moved from \(before) to \(after), not to the new shard")
                moved += 1
            }
        }
        for count in perShard { #expect((2_700...3_300).contains(count), "\(perShard)") }
        #expect((2_700...3_300).contains(moved), "\(moved) of 12,000 moved")
    }

    /// docs/WIRE.md's published table ("Shards"): every id's FNV-1a and its shard for each N, as this
    /// implementation computes them (the Python client's test reads the same rows).
    @Test func theTableWireMDPublishes() throws {
        let wire = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../docs/WIRE.md"
        )
        let text = try String(contentsOf: wire, encoding: .utf8)
        let rows = Self.shardTable(text)
        #expect(rows.rows.count >= 20)
        #expect(rows.counts == [2, 3, 4, 10, 100, 4096])
        for row in rows.rows {
            #expect(ShardAssignment.fnv1a(row.source) == row.hash, "\(row.source)")
            for (count, shard) in zip(rows.counts, row.shards) {
                #expect(ShardAssignment.shard(of: row.source, among: count) == shard, "\(row.source) among \(count)")
            }
        }
    }

    /// The rows of the table under `| `source_id` | FNV-1a 64 | N = …`: `(empty)` is the empty id.
    static func shardTable(_ text: String) -> (counts: [Int], rows: [(source: String, hash: UInt64, shards: [Int])]) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("| `source_id` | FNV-1a 64 |") }) else {
            return ([], [])
        }
        func cells(_ line: String) -> [String] {
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let counts = cells(lines[start]).dropFirst(2).compactMap { Int($0.replacingOccurrences(of: "N = ", with: "")) }
        var rows: [(String, UInt64, [Int])] = []
        for line in lines[(start + 2)...] {
            guard line.hasPrefix("|") else { break }
            let row = cells(line)
            let source = row[0] == "(empty)" ? "" : String(row[0].dropFirst().dropLast())
            let hash = UInt64(row[1].dropFirst(3).dropLast(), radix: 16) ?? 0
            rows.append((source, hash, row.dropFirst(2).compactMap { Int($0) }))
        }
        return (counts, rows)
    }
}
