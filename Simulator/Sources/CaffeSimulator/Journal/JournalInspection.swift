import CaffeProtocol
import Foundation
import SwiftProtobuf

/// What `caffe-sim journal cat|stats|export` print.
public enum JournalInspection {
    /// One line per record: offset, capture time, topic, source#sequence, order id, locale, lines.
    public static func line(_ entry: Journal.Entry) -> String {
        let record = entry.record
        let time = record.capturedAt.date.formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true)
        )
        var text = "\(entry.offset)\t\(time)\t\(record.topic)"
        guard let header = try? record.eventHeader() else { return text + "\t(unreadable header)" }
        text += "\t\(header.sourceID)#\(header.sequence)"
        if header.bodyType == Caffe_V1_OrderEvent.protoMessageName,
            let order = try? Caffe_V1_OrderEvent(serializedBytes: record.body)
        {
            let lines = order.lines.map { "\($0.quantity)×\($0.itemID)/\($0.size)" }.joined(separator: ",")
            text += "\t\(order.orderID)\t\(order.customer.locale)\t\(lines)"
        } else {
            text += "\t\(header.bodyType)"
        }
        return text
    }

    /// Counts and spans of a journal.
    public struct Stats: Codable, Sendable {
        public var formatVersion: UInt32
        public var origin: String
        public var createdAt: String
        public var menuFingerprint: String
        public var catalogFingerprint: String
        public var records: Int
        public var firstCapture: String?
        public var lastCapture: String?
        public var spanSeconds: Double
        public var ordersPerSecond: Double
        public var topics: [String: Int]
        public var locales: [String: Int]
        /// Per source: first and last sequence and how many are missing in between.
        public var sources: [String: SourceStats]
        public var error: String?

        public struct SourceStats: Codable, Sendable {
            public var first: UInt64
            public var last: UInt64
            public var records: Int
            public var missing: UInt64
        }

        enum CodingKeys: String, CodingKey {
            case formatVersion = "format_version"
            case origin
            case createdAt = "created_at"
            case menuFingerprint = "menu_fingerprint"
            case catalogFingerprint = "catalog_fingerprint"
            case records
            case firstCapture = "first_capture"
            case lastCapture = "last_capture"
            case spanSeconds = "span_s"
            case ordersPerSecond = "orders_per_s"
            case topics, locales, sources, error
        }
    }

    public static func stats(_ contents: Journal.Contents) -> Stats {
        let times = contents.entries.map(\.record.capturedAt.date)
        let span = times.last.map { last in times.first.map { last.timeIntervalSince($0) } ?? 0 } ?? 0
        var topics: [String: Int] = [:]
        var locales: [String: Int] = [:]
        var sequences: [String: Set<UInt64>] = [:]
        var orders = 0
        for entry in contents.entries {
            topics[entry.record.topic.split(separator: ".").first.map(String.init) ?? "", default: 0] += 1
            if let header = try? entry.record.eventHeader() {
                sequences[header.sourceID, default: []].insert(header.sequence)
            }
            if let order = try? Caffe_V1_OrderEvent(serializedBytes: entry.record.body),
                entry.record.topic.hasPrefix("order.")
            {
                orders += 1
                locales[order.customer.locale, default: 0] += 1
            }
        }
        let iso = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return Stats(
            formatVersion: contents.header.formatVersion,
            origin: contents.header.origin,
            createdAt: contents.header.createdAt.date.formatted(iso),
            menuFingerprint: contents.header.menuFingerprint,
            catalogFingerprint: contents.header.catalogFingerprint,
            records: contents.entries.count,
            firstCapture: times.first?.formatted(iso),
            lastCapture: times.last?.formatted(iso),
            spanSeconds: span,
            ordersPerSecond: span > 0 ? Double(orders) / span : 0,
            topics: topics,
            locales: locales,
            sources: sequences.mapValues { seen in
                let first = seen.min() ?? 0
                let last = seen.max() ?? 0
                return Stats.SourceStats(
                    first: first,
                    last: last,
                    records: seen.count,
                    missing: last - first + 1 - UInt64(seen.count)
                )
            },
            error: contents.error?.description
        )
    }

    /// The record as one JSON line: offset, capture time, topic, and the header and body in the
    /// protobuf JSON mapping.
    public static func jsonLine(_ entry: Journal.Entry) throws -> String {
        let record = entry.record
        let header = try record.eventHeader()
        let body: String
        switch header.bodyType {
        case Caffe_V1_OrderEvent.protoMessageName:
            body = try Caffe_V1_OrderEvent(serializedBytes: record.body).jsonString()
        case Caffe_V1_ComplicationRequest.protoMessageName:
            body = try Caffe_V1_ComplicationRequest(serializedBytes: record.body).jsonString()
        default:
            body = "\"" + record.body.base64EncodedString() + "\""
        }
        let captured = try record.capturedAt.jsonString()
        let topic = try JSONSerialization.data(withJSONObject: [record.topic], options: [.withoutEscapingSlashes])
        let topicText = String(decoding: topic.dropFirst().dropLast(), as: UTF8.self)
        return
            "{\"offset\":\(entry.offset),\"captured_at\":\(captured),\"topic\":\(topicText),\"header\":\(try header.jsonString()),\"body\":\(body)}"
    }
}
