// Caffe — CaffeWorker tests.
import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf
import Synchronization
import WorkerTestKit
import ZeroMQ

/// A worker process between a test's ``OrderSource`` (PULL from its PUSH, replay from its ROUTER)
/// and a PUSH to a PULL collector, each in a fresh folder and context.
final class WorkerFixture {
    let folder: TemporaryFolder
    let context: ZMQContext
    let source: OrderSource
    let collector: WorkerRecoveryTests.Collector
    let worker: WorkerProcess

    /// `input` replaces the input settings (`input.kind=pull` from the source) when given;
    /// `prepare` runs with the fixture's folder before the worker starts and adds settings.
    init(
        _ name: String,
        settings: [String] = [],
        input: ((ZMQContext) throws -> [String])? = nil,
        prepare: ((URL) throws -> [String])? = nil
    ) throws {
        folder = try TemporaryFolder(name)
        context = try ZMQContext()
        source = try OrderSource(context: context, folder: folder.url)
        collector = try WorkerRecoveryTests.Collector(context: context)
        let inputSettings = try input?(context) ?? ["input.kind=pull", "input.endpoints=>\(source.pushEndpoint)"]
        let prepared = try prepare?(folder.url) ?? []
        worker = try WorkerProcess(
            folder: folder.url,
            settings: inputSettings + ["output.kind=push", "output.endpoints=>\(collector.endpoint)"] + settings
                + prepared
        )
    }

    deinit {
        source.stop()
        context.shutdown()
    }
}
