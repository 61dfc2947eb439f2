// Caffe — ZeroMQ binding tests.
import Glibc
import Testing
import ZeroMQ
import ZeroMQTestKit

@Suite("Typed socket options")
struct OptionTests {
    let context: ZMQContext

    init() throws {
        context = try ZMQContext()
    }

    @Test func optionsRoundTrip() throws {
        let socket = try context.socket(.dealer)
        #expect(try socket.get(.linger) == .zero)  // contexts here default to non-blocking close
        try socket.set(.linger, to: .seconds(2))
        #expect(try socket.get(.linger) == .milliseconds(2000))
        try socket.set(.linger, to: .infinite)
        #expect(try socket.get(.linger) == .infinite)

        try socket.set(.sendHighWaterMark, to: 5000)
        #expect(try socket.get(.sendHighWaterMark) == 5000)
        try socket.set(.receiveHighWaterMark, to: 0)
        #expect(try socket.get(.receiveHighWaterMark) == 0)
        try socket.set(.sendTimeout, to: .milliseconds(250))
        #expect(try socket.get(.sendTimeout) == .milliseconds(250))
        #expect(try socket.get(.receiveTimeout) == .infinite)

        try socket.set(.immediate, to: true)
        #expect(try socket.get(.immediate))
        try socket.set(.maxMessageSize, to: 1 << 20)
        #expect(try socket.get(.maxMessageSize) == 1 << 20)
        try socket.set(.routingID, to: [1, 2, 3])
        #expect(try socket.get(.routingID) == [1, 2, 3])

        try socket.set(.heartbeatInterval, to: .milliseconds(500))
        try socket.set(.heartbeatTimeout, to: .seconds(2))
        try socket.set(.heartbeatTimeToLive, to: .seconds(3))
        #expect(try socket.get(.heartbeatInterval) == .milliseconds(500))
        #expect(try socket.get(.heartbeatTimeout) == .seconds(2))
        #expect(try socket.get(.heartbeatTimeToLive) == .seconds(3))

        try socket.set(.tcpKeepalive, to: .enabled)
        try socket.set(.tcpKeepaliveIdle, to: 30)
        try socket.set(.tcpKeepaliveCount, to: 4)
        try socket.set(.tcpKeepaliveInterval, to: 5)
        #expect(try socket.get(.tcpKeepalive) == .enabled)
        #expect(try socket.get(.tcpKeepaliveIdle) == 30)
        try socket.set(.reconnectInterval, to: .milliseconds(50))
        try socket.set(.reconnectIntervalMax, to: .seconds(5))
        #expect(try socket.get(.reconnectInterval) == .milliseconds(50))
        #expect(try socket.get(.reconnectIntervalMax) == .seconds(5))

        try socket.set(.zapDomain, to: "caffe")
        #expect(try socket.get(.zapDomain) == "caffe")
        #expect(try socket.get(.socketType) == .dealer)
        #expect(try socket.get(.fileDescriptor) >= 0)
        #expect(try socket.events == [])
    }

    @Test func writeOnlyOptionsAreAcceptedAndInvalidValuesRejected() throws {
        let router = try context.socket(.router)
        try router.set(.routerMandatory, to: true)
        let pull = try context.socket(.pull)
        try pull.set(.conflate, to: true)
        let sub = try context.socket(.sub)
        try sub.set(.subscribe, to: Array("order.".utf8))
        try sub.set(.unsubscribe, to: Array("order.".utf8))

        // A routing id may not be empty.
        let error = try #require(throws: ZMQError.self) { try router.set(.routingID, to: []) }
        #expect(error.code == EINVAL)
        #expect(error.operation == "zmq_setsockopt(ZMQ_ROUTING_ID)")
    }

    @Test func lastEndpointResolvesWildcards() throws {
        let socket = try context.socket(.rep)
        let bound = try socket.bind(ZMQTestEndpoints.tcpLoopback)
        #expect(try socket.get(.lastEndpoint) == bound)
        let port = try #require(Int(bound.split(separator: ":").last ?? ""))
        #expect((1...65535).contains(port))
    }

    @Test func maxMessageSizeDisconnectsOversizedSenders() throws {
        let pull = try context.socket(.pull)
        try pull.set(.maxMessageSize, to: 1024)
        let endpoint = try pull.bind(ZMQTestEndpoints.tcpLoopback)
        let push = try context.socket(.push)
        try push.connect(endpoint)
        try push.send([UInt8](repeating: 7, count: 4096))
        #expect(try pull.receive(timeout: .milliseconds(300)) == nil)

        let polite = try context.socket(.push)
        try polite.connect(endpoint)
        try polite.send([UInt8](repeating: 1, count: 512))
        #expect(try pull.receive(timeout: .seconds(5))?.count == 512)
    }

    @Test func timeoutsConvertFromDurations() {
        #expect(ZMQTimeout(.milliseconds(1500)) == .milliseconds(1500))
        #expect(ZMQTimeout(.microseconds(1)) == .milliseconds(1))
        #expect(ZMQTimeout(.zero) == .zero)
        #expect(ZMQTimeout(.seconds(-3)) == .zero)
        #expect(ZMQTimeout.seconds(2).rawMilliseconds == 2000)
        #expect(ZMQTimeout.infinite.rawMilliseconds == -1)
        #expect(ZMQTimeout(rawMilliseconds: -1) == .infinite)
    }
}
