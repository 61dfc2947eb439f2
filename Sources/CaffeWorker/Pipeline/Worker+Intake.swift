import CaffeProtocol
import Foundation
import Logging
import SwiftProtobuf
import Synchronization
import ZeroMQ

/// The `EventHeader` metadata key in which a source announces its replay endpoint
/// (`tcp://10.0.0.5:5563`), so a worker can ask it for a gap without configuration.
public let replayEndpointMetadataKey = "replay_endpoint"

extension Worker {
    /// The intake thread: reads events, drops duplicates, hands new events to the render threads,
    /// and recovers gaps by asking each source's replay endpoint (`caffe.v1.Replay/Fetch`) over a
    /// DEALER, retrying with backoff; what a source cannot provide becomes an unrecoverable-gap
    /// dead letter and is counted, logged and checkpointed past.
    func intake(from input: ZMQSocket, to render: ZMQSocket, deadLetters: ZMQSocket) {
        var intake = Intake(worker: self, input: input, render: render, deadLetters: deadLetters)
        intake.run()
        input.close(linger: .milliseconds(0))
        intake.closeReplaySockets()
        render.close(linger: .infinite)
        deadLetters.close(linger: .infinite)
        intakeFinished.store(true, ordering: .sequentiallyConsistent)
    }
}

/// The intake thread's state; owned by that thread.
struct Intake {
    let worker: Worker
    let input: ZMQSocket
    let render: ZMQSocket
    let deadLetters: ZMQSocket
    var tracker: IntakeTracker
    var recovery: GapRecovery
    /// Replay endpoints announced in event metadata, by source.
    var announced: [String: String] = [:]
    /// One DEALER per replay endpoint, made when first needed.
    var replaySockets: [String: ZMQSocket] = [:]
    /// Which gap each request id asked for, so a reply can be checked against it.
    var asked: [String: GapRecovery.Request] = [:]
    var poller = ZMQPoller()
    var pollerSockets = 0

    init(worker: Worker, input: ZMQSocket, render: ZMQSocket, deadLetters: ZMQSocket) {
        self.worker = worker
        self.input = input
        self.render = render
        self.deadLetters = deadLetters
        tracker = IntakeTracker(resumingFrom: worker.resumed.sources)
        let replay = worker.configuration.replay
        recovery = GapRecovery(
            policy: GapRecovery.Policy(
                timeout: .milliseconds(replay.timeoutMilliseconds),
                attempts: replay.attempts,
                backoff: .milliseconds(replay.backoffMilliseconds),
                batch: UInt64(replay.batch)
            )
        )
    }

    var logger: Logger { worker.logger }
    var metrics: WorkerMetrics { worker.metrics }

    mutating func run() {
        let limits = worker.limits
        while worker.running.load(ordering: .relaxed) {
            var busy = false
            // Live events first, a bounded batch so replies and retries are not starved.
            for _ in 0..<256 {
                let frames: [ZMQMessage]
                do {
                    guard let received = try input.tryReceiveMultipart() else { break }
                    frames = received
                } catch {
                    logger.error("input receive failed", metadata: ["error": "\(error)"])
                    return
                }
                busy = true
                metrics.received.add()
                admit(frames, limits: limits)
            }
            for (endpoint, socket) in replaySockets {
                while let reply = try? socket.tryReceiveMultipart() {
                    busy = true
                    handleReply(reply, from: endpoint, limits: limits)
                }
            }
            requestDueGaps()
            worker.pendingGaps.store(recovery.pending, ordering: .relaxed)
            if !busy { waitForInput() }
        }
    }

    /// Tracks one received event and hands it to a render thread, unless it is a duplicate or unreadable.
    mutating func admit(_ frames: [ZMQMessage], limits: CaffeProtocolLimits) {
        let event: EventFrames
        do {
            event = try EventFrames(parsing: frames, limits: limits)
        } catch {
            // Unreadable before rendering: no sequence to track, so it is dead-lettered here.
            metrics.deadLetter(reason: "malformed")
            let letter = EventRendering.deadLetter(.malformed, "\(error)", frames: frames, ref: nil)
            worker.send([ZMQMessage()] + letter, on: deadLetters, what: "dead letter")
            return
        }
        let header = event.header
        guard header.sequence <= IntakeTracker.maxSequence else {
            metrics.deadLetter(reason: "invalid")
            let detail = "sequence \(header.sequence) is beyond the highest accepted, \(IntakeTracker.maxSequence)"
            worker.send(
                [ZMQMessage()] + EventRendering.deadLetter(.invalid, detail, frames: frames, ref: nil),
                on: deadLetters,
                what: "dead letter"
            )
            return
        }
        if let endpoint = header.metadata[replayEndpointMetadataKey], !endpoint.isEmpty,
            announced[header.sourceID] != endpoint
        {
            let previous = announced.updateValue(endpoint, forKey: header.sourceID)
            if let previous { retire(previous) }
        }
        let verdict = tracker.observe(source: header.sourceID, sequence: header.sequence, orderID: header.orderID)
        for range in verdict.missing {
            metrics.gaps.add()
            metrics.missingSequences.add(range.upperBound - range.lowerBound + 1)
            logger.warning(
                "sequence gap",
                metadata: ["source": "\(header.sourceID)", "from": "\(range.lowerBound)", "to": "\(range.upperBound)"]
            )
            recovery.report(source: header.sourceID, range: range, at: .now)
        }
        if verdict.isDuplicate {
            metrics.duplicates.add()
            if verdict.isNewSequence {
                // A retry under a new sequence: nothing to render, but the sequence is done.
                let mark = CompletionMark(source: header.sourceID, range: header.sequence...header.sequence)
                worker.send([mark.frame], on: deadLetters, what: "completion mark")
            }
            return
        }
        worker.metrics.renderQueue.add(1, ordering: .relaxed)
        worker.send(frames, on: render, what: "render hand-off")
    }

    /// The replay endpoint for `source`: configured, else announced.
    func replayEndpoint(for source: String) -> String? {
        worker.configuration.replay.endpoints[source] ?? announced[source]
    }

    /// Sends the requests that are due and gives up on the ranges that ran out of attempts.
    mutating func requestDueGaps() {
        guard let next = recovery.nextDue, next <= .now else { return }
        let tracker = tracker
        let announced = announced
        let configured = worker.configuration.replay.endpoints
        let (requests, abandoned) = recovery.due(
            at: .now,
            stillMissing: { tracker.missing(source: $0, in: $1) },
            hasEndpoint: { configured[$0] != nil || announced[$0] != nil }
        )
        for gap in abandoned { giveUp(gap) }
        for request in requests {
            guard let endpoint = replayEndpoint(for: request.source), let socket = replaySocket(endpoint) else {
                continue
            }
            var header = Caffe_V1_RequestHeader()
            header.method = CaffeMethod.replayFetch
            header.requestID = request.id
            header.deadline = Google_Protobuf_Timestamp(
                date: Date().addingTimeInterval(Double(worker.configuration.replay.timeoutMilliseconds) / 1000)
            )
            var body = Caffe_V1_ReplayRequest()
            body.sourceID = request.source
            body.fromSequence = request.range.lowerBound
            body.toSequence = request.range.upperBound
            do {
                let frames = try RequestFrames.encode(header: header, body: body)
                guard try socket.send(multipart: frames, timeout: .milliseconds(0)) else {
                    logger.warning("replay request not sent: endpoint busy", metadata: ["endpoint": "\(endpoint)"])
                    continue
                }
            } catch {
                logger.error("replay request failed", metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
                continue
            }
            asked[request.id] = request
            metrics.replayRequests.add()
            logger.info(
                "replay requested",
                metadata: [
                    "source": "\(request.source)", "from": "\(request.range.lowerBound)",
                    "to": "\(request.range.upperBound)", "attempt": "\(request.attempt)", "endpoint": "\(endpoint)",
                ]
            )
        }
    }

    /// Takes a source's reply: its events go through the same duplicate check as live ones; the
    /// sequences it names as unavailable are given up.
    mutating func handleReply(_ frames: [ZMQMessage], from endpoint: String, limits: CaffeProtocolLimits) {
        let reply: ResponseFrames
        let response: Caffe_V1_ReplayResponse
        do {
            reply = try ResponseFrames(parsing: frames, limits: limits)
            guard reply.status.code == .ok else {
                logger.warning(
                    "replay refused",
                    metadata: [
                        "endpoint": "\(endpoint)", "status": "\(reply.status)", "request": "\(reply.header.requestID)",
                    ]
                )
                asked[reply.header.requestID] = nil
                recovery.answered(id: reply.header.requestID, served: false, unavailable: [], at: .now)
                return
            }
            response = try reply.decodeBody(as: Caffe_V1_ReplayResponse.self)
        } catch {
            logger.warning("unreadable replay reply", metadata: ["endpoint": "\(endpoint)", "error": "\(error)"])
            return
        }
        guard let request = asked.removeValue(forKey: reply.header.requestID) else { return }
        let missingBefore = Self.count(tracker.missing(source: request.source, in: request.range))
        var replayed = 0
        for order in response.events {
            guard order.sourceID == request.source, request.range.contains(order.sequence) else {
                logger.warning(
                    "replay sent an event outside the request",
                    metadata: ["source": "\(order.sourceID)", "sequence": "\(order.sequence)"]
                )
                continue
            }
            var header = EventFrames.header(for: order)
            header.metadata["replayed"] = "true"
            guard
                let frames = try? EventFrames.encode(
                    topic: CaffeTopic.order(store: order.storeID),
                    header: header,
                    body: order
                )
            else { continue }
            replayed += 1
            metrics.replayedEvents.add()
            admit(frames, limits: limits)
        }
        // Only sequences that are no longer missing count as progress: a reply whose events
        // could not be taken in again (or that sent nothing asked for) counts as unanswered.
        let missingAfter = Self.count(tracker.missing(source: request.source, in: request.range))
        let progress =
            missingAfter < missingBefore || response.unavailable.contains { request.range.contains($0) }
        let (_, abandoned) = recovery.answered(
            id: request.id,
            served: progress,
            unavailable: response.unavailable,
            at: .now
        )
        for gap in abandoned { giveUp(gap) }
        logger.info(
            "replay received",
            metadata: [
                "source": "\(request.source)", "events": "\(replayed)", "unavailable": "\(response.unavailable.count)",
            ]
        )
    }

    /// How many sequences `ranges` hold.
    static func count(_ ranges: [ClosedRange<UInt64>]) -> UInt64 {
        ranges.reduce(0) { $0 + ($1.upperBound - $1.lowerBound + 1) }
    }

    /// Closes the DEALER of a replay endpoint no source announces any more (sources that
    /// restart on a new port would otherwise leave one reconnecting socket each).
    mutating func retire(_ endpoint: String) {
        guard !announced.values.contains(endpoint), !worker.configuration.replay.endpoints.values.contains(endpoint),
            let socket = replaySockets.removeValue(forKey: endpoint)
        else { return }
        socket.close(linger: .milliseconds(0))
        pollerSockets = -1
    }

    /// Reports `gap` loudly (metric, error log, dead letter) and moves past it.
    mutating func giveUp(_ gap: GapRecovery.Abandoned) {
        if !gap.id.isEmpty { asked[gap.id] = nil }
        let count = gap.range.upperBound - gap.range.lowerBound + 1
        tracker.abandon(source: gap.source, gap.range)
        metrics.unrecoverableGaps.add()
        metrics.unrecoverableSequences.add(count)
        metrics.deadLetter(reason: "unrecoverable_gap")
        logger.error(
            "unrecoverable gap",
            metadata: [
                "source": "\(gap.source)", "from": "\(gap.range.lowerBound)", "to": "\(gap.range.upperBound)",
                "reason": "\(gap.reason)",
            ]
        )
        var letter = Caffe_V1_DeadLetter()
        letter.reason = .unrecoverableGap
        letter.detail =
            "sequences \(gap.range.lowerBound)...\(gap.range.upperBound) of '\(gap.source)' are lost: \(gap.reason)"
        letter.ref.sourceID = gap.source
        letter.gapFrom = gap.range.lowerBound
        letter.gapTo = gap.range.upperBound
        letter.receivedAt = Google_Protobuf_Timestamp(date: Date())
        var header = Caffe_V1_EventHeader()
        header.sourceID = gap.source
        guard let frames = try? EventFrames.encode(topic: CaffeTopic.deadLetter, header: header, body: letter) else {
            logger.critical("unrecoverable-gap dead letter could not be encoded", metadata: ["source": "\(gap.source)"])
            return
        }
        worker.send(
            [CompletionMark(source: gap.source, range: gap.range).frame] + frames,
            on: deadLetters,
            what: "dead letter"
        )
    }

    /// The DEALER for `endpoint`, connected on first use (a CURVE client when CURVE is on).
    mutating func replaySocket(_ endpoint: String) -> ZMQSocket? {
        if let socket = replaySockets[endpoint] { return socket }
        do {
            let socket = try worker.context.socket(.dealer)
            try socket.set(.sendHighWaterMark, to: 100)
            try worker.attach(socket, [WorkerEndpoint(.connect, endpoint)], role: "replay")
            replaySockets[endpoint] = socket
            return socket
        } catch {
            logger.error(
                "cannot connect to replay endpoint",
                metadata: ["endpoint": "\(endpoint)", "error": "\(error)"]
            )
            return nil
        }
    }

    /// Waits for input or a replay reply, at most until the next retry is due (and 100 ms).
    mutating func waitForInput() {
        if pollerSockets != replaySockets.count + 1 {
            poller = ZMQPoller()
            poller.register(input, for: .readable)
            for socket in replaySockets.values { poller.register(socket, for: .readable) }
            pollerSockets = replaySockets.count + 1
        }
        var timeout = Duration.milliseconds(100)
        if let next = recovery.nextDue { timeout = max(.zero, min(timeout, next - .now)) }
        _ = try? poller.poll(timeout: .milliseconds(Int32(max(1, timeout.wholeMilliseconds))))
    }

    func closeReplaySockets() {
        for socket in replaySockets.values { socket.close(linger: .milliseconds(0)) }
    }
}
