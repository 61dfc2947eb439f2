import CaffeBooks
import CaffeProtocol

/// Moves checkpoint entries to the shards that own their sources after the number of shards
/// changed (`caffe checkpoint reshard`): the checkpoints of every old shard in, one per new shard
/// out, each source's mark, given-up ranges and pinned replay endpoint with the shard
/// ``ShardAssignment`` gives its source id (all epochs of a source together).
public enum CheckpointReshard {
    /// Why checkpoints cannot be combined.
    public struct Conflict: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The outcome: the new checkpoints, by shard, and what moved.
    public struct Result: Sendable {
        /// One checkpoint per new shard, shard 0 first.
        public var checkpoints: [Checkpoint]
        /// Per new shard, how many of its sources came from another old shard.
        public var movedIn: [Int]
        /// Sources found in more than one input, kept at their lowest mark (those in between are
        /// rendered again: delivery is at least once, never less).
        public var overlapping: [String]
    }

    /// Splits or merges `checkpoints` (old shard *i* at index *i*) into `count` shards.
    ///
    /// Every output's generation is above every input's, so a journal left beside an old snapshot
    /// is skipped when the new snapshot is read.
    /// - Throws: ``Conflict`` when two inputs pin different replay endpoints for one source, which
    ///   only an operator can decide.
    public static func reshard(_ checkpoints: [Checkpoint], into count: Int) throws(Conflict) -> Result {
        precondition(count >= 1 && count <= ShardAssignment.maximumCount)
        var marks: [String: UInt64] = [:]
        var origin: [String: Int] = [:]
        var givenUp: [String: [ClosedRange<UInt64>]] = [:]
        var pins: [String: IntakeTracker.Pin] = [:]
        var overlapping: Set<String> = []
        for (shard, checkpoint) in checkpoints.enumerated() {
            for (key, mark) in checkpoint.sources {
                if let earlier = marks[key] {
                    overlapping.insert(key)
                    marks[key] = min(earlier, mark)
                } else {
                    marks[key] = mark
                    origin[key] = shard
                }
            }
            for (key, ranges) in checkpoint.givenUpRanges {
                givenUp[key, default: []] += ranges
                origin[key] = origin[key] ?? shard
            }
            for (key, pin) in checkpoint.pins {
                if let earlier = pins[key], earlier != pin {
                    throw Conflict(
                        description: "source \(SourceStream.describe(key)) is pinned to \(earlier.endpoint) in one "
                            + "checkpoint and to \(pin.endpoint) in another; remove the wrong pin first"
                    )
                }
                pins[key] = pin
                origin[key] = origin[key] ?? shard
            }
        }
        let generation = (checkpoints.map(\.generation).max() ?? 0) + 1
        var outputs = [Checkpoint](repeating: Checkpoint(), count: count)
        var movedIn = [Int](repeating: 0, count: count)
        for key in Set(marks.keys).union(givenUp.keys).union(pins.keys) {
            let shard = ShardAssignment.shard(of: SourceStream.split(key).source, among: count)
            if let mark = marks[key] { outputs[shard].sources[key] = mark }
            if let ranges = givenUp[key] {
                outputs[shard].givenUp[key] = merged(ranges).map { [$0.lowerBound, $0.upperBound] }
            }
            if let pin = pins[key] {
                outputs[shard].endpoints[key] = pin.endpoint
                if !pin.identity.isEmpty { outputs[shard].endpointIdentities[key] = pin.identity }
            }
            if origin[key] != shard, marks[key] != nil { movedIn[shard] += 1 }
        }
        // Epoch floors go with their source's owner; two inputs' floors for one source: the higher.
        for checkpoint in checkpoints {
            for (source, floor) in checkpoint.epochFloors {
                let shard = ShardAssignment.shard(of: source, among: count)
                outputs[shard].epochFloors[source] = max(outputs[shard].epochFloors[source] ?? 0, floor)
            }
        }
        for index in outputs.indices { outputs[index].generation = generation }
        return Result(checkpoints: outputs, movedIn: movedIn, overlapping: overlapping.sorted())
    }

    /// Ranges sorted, overlapping and adjacent ones joined.
    static func merged(_ ranges: [ClosedRange<UInt64>]) -> [ClosedRange<UInt64>] {
        var result: [ClosedRange<UInt64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound &+ 1 {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
