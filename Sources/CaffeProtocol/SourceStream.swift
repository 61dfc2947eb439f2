/// One run of a source as the worker's books know it: the source id alone while the source sends
/// no `source_epoch` (one numbering for ever), else the id, a unit separator and the epoch, so a
/// source that restarted its numbering under a new epoch is a new stream starting at 1 and the
/// old run's books stay the old run's (docs/WIRE.md, "Sources and sequences").
///
/// The epoch is written in base 64 (digits `0-9A-Za-z-_`, most significant first): a key of a
/// short source id then stays within Swift's 15-byte small strings, which cost no allocation or
/// reference counting on the pipeline's serial path.
public enum SourceStream {
    /// Between the id and the epoch in a key: a control character no source id is expected to use.
    static let separator: Character = "\u{1F}"
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_".utf8)

    /// The books' key for `source` in `epoch` (0: the source id itself).
    public static func key(source: String, epoch: UInt64) -> String {
        guard epoch != 0 else { return source }
        var encoded: [UInt8] = []
        var rest = epoch
        while rest > 0 {
            encoded.append(digits[Int(rest & 63)])
            rest >>= 6
        }
        return source + "\u{1F}" + String(decoding: encoded.reversed(), as: UTF8.self)
    }

    /// The source id and epoch a key stands for.
    public static func split(_ key: String) -> (source: String, epoch: UInt64) {
        guard let index = key.lastIndex(of: separator) else { return (key, 0) }
        var epoch: UInt64 = 0
        let text = key.utf8[key.utf8.index(after: index)...]
        guard !text.isEmpty, text.count <= 11 else { return (key, 0) }
        for byte in text {
            guard let digit = digits.firstIndex(of: byte), epoch >> 58 == 0 else { return (key, 0) }
            epoch = epoch << 6 | UInt64(digit)
        }
        return epoch == 0 ? (key, 0) : (String(key[..<index]), epoch)
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
