import CaffeCore
import CaffeProtocol
import Foundation
import SwiftProtobuf

/// Order events encoded before a run, so sending one costs a copy and two patches, not a
/// protobuf encoding: a ring of pre-encoded orders (``templateCount`` distinct ones from
/// ``OrderGenerator``) whose identity fields — `order_id`, `source_id`, `sequence`, in the body
/// and in the header — are written in place for each message.
///
/// The identity fields come first and have a fixed width: the sequence as a 10-byte varint (a
/// padded varint, valid protobuf that every decoder reads) and the order id as the source id, a
/// dash and 12 digits. A message is therefore a pure function of its sequence, which is also how
/// ``frames(sequence:into:)`` answers replay requests without keeping anything that was sent.
public struct EncodedOrders: Sendable {
    /// One pre-encoded order: what is not per message.
    struct Template: Sendable {
        var topic: [UInt8]
        /// The body's fields after the identity ones.
        var bodyRest: [UInt8]
        var locale: String
        /// Index into ``EncodedOrders/locales``.
        var localeIndex: Int
    }

    public let sourceID: String
    let templates: [Template]
    /// The distinct locales, in order of first appearance.
    public let locales: [String]
    /// `body_type` and `source_id`, the header's start.
    private let headerPrefix: [UInt8]
    /// The header's `replay_endpoint` metadata entry, when there is one.
    private let headerSuffix: [UInt8]
    private let sourceField: [UInt8]

    /// Distinct orders in the ring.
    public static let templateCount = 1024

    public init(
        menu: Menu,
        seed: UInt64,
        sourceID: String,
        markets: [(market: Market, weight: Int)],
        replayEndpoint: String?
    ) throws {
        self.sourceID = sourceID
        var generator = try OrderGenerator(
            menu: menu,
            configuration: .init(seed: seed, sourceID: sourceID, markets: markets)
        )
        var templates: [Template] = []
        var locales: [String] = []
        for _ in 0..<Self.templateCount {
            var order = generator.next()
            let locale = order.customer.locale
            let topic = Array(CaffeTopic.order(store: order.storeID).utf8)
            order.orderID = ""
            order.sourceID = ""
            order.sequence = 0
            let localeIndex = locales.firstIndex(of: locale) ?? locales.count
            if localeIndex == locales.count { locales.append(locale) }
            templates.append(
                Template(
                    topic: topic,
                    bodyRest: try order.serializedBytes(),
                    locale: locale,
                    localeIndex: localeIndex
                )
            )
        }
        self.templates = templates
        self.locales = locales
        var prefix: [UInt8] = []
        Self.appendString(1, Caffe_V1_OrderEvent.protoMessageName, to: &prefix)
        Self.appendString(2, sourceID, to: &prefix)
        headerPrefix = prefix
        var suffix: [UInt8] = []
        if let replayEndpoint {
            var entry: [UInt8] = []
            Self.appendString(1, "replay_endpoint", to: &entry)
            Self.appendString(2, replayEndpoint, to: &entry)
            Self.appendTag(6, wireType: 2, to: &suffix)
            Self.appendVarint(UInt64(entry.count), to: &suffix)
            suffix += entry
        }
        headerSuffix = suffix
        var source: [UInt8] = []
        Self.appendString(2, sourceID, to: &source)
        sourceField = source
    }

    /// The template of message `sequence` (from 1).
    func template(_ sequence: UInt64) -> Template {
        templates[Int((sequence - 1) % UInt64(templates.count))]
    }

    /// The locale of message `sequence`.
    public func locale(of sequence: UInt64) -> String { template(sequence).locale }

    /// Index of message `sequence`'s locale in ``locales``.
    public func localeIndex(of sequence: UInt64) -> Int { template(sequence).localeIndex }

    /// The order id of message `sequence`: the source id, a dash, 12 digits.
    public func orderID(_ sequence: UInt64) -> String {
        var digits = String(sequence)
        if digits.count < 12 { digits = String(repeating: "0", count: 12 - digits.count) + digits }
        return sourceID + "-" + digits
    }

    /// Writes message `sequence`'s three frames into reusable buffers (cleared first).
    public func frames(
        sequence: UInt64,
        topic: inout [UInt8],
        header: inout [UInt8],
        body: inout [UInt8]
    ) {
        let template = template(sequence)
        topic.removeAll(keepingCapacity: true)
        topic += template.topic
        header.removeAll(keepingCapacity: true)
        header += headerPrefix
        appendIdentity(sequence, orderIDField: 4, to: &header)
        header += headerSuffix
        body.removeAll(keepingCapacity: true)
        appendOrderID(sequence, field: 1, to: &body)
        body += sourceField
        Self.appendTag(3, wireType: 0, to: &body)
        Self.appendPaddedVarint(sequence, to: &body)
        body += template.bodyRest
    }

    /// Message `sequence` as a replayed event (for a replay reply).
    public func replayed(sequence: UInt64) -> Caffe_V1_ReplayedEvent {
        var topic: [UInt8] = []
        var header: [UInt8] = []
        var body: [UInt8] = []
        frames(sequence: sequence, topic: &topic, header: &header, body: &body)
        var event = Caffe_V1_ReplayedEvent()
        event.topic = String(decoding: topic, as: UTF8.self)
        event.header = Data(header)
        event.body = Data(body)
        return event
    }

    // MARK: Encoding

    /// `sequence` (field 3) then the order id (field `orderIDField`).
    private func appendIdentity(_ sequence: UInt64, orderIDField: Int, to bytes: inout [UInt8]) {
        Self.appendTag(3, wireType: 0, to: &bytes)
        Self.appendPaddedVarint(sequence, to: &bytes)
        appendOrderID(sequence, field: orderIDField, to: &bytes)
    }

    private func appendOrderID(_ sequence: UInt64, field: Int, to bytes: inout [UInt8]) {
        let length = sourceID.utf8.count + 13
        Self.appendTag(field, wireType: 2, to: &bytes)
        Self.appendVarint(UInt64(length), to: &bytes)
        bytes += sourceID.utf8
        bytes.append(UInt8(ascii: "-"))
        var divisor: UInt64 = 100_000_000_000
        var rest = sequence % 1_000_000_000_000
        for _ in 0..<12 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    static func appendTag(_ field: Int, wireType: UInt8, to bytes: inout [UInt8]) {
        appendVarint(UInt64(field) << 3 | UInt64(wireType), to: &bytes)
    }

    static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// A varint always 10 bytes long (continuation bits on every byte but the last).
    static func appendPaddedVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        for _ in 0..<9 {
            bytes.append(UInt8(truncatingIfNeeded: value & 0x7f) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: value & 0x01))
    }

    static func appendString(_ field: Int, _ text: String, to bytes: inout [UInt8]) {
        appendTag(field, wireType: 2, to: &bytes)
        appendVarint(UInt64(text.utf8.count), to: &bytes)
        bytes += text.utf8
    }
}
