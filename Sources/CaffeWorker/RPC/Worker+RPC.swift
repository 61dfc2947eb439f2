import CaffeProtocol
import Foundation
import Logging
import SwiftProtobuf
import Synchronization
import ZeroMQ

/// The RPC thread's sockets: the ROUTER clients talk to, the pipe render requests go out on, and
/// the pipe replies come back on.
struct RPCSockets {
    let frontend: ZMQSocket
    let work: ZMQSocket
    let done: ZMQSocket
}

extension Worker {
    func openRPC() throws(ZMQError) -> RPCSockets {
        let done = try context.socket(.pull)
        _ = try done.bind(rpcDonePipe)
        let work = try context.socket(.push)
        try work.set(.sendHighWaterMark, to: Int32(configuration.rpc.queue))
        _ = try work.bind(rpcWorkPipe)
        let frontend = try context.socket(.router)
        try frontend.set(.maxMessageSize, to: Int64(configuration.input.maxMessageBytes))
        try frontend.set(.routerMandatory, to: true)
        if let endpoint = configuration.rpc.endpoint { try attach(frontend, [endpoint], role: "rpc") }
        return RPCSockets(frontend: frontend, work: work, done: done)
    }

    /// The RPC thread: answers `grpc.health.v1.Health/Check` and `caffe.v1.Admin/Stats` itself,
    /// passes render requests to the render threads (RESOURCE_EXHAUSTED when their queue is full,
    /// UNAVAILABLE once draining, DEADLINE_EXCEEDED when already expired), and sends replies back
    /// as they come, in whatever order they finish. Ends once the render threads have.
    func serveRPC(_ sockets: RPCSockets) {
        var poller = ZMQPoller()
        let frontendItem = poller.register(sockets.frontend, for: .readable)
        let doneItem = poller.register(sockets.done, for: .readable)
        let limits = limits
        while true {
            if !running.load(ordering: .relaxed), !rpcIntakeFinished.load(ordering: .relaxed) {
                // From here on render requests are answered UNAVAILABLE, so nothing new reaches the render threads.
                rpcIntakeFinished.store(true, ordering: .sequentiallyConsistent)
            }
            if rpcIntakeFinished.load(ordering: .relaxed), renderersRunning.load(ordering: .sequentiallyConsistent) == 0
            {
                break
            }
            guard (try? poller.poll(timeout: .milliseconds(50))) != nil else { break }
            if poller.isReadable(doneItem) {
                while let reply = try? sockets.done.tryReceiveMultipart() {
                    forward(reply, on: sockets.frontend)
                }
            }
            if poller.isReadable(frontendItem) {
                for _ in 0..<256 {
                    guard let frames = try? sockets.frontend.tryReceiveMultipart() else { break }
                    handle(frames, sockets: sockets, limits: limits)
                }
            }
        }
        while let reply = try? sockets.done.tryReceiveMultipart() { forward(reply, on: sockets.frontend) }
        sockets.work.close(linger: .milliseconds(0))
        sockets.done.close(linger: .milliseconds(0))
        sockets.frontend.close(linger: .seconds(1))
    }

    private func handle(_ frames: [ZMQMessage], sockets: RPCSockets, limits: CaffeProtocolLimits) {
        let request: RequestFrames
        do {
            request = try RequestFrames(parsing: frames, limits: limits)
        } catch {
            // Without a readable header there is no request id to answer to.
            metrics.rpcRequest(method: "", code: Caffe_V1_StatusCode.invalidArgument.grpcName)
            logger.warning("unreadable request", metadata: ["error": "\(error)"])
            return
        }
        let method = request.header.method
        func answer(_ status: RPCStatus, _ body: (any SwiftProtobuf.Message)? = nil) {
            metrics.rpcRequest(method: method, code: status.code.grpcName)
            let reply: [ZMQMessage]?
            if let body {
                reply = try? request.reply(status: status, body: body)
            } else {
                reply = try? request.reply(status: status)
            }
            if let reply { forward(reply, on: sockets.frontend) }
        }
        if request.isExpired(at: Google_Protobuf_Timestamp(date: Date())) {
            return answer(RPCStatus(code: .deadlineExceeded, message: "the deadline had passed on arrival"))
        }
        switch method {
        case CaffeMethod.healthCheck:
            let service = (try? request.decodeBody(as: Caffe_V1_HealthCheckRequest.self))?.service ?? ""
            guard ["", "caffe.v1.Renderer", "caffe.v1.Admin"].contains(service) else {
                return answer(RPCStatus(code: .notFound, message: "unknown service '\(service)'"))
            }
            var response = Caffe_V1_HealthCheckResponse()
            response.status = isServing ? .serving : .notServing
            answer(.ok, response)
        case CaffeMethod.stats:
            refreshGauges()
            var response = Caffe_V1_StatsResponse()
            response.counters = metrics.snapshot
            response.gauges = metrics.gauges.merging(
                [
                    "gaps_pending": Double(pendingGaps.load(ordering: .relaxed)),
                    "render_threads": Double(configuration.renderThreadCount),
                    "serving": isServing ? 1 : 0,
                ]
            ) { $1 }
            answer(.ok, response)
        case CaffeMethod.renderOrder, CaffeMethod.renderComplication:
            guard !rpcIntakeFinished.load(ordering: .relaxed) else {
                return answer(RPCStatus(code: .unavailable, message: "the worker is draining; try another"))
            }
            metrics.rpcQueue.add(1, ordering: .relaxed)
            let queued = (try? sockets.work.send(multipart: frames, timeout: .zero)) ?? false
            if !queued {
                metrics.rpcQueue.add(-1, ordering: .relaxed)
                answer(
                    RPCStatus(code: .resourceExhausted, message: "\(configuration.rpc.queue) requests already queued")
                )
            }
        default:
            answer(RPCStatus(code: .unimplemented, message: "method '\(method)' is not served here"))
        }
    }

    /// Sends a reply to its client; one that has gone away is logged, not fatal.
    private func forward(_ reply: [ZMQMessage], on frontend: ZMQSocket) {
        do {
            if try !frontend.send(multipart: reply, timeout: .milliseconds(100)) {
                logger.warning("reply dropped: the client is not reading")
            }
        } catch {
            logger.info("reply not delivered: the client is gone", metadata: ["error": "\(error)"])
        }
    }
}
