// Caffe — CaffeWorker tests.
import Testing
import ZeroMQ

@testable import CaffeBooks
@testable import CaffeWorker

/// Replay connections shared fairly between newcomers and established sources.
@Suite("Replay places")
struct ReplayPlacesTests {
    @Test("newcomers take at most half the places; an established source's endpoint still gets one")
    func newcomersCapped() throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        var connections = ReplayConnections(capacity: 4, idleTimeout: .seconds(30))
        defer { connections.closeAll() }
        func open(_ endpoint: String, _ standing: ReplayStanding) throws -> Bool {
            try connections.socket(for: endpoint, id: "gap-\(endpoint)", standing: standing, at: .now) {
                () throws(ZMQError) -> ZMQSocket in
                let socket = try context.socket(.dealer)
                try socket.connect(endpoint)
                return socket
            } != nil
        }
        #expect(try open("tcp://127.0.0.1:1", .newcomer))
        #expect(try open("tcp://127.0.0.1:2", .newcomer))
        // Both newcomer places hold a request outstanding: a third newcomer waits.
        #expect(try !open("tcp://127.0.0.1:3", .newcomer))
        #expect(try open("tcp://127.0.0.1:4", .established))
        #expect(try open("tcp://127.0.0.1:5", .established))
        // Configured endpoints are never refused.
        #expect(try open("tcp://127.0.0.1:6", .trusted))
        // An endpoint that answered is established from then on.
        connections.answered("tcp://127.0.0.1:7")
        #expect(try !open("tcp://127.0.0.1:8", .newcomer))
        connections.settled("tcp://127.0.0.1:4", id: "gap-tcp://127.0.0.1:4")
        #expect(try open("tcp://127.0.0.1:7", .newcomer))
    }
}
