import CZeroMQ

/// Z85, ZeroMQ's printable encoding for binary keys (RFC 32: 4 bytes become 5 characters).
public enum ZMQZ85 {
    /// Encodes bytes whose count is a multiple of 4 (`zmq_z85_encode`).
    public static func encode(_ bytes: [UInt8]) throws(ZMQError) -> String {
        guard bytes.count % 4 == 0 else {
            throw ZMQError.invalidArgument("zmq_z85_encode", "Z85 encodes multiples of 4 bytes, got \(bytes.count)")
        }
        var text = [CChar](repeating: 0, count: bytes.count / 4 * 5 + 1)
        guard zmq_z85_encode(&text, bytes, bytes.count) != nil else { throw ZMQError.last("zmq_z85_encode") }
        return String(cChars: text)
    }

    /// Decodes text whose length is a multiple of 5 (`zmq_z85_decode`).
    public static func decode(_ text: String) throws(ZMQError) -> [UInt8] {
        let utf8 = Array(text.utf8)
        guard utf8.count % 5 == 0 else {
            throw ZMQError.invalidArgument(
                "zmq_z85_decode",
                "Z85 text comes in groups of 5 characters, got \(utf8.count)"
            )
        }
        var bytes = [UInt8](repeating: 0, count: utf8.count / 5 * 4)
        guard zmq_z85_decode(&bytes, text) != nil else {
            throw ZMQError.invalidArgument("zmq_z85_decode", "text contains characters outside the Z85 alphabet")
        }
        return bytes
    }
}

/// A 32-byte CURVE key (public or secret), printable as 40 characters of Z85.
public struct ZMQCurveKey: Hashable, Sendable, CustomStringConvertible {
    /// The key's 32 bytes.
    public let bytes: [UInt8]

    /// Wraps 32 raw key bytes.
    public init(bytes: [UInt8]) throws(ZMQError) {
        guard bytes.count == 32 else {
            throw ZMQError.invalidArgument("ZMQCurveKey", "a CURVE key has 32 bytes, got \(bytes.count)")
        }
        self.bytes = bytes
    }

    /// Decodes a key from its 40-character Z85 text.
    public init(z85: String) throws(ZMQError) {
        guard z85.utf8.count == 40 else {
            throw ZMQError.invalidArgument("ZMQCurveKey", "a Z85 CURVE key has 40 characters, got \(z85.utf8.count)")
        }
        try self.init(bytes: ZMQZ85.decode(z85))
    }

    static let zero = ZMQCurveKey(uncheckedBytes: [UInt8](repeating: 0, count: 32))

    private init(uncheckedBytes: [UInt8]) { self.bytes = uncheckedBytes }

    /// The key as 40 characters of Z85.
    public var z85: String {
        // 32 bytes is a multiple of 4, so encoding cannot fail.
        (try? ZMQZ85.encode(bytes)) ?? ""
    }

    /// The Z85 text; note that a secret key prints as itself.
    public var description: String { z85 }
}

/// A CURVE long-term key pair.
public struct ZMQCurveKeyPair: Hashable, Sendable {
    /// The key peers use to reach or admit this party.
    public let publicKey: ZMQCurveKey
    /// The key that stays with this party.
    public let secretKey: ZMQCurveKey

    /// Pairs two known keys.
    public init(publicKey: ZMQCurveKey, secretKey: ZMQCurveKey) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// Derives the public key from a secret key (`zmq_curve_public`).
    public init(secretKey: ZMQCurveKey) throws(ZMQError) {
        var publicText = [CChar](repeating: 0, count: 41)
        guard zmq_curve_public(&publicText, secretKey.z85) == 0 else { throw ZMQError.last("zmq_curve_public") }
        let publicKey = try ZMQCurveKey(z85: String(cChars: publicText))
        self.init(publicKey: publicKey, secretKey: secretKey)
    }

    /// A fresh random key pair (`zmq_curve_keypair`); needs ``ZMQLibrary/has(_:)`` `"curve"`.
    public static func generate() throws(ZMQError) -> ZMQCurveKeyPair {
        var publicText = [CChar](repeating: 0, count: 41)
        var secretText = [CChar](repeating: 0, count: 41)
        guard zmq_curve_keypair(&publicText, &secretText) == 0 else { throw ZMQError.last("zmq_curve_keypair") }
        return try ZMQCurveKeyPair(
            publicKey: ZMQCurveKey(z85: String(cChars: publicText)),
            secretKey: ZMQCurveKey(z85: String(cChars: secretText))
        )
    }
}

extension ZMQSocket {
    /// Makes this socket a CURVE server with the given key pair (`ZMQ_CURVE_SERVER`, secret and public key).
    ///
    /// Without a ZAP handler such as ``ZMQAuthenticator`` on the context, a CURVE server admits any
    /// client that knows its public key. Passing the authenticator makes the socket keep it alive,
    /// so the allow-list cannot disappear while the server runs.
    public func makeCurveServer(keys: ZMQCurveKeyPair, authenticator: ZMQAuthenticator? = nil) throws(ZMQError) {
        try set(.curveServer, to: true)
        try set(.curveSecretKey, to: keys.secretKey)
        try set(.curvePublicKey, to: keys.publicKey)
        if let authenticator { keptAlive.append(authenticator) }
    }

    /// Makes this socket a CURVE client of the server with `serverKey`.
    public func makeCurveClient(keys: ZMQCurveKeyPair, serverKey: ZMQCurveKey) throws(ZMQError) {
        try set(.curveServerKey, to: serverKey)
        try set(.curvePublicKey, to: keys.publicKey)
        try set(.curveSecretKey, to: keys.secretKey)
    }
}

extension String {
    /// The text of a NUL-terminated C buffer filled by libzmq.
    init(cChars: [CChar]) {
        let end = cChars.firstIndex(of: 0) ?? cChars.endIndex
        self.init(decoding: cChars[..<end].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
