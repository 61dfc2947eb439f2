// Caffe — CaffeClient tests.
import CaffeClient
import CaffeCore
import CaffeProtocol
import Foundation
import Logging
import ServiceLifecycle
import SwiftProtobuf
import Testing
import ZeroMQ

@testable import CaffeWorker

/// The RPC client against a worker in this process (its RPC endpoint on `inproc://`), and against
/// nothing at all.
@Suite("RPC client", .serialized)
struct RPCClientTests {
    /// Runs a worker whose RPC endpoint is `inproc://rpc-<id>` until `body` returns.
    static func withWorker(_ body: @escaping @Sendable (String, ZMQContext) async throws -> Void) async throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let id = UUID().uuidString.prefix(8)
        let configuration = try WorkerConfigurationLoader.load(
            file: nil,
            environment: [:],
            overrides: [
                "input.kind=pull", "input.endpoints=@inproc://in-\(id)", "output.kind=pub",
                "output.endpoints=@inproc://out-\(id)", "rpc.endpoint=@inproc://rpc-\(id)", "metrics.address=",
                "checkpoint.path=", "render.threads=1", "config_dir=\(ConfigurationDirectory.builtIn.path)",
            ]
        )
        let worker = try Worker(
            configuration: configuration,
            core: try WorkerSetup.core(for: configuration),
            logger: Logger(label: "test.worker"),
            context: context
        )
        let group = ServiceGroup(services: [worker], logger: Logger(label: "test.group"))
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            await worker.waitUntilServing()
            do {
                try await body("inproc://rpc-\(id)", context)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    @Test("health, stats and a render: replies decoded, the worker's versions in the reply metadata")
    func callsAWorker() async throws {
        try await Self.withWorker { endpoint, context in
            let client = try RPCClient(endpoint: ">" + endpoint, context: context)
            #expect(try await client.health() == .serving)
            #expect(client.lastReplyMetadata == ["caffe-version": CaffeVersion.current, "caffe-schema": "1.1"])
            let stats = try await client.stats()
            #expect(stats.gauges["render_threads"] == 1 && stats.gauges["serving"] == 1)
            var request = Caffe_V1_ComplicationRequest()
            request.requestID = "c-1"
            request.userID = "u-1"
            request.locale = "en-US"
            request.timeZone = "America/New_York"
            request.nextFreeCoffee = .init(seconds: 1_798_761_600)
            let payload = try await client.renderComplication(request)
            #expect(payload.requestID == "c-1" && !payload.entries.isEmpty)
        }
    }

    @Test("a refusal is the worker's status and detail, typed, and not tried again")
    func refusals() async throws {
        try await Self.withWorker { endpoint, context in
            let client = try RPCClient(endpoint: endpoint, context: context)
            do {
                _ = try await client.renderOrder(Caffe_V1_OrderEvent())
                Issue.record("an order without an id was rendered")
            } catch let error as CaffeClientError {
                guard case .status(let status, _) = error else { throw error }
                #expect(
                    status
                        == RPCStatus(code: .invalidArgument, message: "missing-field at orderId: the order has no id")
                )
                #expect(error.code == .invalidArgument)
            }
            do {
                _ = try await client.health(service: "caffe.v1.Replay")
                Issue.record("an unknown service was answered")
            } catch let error as CaffeClientError {
                #expect(error.code == .notFound)
                #expect(error.description == "NOT_FOUND: unknown service 'caffe.v1.Replay'")
            }
        }
    }

    @Test("nobody listening: no answer after every attempt within the time, or no connection")
    func nobodyListening() async throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        var options = RPCClient.Options()
        // Shares of a second each: a busy machine's scheduling does not eat an attempt.
        options.timeout = .seconds(3)
        options.attempts = 3
        let client = try RPCClient(endpoint: "inproc://nobody-here", options: options, context: context)
        let started = ContinuousClock.now
        do {
            _ = try await client.stats()
            Issue.record("an answer from nobody")
        } catch {
            guard case .noAnswer(_, let attempts) = error else { throw error }
            #expect(attempts == 3)
        }
        let took = ContinuousClock.now - started
        #expect(took >= .milliseconds(2900) && took < .seconds(5))
        #expect(throws: CaffeClientError.self) { try client.waitUntilConnected(timeout: .milliseconds(100)) }
    }

    @Test("an endpoint is parsed once, as the worker's configuration parses it: a client connects")
    func endpoints() throws {
        #expect(
            try RPCClient(endpoint: ">tcp://127.0.0.1:5562").endpoint == CaffeEndpoint(.connect, "tcp://127.0.0.1:5562")
        )
        #expect(try RPCClient(endpoint: " ipc:///run/caffe/rpc ").endpoint.address == "ipc:///run/caffe/rpc")
        for text in ["@tcp://127.0.0.1:5562", "127.0.0.1:5562", "tcp://"] {
            #expect(throws: CaffeClientError.self, "\(text)") { try RPCClient(endpoint: text) }
        }
    }
}
