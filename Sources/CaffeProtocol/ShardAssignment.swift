/// Which of a fleet's shards owns a source: every event of a source (all its epochs) goes to one
/// shard, so one worker keeps that source's books.
///
/// The owner of a source id is Lamping and Veach's jump consistent hash ("A Fast, Minimal Memory,
/// Consistent Hash Algorithm", 2014) of the id's 64-bit FNV-1a hash (UTF-8): stable across
/// processes, machines and languages (`caffe_client.shard_of` in the Python client computes the
/// same), and going from *n* to *n + 1* shards moves only the sources the new shard takes, about
/// 1 / (*n* + 1) of them. `caffe checkpoint reshard` moves their checkpoint entries along.
public struct ShardAssignment: Hashable, Sendable, CustomStringConvertible {
    /// The largest fleet a source id can be assigned in.
    public static let maximumCount = 4096

    /// This shard, from 0.
    public let index: Int
    /// How many shards there are.
    public let count: Int

    /// Shard `index` of `count`; `nil` unless 0 ≤ `index` < `count` ≤ ``maximumCount``.
    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maximumCount, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// Reads `i/N` (`2/4`: the third of four shards); `nil` when it is not that shape or out of range.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// `i/N`.
    public var description: String { "\(index)/\(count)" }

    /// The topic prefix a partitioning forwarder (`caffe proxy --kind partition`) puts before
    /// every event of this shard's sources: `shard/2-of-4/`, so `order.sf-1` travels as
    /// `shard/2-of-4/order.sf-1` and shard 2 of 4 subscribes to its topics under it.
    public var topicPrefix: String { Self.topicPrefix(index: index, count: count) }

    /// ``topicPrefix`` of shard `index` of `count`.
    public static func topicPrefix(index: Int, count: Int) -> String { "shard/\(index)-of-\(count)/" }

    /// The shard a partitioned topic (or subscription prefix) names and what follows its prefix;
    /// `nil` unless the text starts with a well-formed `shard/i-of-N/`.
    public static func split(partitionedTopic text: Substring) -> (shard: ShardAssignment, topic: Substring)? {
        guard text.hasPrefix("shard/") else { return nil }
        let rest = text.dropFirst("shard/".count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        let name = rest[..<slash]
        let parts = name.split(separator: "-", omittingEmptySubsequences: false)
        // Only the canonical spelling (no signs, no leading zeros): one shard, one prefix.
        guard parts.count == 3, parts[1] == "of", let index = Int(parts[0]), let count = Int(parts[2]),
            let shard = ShardAssignment(index: index, count: count), shard.topicPrefix.dropFirst(6).dropLast() == name
        else { return nil }
        return (shard, rest[rest.index(after: slash)...])
    }

    /// Whether this shard owns `sourceID`.
    public func owns(_ sourceID: String) -> Bool {
        Self.shard(of: sourceID, among: count) == index
    }

    /// The shard that owns `sourceID` among `count` (1…``maximumCount``).
    public static func shard(of sourceID: String, among count: Int) -> Int {
        precondition(count >= 1 && count <= maximumCount, "a fleet has 1 to \(maximumCount) shards")
        return jump(fnv1a(sourceID), buckets: count)
    }

    /// 64-bit FNV-1a of the UTF-8 bytes.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Jump consistent hash: the bucket of `key` among `buckets`.
    static func jump(_ key: UInt64, buckets: Int) -> Int {
        var key = key
        var bucket: Int64 = -1
        var next: Int64 = 0
        while next < Int64(buckets) {
            bucket = next
            key = key &* 2_862_933_555_777_941_757 &+ 1
            next = Int64(Double(bucket + 1) * (Double(UInt64(1) << 31) / Double((key >> 33) + 1)))
        }
        return Int(bucket)
    }
}
