// Writes the seed corpora of the wire fuzzers, `Seeds/fuzz-events` and `Seeds/fuzz-requests`:
// the messages of the test fixtures (`config/examples/order.json` and the values of
// `Tests/CaffeProtocolTests/Fixtures.swift`) in the layout `FuzzInput.frames` reads.
//
//     make fuzz-seeds    # then review and commit the changed files
import CaffeProtocol
import Foundation
import FuzzSupport
import SwiftProtobuf
import WireFuzzing

/// The repository, from this file's place in it.
let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let seeds = repository.appendingPathComponent("Fuzz/Seeds")

/// The binary encoding of `message`.
func wire(_ message: some SwiftProtobuf.Message) throws -> [UInt8] { try message.serializedBytes() }

/// Writes one seed: `options` (bit 0: tight limits) and `frames`.
func write(_ fuzzer: String, _ name: String, options: UInt8 = 0, _ frames: [[UInt8]]) throws {
    let folder = seeds.appendingPathComponent(fuzzer)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(FuzzInput.encode(options: options, frames: frames)).write(to: folder.appendingPathComponent(name))
}

// MARK: Fixtures

let json = try String(contentsOf: repository.appendingPathComponent("config/examples/order.json"), encoding: .utf8)
let order = try Caffe_V1_OrderEvent(jsonString: json)

// The complication request and dead letter of Tests/CaffeProtocolTests/Fixtures.swift (a test
// target, so not importable here), in the protobuf JSON mapping.
let complication = try Caffe_V1_ComplicationRequest(
    jsonString: """
        {"requestId": "cx-9", "userId": "user-3", "locale": "ar-EG", "timeZone": "Africa/Cairo",
         "hourCycle": "h12", "nextFreeCoffee": "2026-01-01T20:40:00.000000250Z",
         "families": ["COMPLICATION_FAMILY_MODULAR_SMALL", "COMPLICATION_FAMILY_GRAPHIC_RECTANGULAR",
                      "COMPLICATION_FAMILY_CIRCULAR_SMALL"]}
        """
)
let deadLetter = try Caffe_V1_DeadLetter(
    jsonString: """
        {"reason": "DEAD_LETTER_REASON_UNRECOVERABLE_GAP",
         "detail": "OrderEvent.currency_code must be an ISO 4217 code such as USD, got 'usd'",
         "topic": "order.sf-1", "originalHeader": "ChNjYWZmZS52MS5PcmRlckV2ZW50",
         "originalBody": "AP+Af8MoAAE=", "ref": {"sourceId": "pos-sf-1", "sequence": "18", "orderId": "ord-0002"},
         "gapFrom": "19", "gapTo": "23"}
        """
)
var heartbeat = Caffe_V1_Heartbeat()
heartbeat.lastSequence = 7

let routingA: [UInt8] = [0x00, 0x6B, 0x8B, 0x45, 0x67]
let routingB: [UInt8] = [0x00, 0x80, 0x00, 0x00, 0x2A]

/// An event header for `body`, with `order`'s identity.
func eventHeader(_ body: some SwiftProtobuf.Message, sequence: UInt64 = 7) -> Caffe_V1_EventHeader {
    var header = EventFrames.header(for: order, sentAt: Google_Protobuf_Timestamp(seconds: 1_767_225_602, nanos: 7))
    header.bodyType = type(of: body).protoMessageName
    header.sequence = sequence
    header.metadata["replay_endpoint"] = "tcp://127.0.0.1:5563"
    return header
}

/// The frames of an event carrying `body`.
func event(_ topic: String, _ body: some SwiftProtobuf.Message, sequence: UInt64 = 7) throws -> [[UInt8]] {
    [Array(topic.utf8), try wire(eventHeader(body, sequence: sequence)), try wire(body)]
}

/// A request header.
func requestHeader(_ method: String, id: String = "req-1") -> Caffe_V1_RequestHeader {
    var header = Caffe_V1_RequestHeader()
    header.method = method
    header.requestID = id
    return header
}

// MARK: Events

let orderEvent = try event(CaffeTopic.order(store: order.storeID), order)
try write("fuzz-events", "order", orderEvent)
try write("fuzz-events", "order-tight-limits", options: 1, orderEvent)
try write("fuzz-events", "complication", try event(CaffeTopic.complicationRequest(user: "user-3"), complication))
try write("fuzz-events", "heartbeat", try event(CaffeTopic.order(store: order.storeID), heartbeat, sequence: 0))
try write("fuzz-events", "dead-letter", try event(CaffeTopic.deadLetter, deadLetter))
var tag = Caffe_V1_DeliveryTag()
tag.incarnation = 0x5EED_CAFE
tag.tag = 3
try write("fuzz-events", "delivery", [try wire(tag)] + orderEvent)
try write("fuzz-events", "header-only", Array(orderEvent.prefix(2)))

// MARK: Bodies rendered both ways

try write("fuzz-render", "order", [try wire(order)])
try write("fuzz-render", "order-tight-limits", options: 1, [try wire(order)])
try write("fuzz-render", "complication", options: 2, [try wire(complication)])
for locale in ["en-US", "es-ES", "ja-JP", "ar-EG", "de-DE", "hi-IN", "not a locale", ""] {
    var localized = order
    localized.customer.locale = locale
    try write(
        "fuzz-render",
        "order-\(locale.isEmpty ? "no-locale" : locale.replacingOccurrences(of: " ", with: "-"))",
        [try wire(localized)]
    )
}

// MARK: Requests

let renderOrder = [routingA, [], try wire(requestHeader(CaffeMethod.renderOrder)), try wire(order)]
try write("fuzz-requests", "render-order", renderOrder)
try write("fuzz-requests", "render-order-tight-limits", options: 1, renderOrder)
var health = requestHeader(CaffeMethod.healthCheck, id: "health-1")
health.deadline = Google_Protobuf_Timestamp(seconds: 1_767_225_700, nanos: 0)
health.timeout = Google_Protobuf_Duration(seconds: 2, nanos: 500_000_000)
health.metadata["client"] = "caffe-sim"
var healthRequest = Grpc_Health_V1_HealthCheckRequest()
healthRequest.service = "caffe.v1.Renderer"
try write("fuzz-requests", "health-two-hops", [routingA, routingB, [], try wire(health), try wire(healthRequest)])
try write("fuzz-requests", "stats", [routingA, [], try wire(requestHeader(CaffeMethod.stats)), []])
try write(
    "fuzz-requests",
    "render-complication",
    [routingB, [], try wire(requestHeader(CaffeMethod.renderComplication, id: "cx-9")), try wire(complication)]
)
var replayRequest = Caffe_V1_ReplayRequest()
replayRequest.sourceID = "pos-1"
replayRequest.fromSequence = 4
replayRequest.toSequence = 9
try write(
    "fuzz-requests",
    "replay-fetch",
    [routingA, [], try wire(requestHeader(CaffeMethod.replayFetch, id: "replay-1")), try wire(replayRequest)]
)
// Unreadable requests the worker must still answer: no delimiter, no method, no body.
try write("fuzz-requests", "no-delimiter", [routingA, try wire(requestHeader(CaffeMethod.stats)), []])
var noMethod = Caffe_V1_RequestHeader()
noMethod.requestID = "req-2"
try write("fuzz-requests", "no-method", [routingA, [], try wire(noMethod), []])
try write("fuzz-requests", "no-body", [routingA, [], try wire(requestHeader(CaffeMethod.stats, id: "req-3"))])

// MARK: Replies and feedback

var ok = Caffe_V1_ResponseHeader()
ok.requestID = "replay-1"
ok.status = .ok
var replay = Caffe_V1_ReplayResponse()
replay.events = [order]
replay.unavailable = [5, 6]
var replayed = Caffe_V1_ReplayedEvent()
replayed.topic = CaffeTopic.order(store: order.storeID)
replayed.header = Data(try wire(eventHeader(order, sequence: 8)))
replayed.body = Data(try wire(order))
replay.frames = [replayed]
try write("fuzz-requests", "replay-reply", [[], try wire(ok), try wire(replay)])
var healthReply = ok
healthReply.requestID = "health-1"
var serving = Grpc_Health_V1_HealthCheckResponse()
serving.status = .serving
try write("fuzz-requests", "health-reply", [[], try wire(healthReply), try wire(serving)])
var refused = Caffe_V1_ResponseHeader()
refused.requestID = "req-2"
refused.status = .invalidArgument
refused.message = "unreadable request: RequestHeader.method is missing"
try write("fuzz-requests", "refusal", [[], try wire(refused), []])
var feedback = Caffe_V1_ConsumerFeedback()
feedback.incarnation = 0x5EED_CAFE
feedback.acknowledgedThrough = 3
feedback.window = 64
try write("fuzz-requests", "consumer-feedback", [routingA, try wire(feedback)])

print("wrote the wire seeds to \(seeds.path)")
