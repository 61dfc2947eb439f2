// Requests as the worker's RPC front end takes them (`[routing…][empty][RequestHeader][body]` on
// a ROUTER), replies as clients take them (`[empty][ResponseHeader][body]` on a DEALER: the
// worker asking a source for a replay, `caffe-sim`), and consumer feedback as the acknowledged
// output takes it.
//
// Input: an options byte (bit 0: tight limits), then frames (`FuzzInput.frames`). Checked beyond
// "no crash": a readable request's reply reaches its client with its request id; an unreadable
// one gets an INVALID_ARGUMENT reply whenever it has a routing id, carrying the request id when
// the header where a request has it yields one; replayed events go through intake as the worker
// takes them; decoded messages round-trip.
import CaffeProtocol
import FoundationEssentials
import FuzzSupport
import SwiftProtobuf
import WireFuzzing

let now = Google_Protobuf_Timestamp(seconds: 1_767_225_600, nanos: 0)

/// The request bodies of each method (the worker serves the first four, order sources the last).
let requestBodyTypes: [String: any SwiftProtobuf.Message.Type] = [
    CaffeMethod.renderOrder: Caffe_V1_OrderEvent.self,
    CaffeMethod.renderComplication: Caffe_V1_ComplicationRequest.self,
    CaffeMethod.healthCheck: Grpc_Health_V1_HealthCheckRequest.self,
    CaffeMethod.stats: Caffe_V1_StatsRequest.self,
    CaffeMethod.replayFetch: Caffe_V1_ReplayRequest.self,
]

/// The reply as the client's DEALER receives it: without the routing ids the ROUTERs used.
func delivered(_ reply: [ByteFrame], routing: Int) -> ResponseFrames {
    do {
        return try ResponseFrames(parsing: Array(reply.dropFirst(routing)))
    } catch {
        FuzzDriver.fail("a reply the client cannot read: \(error)")
    }
}

/// Serves `frames` as the RPC front end does.
func serve(_ frames: [ByteFrame], limits: CaffeProtocolLimits) {
    let request: RequestFrames
    do {
        request = try RequestFrames(parsing: frames, limits: limits)
    } catch {
        refuse(frames, error: error)
        return
    }
    WireFuzzing.checkRoundTrip(request.header)
    let arrival = ContinuousClock.now
    _ = request.isExpired(now: now, arrival: arrival, instant: arrival + .seconds(1))
    if let type = requestBodyTypes[request.header.method] {
        WireFuzzing.check { try request.decodeBody(as: type) }
    }
    guard let reply = try? request.reply(status: RPCStatus(code: .notFound, message: "fuzz")) else {
        FuzzDriver.fail("no reply to a readable request")
    }
    let response = delivered(reply, routing: request.routing.count)
    guard response.header.requestID == request.header.requestID, response.status.code == .notFound else {
        FuzzDriver.fail("the reply lost its request id or status")
    }
}

/// Answers an unreadable request as the RPC front end does, and checks the answer.
func refuse(_ frames: [ByteFrame], error: CaffeProtocolError) {
    let status = RPCStatus(code: .invalidArgument, message: "unreadable request: \(error.message)")
    let reply = RequestFrames.errorReply(to: frames, status: status)
    guard let first = frames.first, !first.isEmpty else {
        if reply != nil { FuzzDriver.fail("a reply without a routing id to send it to") }
        return
    }
    guard let reply else { FuzzDriver.fail("no reply to a sender with routing id") }
    let routing = reply.count - 3
    guard routing >= 1, zip(reply.prefix(routing), frames).allSatisfy({ $0.bytes == $1.bytes }) else {
        FuzzDriver.fail("the reply is not routed back to the sender")
    }
    let response = delivered(reply, routing: routing)
    guard response.status.code == .invalidArgument else { FuzzDriver.fail("the refusal is not INVALID_ARGUMENT") }
    // A well-formed envelope whose header yields a request id: the reply carries it.
    if frames.count >= 4, frames[frames.count - 3].isEmpty,
        frames[frames.count - 2].count <= CaffeProtocolLimits.standard.maxHeaderBytes,
        let header = try? Caffe_V1_RequestHeader(serializedBytes: frames[frames.count - 2].bytes),
        response.header.requestID != header.requestID
    {
        FuzzDriver.fail("the refusal lost the request id '\(header.requestID)'")
    }
}

/// Takes `frames` as a client takes a reply; a replay's events go through intake.
func receive(_ frames: [ByteFrame], limits: CaffeProtocolLimits) {
    guard let reply = try? ResponseFrames(parsing: frames, limits: limits) else { return }
    WireFuzzing.checkRoundTrip(reply.header)
    guard reply.status.code == .ok else { return }
    if let replay = try? reply.decodeBody(as: Caffe_V1_ReplayResponse.self) {
        WireFuzzing.checkRoundTrip(replay)
        for event in replay.frames {
            let frames = [ByteFrame(event.topic), ByteFrame(Array(event.header)), ByteFrame(Array(event.body))]
            WireFuzzing.takeEvent(frames, limits: limits)
        }
        for order in replay.events { _ = try? order.validate() }
    }
    if let rendered = try? reply.decodeBody(as: Caffe_V1_RenderOrderResponse.self) {
        WireFuzzing.checkRoundTrip(rendered)
    }
    _ = try? reply.decodeBody(as: Grpc_Health_V1_HealthCheckResponse.self)
    // Gauges are doubles, and NaN is not equal to itself: decoded, not round-tripped.
    _ = try? reply.decodeBody(as: Caffe_V1_StatsResponse.self)
}

FuzzDriver.run { input in
    let (limits, frames) = WireFuzzing.read(input)
    serve(frames, limits: limits)
    receive(frames, limits: limits)
    // Consumer feedback: `[routing id][feedback]`, empty delimiters allowed between.
    if frames.count >= 2, frames.dropFirst().dropLast().allSatisfy(\.isEmpty), let payload = frames.last,
        let feedback = try? Caffe_V1_ConsumerFeedback(serializedBytes: payload.bytes)
    {
        WireFuzzing.checkRoundTrip(feedback)
    }
}
