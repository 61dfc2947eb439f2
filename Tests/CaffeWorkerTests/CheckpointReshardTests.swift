// Caffe — worker tests.

import CaffeBooks
import CaffeProtocol
import CaffeTestKit
import CaffeWorker
import Foundation
import Testing

/// Changing the number of shards: each source's checkpoint entry moves to its new owner.
@Suite("Checkpoint reshard")
struct CheckpointReshardTests {
    /// Three shards' checkpoints, each holding the sources that shard owns among three.
    static func threeShards(sources: Int) -> [Checkpoint] {
        var checkpoints = [Checkpoint](repeating: Checkpoint(), count: 3)
        for number in 0..<sources {
            let source = "pos-\(number)"
            let shard = ShardAssignment.shard(of: source, among: 3)
            checkpoints[shard].sources[source] = UInt64(number + 10)
            checkpoints[shard].generation = 40 + UInt64(shard)
        }
        return checkpoints
    }

    @Test func threeToFourPutsEverySourceWithItsOwner() throws {
        var inputs = Self.threeShards(sources: 300)
        // An epoch's stream goes with its source; given-up ranges and pins travel along.
        let restarted = SourceStream.key(source: "pos-7", epoch: 1_795_000_000_000_000)
        inputs[ShardAssignment.shard(of: "pos-7", among: 3)].sources[restarted] = 3
        inputs[0].givenUp["pos-11"] = [[5, 6]]
        inputs[0].endpoints["pos-11"] = "tcp://10.0.0.11:5563"
        let result = try CheckpointReshard.reshard(inputs, into: 4)
        #expect(result.checkpoints.count == 4)
        #expect(result.checkpoints.reduce(0) { $0 + $1.sources.count } == 301)
        for (shard, checkpoint) in result.checkpoints.enumerated() {
            #expect(checkpoint.generation == 43)
            for (key, mark) in checkpoint.sources {
                let source = SourceStream.split(key).source
                #expect(ShardAssignment.shard(of: source, among: 4) == shard)
                if key != restarted { #expect(mark == UInt64(Int(source.dropFirst(4))! + 10)) }
            }
        }
        let owner7 = ShardAssignment.shard(of: "pos-7", among: 4)
        #expect(result.checkpoints[owner7].sources[restarted] == 3)
        let owner11 = result.checkpoints[ShardAssignment.shard(of: "pos-11", among: 4)]
        #expect(owner11.givenUpRanges["pos-11"] == [5...6])
        #expect(owner11.endpoints["pos-11"] == "tcp://10.0.0.11:5563")
        // Only what the fourth shard takes moves: 3 → 4 never moves a source between old shards.
        #expect(result.movedIn[0] == 0 && result.movedIn[1] == 0 && result.movedIn[2] == 0)
        #expect(result.movedIn[3] == result.checkpoints[3].sources.count && result.movedIn[3] > 40)
    }

    /// Merging back is the inverse, and a source in two inputs keeps its lowest mark.
    @Test func mergingKeepsTheLowestMarkOfASourceSeenTwice() throws {
        var inputs = Self.threeShards(sources: 60)
        inputs[1].sources["pos-0"] = 2
        inputs[0].sources["pos-0"] = 9
        let merged = try CheckpointReshard.reshard(inputs, into: 1)
        #expect(merged.checkpoints[0].sources.count == 60)
        #expect(merged.checkpoints[0].sources["pos-0"] == 2)
        #expect(merged.overlapping == ["pos-0"])
    }

    @Test func differentPinsForOneSourceAreRefused() {
        var inputs = Self.threeShards(sources: 10)
        inputs[0].endpoints["pos-1"] = "tcp://10.0.0.1:5563"
        inputs[2].endpoints["pos-1"] = "tcp://10.6.6.6:5563"
        #expect(throws: CheckpointReshard.Conflict.self) { try CheckpointReshard.reshard(inputs, into: 2) }
    }

    /// `caffe checkpoint reshard` on real files: snapshot and journal read as the worker reads
    /// them, one file per new shard written with an empty journal, a summary printed.
    @Test(.enabled(if: ExecutableRunner.locate("caffe") != nil))
    func theCommandWritesOneCheckpointPerShard() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reshard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = Self.threeShards(sources: 90)
        var paths: [String] = []
        for (shard, checkpoint) in inputs.enumerated() {
            let url = folder.appendingPathComponent("old-\(shard).checkpoint")
            try checkpoint.write(to: url)
            paths.append(url.path)
        }
        // A journal line after the snapshot counts too.
        let owner0 = inputs[0].sources.keys.sorted()[0]
        var change = Checkpoint.Change(sources: [owner0: 500])
        change.generation = 99
        try Checkpoint.append(change, toJournalOf: folder.appendingPathComponent("old-0.checkpoint"))
        let caffe = try #require(ExecutableRunner.locate("caffe"))
        let output = folder.appendingPathComponent("new")
        let result = try ExecutableRunner.run(
            caffe,
            ["checkpoint", "reshard", "--to", "4", "--output", output.path] + paths
        )
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.first == "90 sources from 3 shards into 4:")
        var total = 0
        for shard in 0..<4 {
            let file = output.appendingPathComponent("shard-\(shard).checkpoint")
            let checkpoint = try Checkpoint.read(file)
            #expect(checkpoint.generation == 100)
            #expect(FileManager.default.fileExists(atPath: Checkpoint.journalURL(for: file).path))
            for key in checkpoint.sources.keys { #expect(ShardAssignment.shard(of: key, among: 4) == shard) }
            total += checkpoint.sources.count
        }
        #expect(total == 90)
        let owner = output.appendingPathComponent("shard-\(ShardAssignment.shard(of: owner0, among: 4)).checkpoint")
        #expect(try Checkpoint.read(owner).sources[owner0] == 500)
        let refused = try ExecutableRunner.run(caffe, ["checkpoint", "reshard", "--to", "0", "--output", output.path])
        #expect(refused.status == 64)
    }
}
