// Caffe — ZeroMQ binding tests.
import Glibc
import Testing
import ZeroMQ
import ZeroMQTestKit

/// libzmq's published CURVE test keys (used across its test suite and the zmq_curve documentation).
enum PublishedTestKeys {
    static let serverPublic = "rq:rM>}U?@Lns47E1%kR.o@n%FcmmsL/@{H8]yf7"
    static let serverSecret = "JTKVSB%%)wK0E.X)V>+}o?pNmC{O&4W4b!Ni{Lh6"
    static let clientPublic = "Yne@$w-vo<fVvi]a<NY6T1ed:M$fCG*[IaLV{hID"
    static let clientSecret = "D:)Q[IlAW!ahhC2ac:9*A}h:p?([4%wOTJ%JR%cs"

    static func server() throws -> ZMQCurveKeyPair {
        ZMQCurveKeyPair(publicKey: try ZMQCurveKey(z85: serverPublic), secretKey: try ZMQCurveKey(z85: serverSecret))
    }

    static func client() throws -> ZMQCurveKeyPair {
        ZMQCurveKeyPair(publicKey: try ZMQCurveKey(z85: clientPublic), secretKey: try ZMQCurveKey(z85: clientSecret))
    }
}

@Suite("CURVE, Z85 and the ZAP authenticator")
struct SecurityTests {
    @Test func libraryHasCurve() {
        #expect(ZMQLibrary.has("curve"))
        #expect(ZMQLibrary.version.major == 4)
    }

    @Test func z85MatchesTheSpecification() throws {
        // The test vector of RFC 32 (Z85).
        #expect(try ZMQZ85.encode([0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B]) == "HelloWorld")
        #expect(try ZMQZ85.decode("HelloWorld") == [0x86, 0x4F, 0xD2, 0x6F, 0xB5, 0x59, 0xF7, 0x5B])
        let serverKey = try ZMQCurveKey(z85: PublishedTestKeys.serverPublic)
        #expect(serverKey.bytes.prefix(4) == [84, 252, 186, 36])
        #expect(serverKey.bytes.suffix(4) == [27, 194, 214, 82])
        #expect(serverKey.z85 == PublishedTestKeys.serverPublic)
    }

    @Test func z85RejectsBadInput() {
        #expect(throws: ZMQError.self) { try ZMQZ85.encode([1, 2, 3]) }
        #expect(throws: ZMQError.self) { try ZMQZ85.decode("abcd") }
        #expect(throws: ZMQError.self) { try ZMQZ85.decode("Hello\"orld") }
        #expect(throws: ZMQError.self) { try ZMQCurveKey(z85: "tooShort") }
        #expect(throws: ZMQError.self) { try ZMQCurveKey(bytes: [1, 2, 3]) }
    }

    @Test func keyPairsAreGeneratedAndDerived() throws {
        let pair = try ZMQCurveKeyPair.generate()
        #expect(pair.publicKey.z85.utf8.count == 40)
        #expect(pair.publicKey != pair.secretKey)
        #expect(try ZMQCurveKeyPair(secretKey: pair.secretKey) == pair)
        #expect(
            try ZMQCurveKeyPair(secretKey: try ZMQCurveKey(z85: PublishedTestKeys.clientSecret))
                == PublishedTestKeys.client()
        )
    }

    @Test func curveHandshakeSucceedsWithThePublishedTestKeys() throws {
        let context = try ZMQContext()
        let server = try context.socket(.router)
        try server.makeCurveServer(keys: PublishedTestKeys.server())
        let endpoint = try server.bind(ZMQTestEndpoints.tcpLoopback)
        let monitor = try ZMQSocketMonitor(
            server,
            events: [.handshakeSucceeded, .handshakeFailedAuth, .handshakeFailedProtocol]
        )

        let client = try context.socket(.dealer)
        try client.makeCurveClient(keys: PublishedTestKeys.client(), serverKey: PublishedTestKeys.server().publicKey)
        try client.connect(endpoint)
        try client.send(multipart: ["", "secret order"])

        #expect(try monitor.receive(timeout: .seconds(5))?.kind == .handshakeSucceeded)
        let frames = try #require(try server.receiveMultipart(timeout: .seconds(5)))
        #expect(frames.dropFirst().map(\.string) == ["", "secret order"])
        // No ZAP handler runs in this context, so there is no user id.
        #expect(frames[2].metadata("User-Id") == nil)
    }

    @Test func authenticatorAdmitsAllowedKeysAndRefusesUnknownOnes() throws {
        let context = try ZMQContext()
        let authenticator = try ZMQAuthenticator(
            context: context,
            allowedClientKeys: [try PublishedTestKeys.client().publicKey]
        )
        defer { authenticator.stop() }

        let server = try context.socket(.router)
        try server.makeCurveServer(keys: PublishedTestKeys.server())
        let endpoint = try server.bind(ZMQTestEndpoints.tcpLoopback)
        let monitor = try ZMQSocketMonitor(server, events: [.handshakeSucceeded, .handshakeFailedAuth])

        // A client with a freshly generated key knows the server key but is not on the list.
        let stranger = try context.socket(.dealer)
        try stranger.makeCurveClient(keys: ZMQCurveKeyPair.generate(), serverKey: PublishedTestKeys.server().publicKey)
        try stranger.connect(endpoint)
        _ = try stranger.send(multipart: ["", "let me in"], timeout: .zero)
        let refusal = try #require(try monitor.receive(timeout: .seconds(5)))
        #expect(refusal.kind == .handshakeFailedAuth)
        #expect(refusal.value == 400)

        let friend = try context.socket(.dealer)
        try friend.makeCurveClient(keys: PublishedTestKeys.client(), serverKey: PublishedTestKeys.server().publicKey)
        try friend.connect(endpoint)
        try friend.send(multipart: ["", "hello"])
        #expect(try monitor.wait(for: .handshakeSucceeded, timeout: .seconds(5))?.kind == .handshakeSucceeded)
        let frames = try #require(try server.receiveMultipart(timeout: .seconds(5)))
        #expect(frames.last?.string == "hello")
        #expect(frames.last?.metadata("User-Id") == PublishedTestKeys.clientPublic)

        // Nothing from the stranger ever arrives.
        #expect(try server.receiveMultipart(timeout: .milliseconds(200)) == nil)
        #expect(authenticator.admitted == 1)
        #expect(authenticator.refused >= 1)
    }

    @Test func revokedKeysAreRefusedOnTheirNextConnection() throws {
        let context = try ZMQContext()
        let clientKeys = try ZMQCurveKeyPair.generate()
        let authenticator = try ZMQAuthenticator(context: context, allowedClientKeys: [])
        authenticator.allow(clientKeys.publicKey)
        authenticator.revoke(clientKeys.publicKey)

        let server = try context.socket(.router)
        try server.makeCurveServer(keys: PublishedTestKeys.server())
        // inproc skips the security handshake, so this needs a real transport.
        let endpoint = try server.bind(ZMQTestEndpoints.ipc("revoked"))
        let monitor = try ZMQSocketMonitor(server, events: [.handshakeSucceeded, .handshakeFailedAuth])
        let client = try context.socket(.dealer)
        try client.makeCurveClient(keys: clientKeys, serverKey: PublishedTestKeys.server().publicKey)
        try client.connect(endpoint)
        #expect(try monitor.receive(timeout: .seconds(5))?.kind == .handshakeFailedAuth)
        authenticator.stop()
    }

    @Test func onlyOneAuthenticatorPerContext() throws {
        let context = try ZMQContext()
        let first = try ZMQAuthenticator(context: context, allowedClientKeys: [])
        let error = try #require(throws: ZMQError.self) {
            try ZMQAuthenticator(context: context, allowedClientKeys: [])
        }
        #expect(error.code == EADDRINUSE)
        first.stop()
        // Once stopped, the endpoint is free again.
        let second = try ZMQAuthenticator(context: context, allowedClientKeys: [])
        second.stop()
    }
}
