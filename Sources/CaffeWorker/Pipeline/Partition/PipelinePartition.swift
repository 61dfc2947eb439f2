import CaffeBooks
import CaffeProtocol

/// Which of a worker's pipelines owns a source (`input.pipelines`): every epoch of a source goes
/// to one pipeline, so its order, de-duplication, gap recovery and checkpoint entries stay where
/// they were with one pipeline.
///
/// The hash is not the shard assignment's (jump hash over FNV-1a): a shard's sources all share
/// one jump-hash bucket, and jump hash with fewer buckets would send every one of them to the
/// same pipeline. This is FNV-1a finished with a 64-bit mixer, then reduced modulo the count. It
/// is deterministic (not Swift's per-process seeded `Hasher`), though nothing on disk depends on
/// it: the one checkpoint file is split by it afresh at every start, so the count may change
/// between restarts.
struct PipelinePartition: Hashable, Sendable {
    /// Pipelines, at least 1.
    let count: Int

    init(count: Int) {
        precondition(count >= 1, "a worker runs at least one pipeline")
        self.count = count
    }

    /// The pipeline that owns `sourceID` (0 when there is one).
    func owner(of sourceID: String) -> Int {
        guard count > 1 else { return 0 }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in sourceID.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        // SplitMix64's finisher: every input bit reaches the low bits the modulo keeps.
        hash ^= hash >> 30
        hash = hash &* 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 27
        hash = hash &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return Int(hash % UInt64(count))
    }

    /// The pipeline that owns a books key (a source id, or a source id and epoch).
    func owner(ofKey key: String) -> Int {
        count > 1 ? owner(of: SourceStream.split(key).source) : 0
    }

    /// `checkpoint` split by owner: each pipeline resumes from its sources' marks, given-up ranges,
    /// pinned endpoints and epoch floors, and nothing of another's (one pipeline's books expiring a
    /// source they never saw would otherwise retire another pipeline's entry).
    func split(_ checkpoint: Checkpoint) -> [Checkpoint] {
        guard count > 1 else { return [checkpoint] }
        var parts = [Checkpoint](repeating: Checkpoint(), count: count)
        for index in parts.indices { parts[index].generation = checkpoint.generation }
        for (key, mark) in checkpoint.sources { parts[owner(ofKey: key)].sources[key] = mark }
        for (key, ranges) in checkpoint.givenUp { parts[owner(ofKey: key)].givenUp[key] = ranges }
        for (key, endpoint) in checkpoint.endpoints { parts[owner(ofKey: key)].endpoints[key] = endpoint }
        for (key, identity) in checkpoint.endpointIdentities {
            parts[owner(ofKey: key)].endpointIdentities[key] = identity
        }
        for (source, floor) in checkpoint.epochFloors { parts[owner(of: source)].epochFloors[source] = floor }
        return parts
    }
}
