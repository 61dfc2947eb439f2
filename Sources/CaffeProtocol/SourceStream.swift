/// One run of a source as the worker's books know it: the source id alone while the source sends
/// no `source_epoch` (one numbering for ever), else the id and the epoch, so a source that
/// restarted its numbering under a new epoch is a new stream starting at 1 and the old run's
/// books stay the old run's (docs/WIRE.md, "Sources and sequences").
public enum SourceStream {
    /// Between the id and the epoch in a key: a control character no source id is expected to use.
    static let separator: Character = "\u{1F}"

    /// The books' key for `source` in `epoch` (0: the source id itself).
    public static func key(source: String, epoch: UInt64) -> String {
        epoch == 0 ? source : "\(source)\(separator)\(epoch)"
    }

    /// The source id and epoch a key stands for.
    public static func split(_ key: String) -> (source: String, epoch: UInt64) {
        guard let index = key.lastIndex(of: separator), let epoch = UInt64(key[key.index(after: index)...]) else {
            return (key, 0)
        }
        return (String(key[..<index]), epoch)
    }

    /// A key as people read it: `pos-1`, or `pos-1 (epoch 1795000000000000)`.
    public static func describe(_ key: String) -> String {
        let (source, epoch) = split(key)
        return epoch == 0 ? source : "\(source) (epoch \(epoch))"
    }
}

extension Caffe_V1_EventHeader {
    /// The books' key for this event's stream: ``SourceStream/key(source:epoch:)``.
    public var streamKey: String { SourceStream.key(source: sourceID, epoch: sourceEpoch) }
}
