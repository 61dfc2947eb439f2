/// Why bytes from the wire could not be turned into a Caffe message.
///
/// Every decoding path reports one of these instead of crashing; ``field`` names the offending
/// field (`customer.locale`, `lines[2].item_id`) where there is one. Equality compares ``code`` only.
public struct CaffeProtocolError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The kind of failure.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Value: String, Hashable, Sendable {
            case wrongFrameCount
            case missingDelimiter
            case frameTooLarge
            case malformed
            case unexpectedBodyType
            case missingField
            case invalidField
        }

        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// The message has too few or too many frames for its envelope.
        public static let wrongFrameCount = Code(.wrongFrameCount)
        /// A request or reply lacks the empty frame between routing ids and header.
        public static let missingDelimiter = Code(.missingDelimiter)
        /// A frame exceeds its ``CaffeProtocolLimits``.
        public static let frameTooLarge = Code(.frameTooLarge)
        /// A frame is not valid protobuf for its message type.
        public static let malformed = Code(.malformed)
        /// The header names a body type other than the one expected.
        public static let unexpectedBodyType = Code(.unexpectedBodyType)
        /// A required field is absent or empty.
        public static let missingField = Code(.missingField)
        /// A field has a value outside its allowed form (a money amount that is not a decimal string…).
        public static let invalidField = Code(.invalidField)

        public var description: String { value.rawValue }
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence for logs and dead-letter records.
    public let message: String
    /// The offending field's path, where one is to blame.
    public let field: String?

    public init(code: Code, message: String, field: String? = nil) {
        self.code = code
        self.message = message
        self.field = field
    }

    static func missing(_ field: String, in type: String) -> CaffeProtocolError {
        CaffeProtocolError(code: .missingField, message: "\(type) is missing required field '\(field)'", field: field)
    }

    static func invalid(_ field: String, in type: String, _ reason: String) -> CaffeProtocolError {
        CaffeProtocolError(code: .invalidField, message: "\(type).\(field) \(reason)", field: field)
    }

    public var description: String { "\(code): \(message)" }

    public static func == (lhs: CaffeProtocolError, rhs: CaffeProtocolError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

/// Size limits applied before any untrusted bytes are decoded.
public struct CaffeProtocolLimits: Hashable, Sendable {
    /// Largest topic frame, in bytes.
    public var maxTopicBytes: Int
    /// Largest header frame, in bytes.
    public var maxHeaderBytes: Int
    /// Largest body frame, in bytes.
    public var maxBodyBytes: Int
    /// Most routing-id frames before the delimiter of a request (one per ROUTER hop).
    public var maxRoutingFrames: Int
    /// Deepest nesting of protobuf messages accepted.
    public var messageDepthLimit: Int

    /// Limits for Caffe traffic: 256 B topics, 16 KiB headers, 1 MiB bodies, 8 hops, depth 32.
    public init(
        maxTopicBytes: Int = 256,
        maxHeaderBytes: Int = 16 * 1024,
        maxBodyBytes: Int = 1024 * 1024,
        maxRoutingFrames: Int = 8,
        messageDepthLimit: Int = 32
    ) {
        self.maxTopicBytes = maxTopicBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxRoutingFrames = maxRoutingFrames
        self.messageDepthLimit = messageDepthLimit
    }

    /// The defaults.
    public static let standard = CaffeProtocolLimits()
}
