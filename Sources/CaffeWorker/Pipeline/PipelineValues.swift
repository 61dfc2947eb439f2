import CaffeBooks
import CaffeCore
import CaffeProtocol
import CaffeTransport
import SwiftProtobuf
import ZeroMQ

/// An event as received, its header decoded once: what intake judges and a renderer renders.
///
/// It is moved between threads (to a render helper and back), never shared: its frames are libzmq
/// messages, which any one thread at a time may use. That is what `@unchecked Sendable` promises.
struct InputEvent: @unchecked Sendable {
    var topic: ZMQMessage
    var headerFrame: ZMQMessage
    var body: ZMQMessage
    var header: Caffe_V1_EventHeader
    /// The books' key of the event's stream (``SourceStream``), made once: it is a new string for
    /// a source that sends an epoch.
    let streamKey: String
    /// The worker's span of this event, when it is traced and spans are exported.
    var span: EventSpan?

    /// `streamKey`: the header's, when the caller has it already (``StreamKeys``).
    init(
        topic: ZMQMessage,
        headerFrame: ZMQMessage,
        body: ZMQMessage,
        header: Caffe_V1_EventHeader,
        streamKey: String? = nil
    ) {
        self.topic = topic
        self.headerFrame = headerFrame
        self.body = body
        self.header = header
        self.streamKey = streamKey ?? header.streamKey
    }

    /// The event's place in its source's stream (intake has checked both parts).
    var ref: SequenceRef { SequenceRef(source: streamKey, sequence: header.sequence) }
}

/// What the bytes of one input message turned out to be.
enum ParsedInput {
    /// A well-formed event.
    case event(InputEvent)
    /// Larger than the worker accepts; the header, when it could be read, identifies it.
    /// `bytes`: the body frame's size when it alone is over the limit (`body`), else the message's
    /// in all frames.
    case oversized(header: Caffe_V1_EventHeader?, bytes: Int, body: Bool, topic: String)
    /// Not an event at all (its bytes do not decode).
    case malformed(String)
    /// Decodable, but missing what every event must carry (`body_type`).
    case invalid(String, header: Caffe_V1_EventHeader?)
    /// Its header names a source another shard owns (`input.shard`): no stream key was made.
    case notOwned(source: String)

    /// Splits and checks `frames`, decoding the header.
    init(_ frames: [ZMQMessage], limits: CaffeProtocolLimits) {
        self.init(frames, limits: limits) { $0.streamKey }
    }

    /// Splits and checks `frames`, decoding the header; an event's stream key comes from `keys`.
    /// With `shard`, any input whose header names a source another shard owns is ``notOwned(source:)``,
    /// decided once, before a stream key is made or a restart noted for it.
    init(_ frames: [ZMQMessage], limits: CaffeProtocolLimits, keys: inout StreamKeys, shard: ShardAssignment?) {
        self.init(frames, limits: limits) { header in
            if let shard, !shard.owns(header.sourceID) { return nil }
            return keys.key(for: header)
        }
        // Refused inputs whose header could be read are the owner's to refuse too.
        guard let shard else { return }
        switch self {
        case .oversized(let header?, _, _, _), .invalid(_, let header?):
            if !shard.owns(header.sourceID) { self = .notOwned(source: header.sourceID) }
        default: break
        }
    }

    /// `streamKey` gives a well-formed event's stream key, or `nil` when its source is not this
    /// shard's.
    private init(
        _ frames: [ZMQMessage],
        limits: CaffeProtocolLimits,
        streamKey: (Caffe_V1_EventHeader) -> String?
    ) {
        let total = frames.reduce(0) { $0 + $1.count }
        if total > limits.maxBodyBytes + limits.maxHeaderBytes + limits.maxTopicBytes
            || (frames.count == 3 && frames[2].count > limits.maxBodyBytes)
        {
            let header =
                frames.count >= 2 && frames[1].count <= limits.maxHeaderBytes
                ? (try? EventFrames.header(parsing: frames, limits: limits)) : nil
            let topic = frames.first.map { $0.count <= limits.maxTopicBytes ? $0.string : "" } ?? ""
            let body = frames.count == 3 && frames[2].count > limits.maxBodyBytes
            self = .oversized(header: header, bytes: body ? frames[2].count : total, body: body, topic: topic)
            return
        }
        do {
            let event = try EventFrames(parsing: frames, limits: limits)
            guard let key = streamKey(event.header) else {
                self = .notOwned(source: event.header.sourceID)
                return
            }
            self = .event(
                InputEvent(
                    topic: frames[0],
                    headerFrame: frames[1],
                    body: frames[2],
                    header: event.header,
                    streamKey: key
                )
            )
        } catch  where error.code == .missingField || error.code == .invalidField {
            // The header decodes but lacks what it must carry: what it does carry identifies it.
            let header =
                frames.count >= 2 && frames[1].count <= limits.maxHeaderBytes
                ? try? Caffe_V1_EventHeader(serializedBytes: frames[1].bytes) : nil
            self = .invalid(error.description, header: header)
        } catch {
            self = .malformed(error.description)
        }
    }
}

/// The stream keys of the sources seen lately, made once per run of a source rather than once per
/// event (a key of a source with an epoch is a new string each time it is made), and each source's
/// latest epoch, to tell a restart.
struct StreamKeys {
    private var bySource: [String: (epoch: UInt64, key: String)] = [:]
    /// Sources remembered, at most; past it the memory starts again (a restart of a forgotten
    /// source is then not logged as one).
    static let capacity = 100_000

    /// A restart seen by ``key(for:)``: the source's previous epoch and the new one.
    private(set) var restart: (source: String, previous: UInt64, epoch: UInt64)?

    /// `header`'s stream key; notes a restart (a larger epoch than the source's last) in ``restart``.
    mutating func key(for header: Caffe_V1_EventHeader) -> String {
        let epoch = header.sourceEpoch
        guard epoch != 0 else { return header.sourceID }
        if let known = bySource[header.sourceID] {
            if known.epoch == epoch { return known.key }
            let key = header.streamKey
            if epoch > known.epoch {
                bySource[header.sourceID] = (epoch, key)
                restart = (header.sourceID, known.epoch, epoch)
            }
            return key
        }
        if bySource.count >= Self.capacity { bySource.removeAll(keepingCapacity: true) }
        let key = header.streamKey
        bySource[header.sourceID] = (epoch, key)
        return key
    }

    /// The restart noted since the last call, if any.
    mutating func takeRestart() -> (source: String, previous: UInt64, epoch: UInt64)? {
        defer { restart = nil }
        return restart
    }
}

/// One output: `[topic][EventHeader][body]`.
struct OutputMessage: @unchecked Sendable {
    var topic: ZMQMessage
    var header: ZMQMessage
    var body: ZMQMessage

    /// The three frames in order.
    var frames: [ZMQMessage] { [topic, header, body] }
}

/// What became of one input: its outputs (or a dead letter), and what to count.
///
/// Moved between threads like ``InputEvent``.
struct RenderedEvent: @unchecked Sendable {
    /// What the outcome was, for the metrics.
    enum Summary: Hashable, Sendable {
        /// Rendered: `kind` ("order", "complication") in the localization `locale`, with each
        /// output's kind and localization.
        case rendered(kind: String, locale: String, outputs: [LabelPair], nanoseconds: UInt64)
        /// Dead-lettered, for `reason` (the metric label).
        case deadLetter(reason: String)
        /// Not rendered because of the configuration (a catalog string that fails): kept until a
        /// reload, not completed.
        case parked(String)
        /// Not rendered: its locale (this key) is not compiled on the thread that tried.
        case deferred(locale: String)
    }

    /// The input's place in its source's stream, done once every output is delivered; `nil` for an
    /// input that had no sequence to trust.
    var ref: SequenceRef?
    var outputs: [OutputMessage]
    var summary: Summary
    /// Words agreement left as written while rendering it, to count and log.
    var notices: [AgreementNotice] = []
    // The rarely set parts are boxed: an event is moved several times on its way (queues, the
    // helpers' mailbox, the output's turn), and inline they made it 456 bytes to copy instead of 144.
    /// The event itself, when it was parked or deferred.
    @Boxed var parked: InputEvent? = nil
    /// What the renderer's locale cache did, when it changed.
    @Boxed var localeCache: LocaleCacheReport? = nil
    /// For a dead letter: what the log says of it.
    @Boxed var letter: DeadLetterNote? = nil
    /// The input header's `sent_at`, in nanoseconds since 1970 (0: none), for the end-to-end
    /// latency.
    var sentAt: Int64 = 0

    /// The kind label of the end-to-end latency: `order`, `complication`, or `dead_letter`.
    var latencyKind: String? {
        switch summary {
        case .rendered(let kind, _, _, _): kind
        case .deadLetter: "dead_letter"
        case .parked, .deferred: nil
        }
    }
    /// The first output not sent yet.
    var nextOutput = 0
    /// The worker's span of the event, render times filled in, when it is traced.
    var span: EventSpan?

    /// Every output sent.
    var isSent: Bool { nextOutput >= outputs.count }
}

/// An optional value kept on the heap, so the struct holding it stays small to move; setting it
/// makes a new box, so copies never share a change.
@propertyWrapper
struct Boxed<Wrapped> {
    private final class Box {
        let value: Wrapped
        init(_ value: Wrapped) { self.value = value }
    }

    private var box: Box?

    init(wrappedValue: Wrapped?) {
        box = wrappedValue.map(Box.init)
    }

    var wrappedValue: Wrapped? {
        get { box?.value }
        set { box = newValue.map(Box.init) }
    }
}

/// What the log says of a dead letter: why, which event, and a short excerpt of its bytes.
struct DeadLetterNote: Sendable, Equatable {
    var reason: String
    var source: String
    var sequence: UInt64
    var orderID: String
    var detail: String
    /// The body's first bytes with anything unprintable as `.` (empty when none were kept).
    var excerpt: String
    /// The event's trace context, for the log line's `trace_id` and `span_id`.
    var trace: TraceParent? = nil

    /// The most bytes of a body the excerpt shows.
    static let excerptBytes = 64

    /// `bytes`' first ``excerptBytes`` as printable ASCII, the rest of each byte as `.`, with `…`
    /// when there were more.
    static func excerpt(of bytes: some Collection<UInt8>) -> String {
        var text = String(
            decoding: bytes.prefix(excerptBytes).map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: ".") },
            as: UTF8.self
        )
        if bytes.count > excerptBytes { text += "…" }
        return text
    }
}

/// A renderer's locale cache after a render that changed it: compilations and evictions since the
/// last report, and what it holds now.
struct LocaleCacheReport: Sendable {
    var renderer: Int
    var compilations: UInt64
    var evictions: UInt64
    var bytes: Int
    var bound: Int
}
