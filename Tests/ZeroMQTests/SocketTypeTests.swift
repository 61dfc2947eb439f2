// Caffe — ZeroMQ binding tests.
import Glibc
import Testing
import ZeroMQ
import ZeroMQTestKit

@Suite("Every socket type")
struct SocketTypeTests {
    @Test(arguments: ZMQSocketType.allCases)
    func everyNonDraftTypeIsCreated(type: ZMQSocketType) throws {
        let context = try ZMQContext()
        let socket = try context.socket(type)
        #expect(socket.type == type)
        #expect(try socket.get(.socketType) == type)
    }

    @Test func typeNamesMatchLibzmq() {
        #expect(
            ZMQSocketType.allCases.map(\.description) == [
                "PAIR", "PUB", "SUB", "REQ", "REP", "DEALER", "ROUTER", "PULL", "PUSH", "XPUB", "XSUB", "STREAM",
            ]
        )
        #expect(ZMQSocketType.allCases.map(\.rawValue) == Array(0...11))
    }

    @Test func xpubSeesSubscriptionsAsMessages() throws {
        let context = try ZMQContext()
        let xpub = try context.socket(.xpub)
        let endpoint = try xpub.bind(ZMQTestEndpoints.inproc("xpub"))
        let subscriber = try context.socket(.sub)
        try subscriber.connect(endpoint)
        try subscriber.subscribe("receipt.")
        #expect(try xpub.receive(timeout: .seconds(5))?.bytes == [1] + Array("receipt.".utf8))
        try subscriber.unsubscribe("receipt.")
        #expect(try xpub.receive(timeout: .seconds(5))?.bytes == [0] + Array("receipt.".utf8))
    }

    @Test func streamSocketTalksToAPlainTCPClient() throws {
        let context = try ZMQContext()
        let stream = try context.socket(.stream)
        let endpoint = try stream.bind(ZMQTestEndpoints.tcpLoopback)
        let port = try #require(UInt16(endpoint.split(separator: ":").last ?? ""))

        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(client >= 0)
        defer { Glibc.close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        #expect(connected == 0)

        // A new peer shows up as [routing id][empty frame].
        let hello = try #require(try stream.receiveMultipart(timeout: .seconds(5)))
        #expect(hello.count == 2)
        #expect(hello[1].isEmpty)
        let peer = hello[0].bytes

        _ = "ping\n".withCString { Glibc.write(client, $0, 5) }
        let data = try #require(try stream.receiveMultipart(timeout: .seconds(5)))
        #expect(data[0].bytes == peer)
        #expect(data[1].string == "ping\n")

        try stream.send(multipart: [peer, "pong\n"])
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = Glibc.read(client, &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "pong\n")
    }
}
