/// The outcome of a request: a gRPC status code and a message.
///
/// Handlers throw errors; those that know their status conform to ``RPCStatusConvertible`` and
/// everything else becomes ``Caffe_V1_StatusCode/unknown``.
public struct RPCStatus: Hashable, Sendable, CustomStringConvertible {
    /// The gRPC status code.
    public var code: Caffe_V1_StatusCode
    /// A message for the caller.
    public var message: String

    public init(code: Caffe_V1_StatusCode, message: String = "") {
        self.code = code
        self.message = message
    }

    /// Success.
    public static let ok = RPCStatus(code: .ok)

    /// The status for any error: its own if it knows it, otherwise `UNKNOWN`.
    public init(_ error: any Error) {
        if let convertible = error as? any RPCStatusConvertible {
            self = convertible.rpcStatus
        } else {
            self.init(code: .unknown, message: String(describing: error))
        }
    }

    public var description: String {
        message.isEmpty ? code.grpcName : "\(code.grpcName): \(message)"
    }
}

/// An error that knows which gRPC status it maps to.
public protocol RPCStatusConvertible: Error {
    /// The status to answer with.
    var rpcStatus: RPCStatus { get }
}

extension CaffeProtocolError: RPCStatusConvertible {
    /// Undecodable or invalid input is the caller's fault: `INVALID_ARGUMENT`.
    public var rpcStatus: RPCStatus { RPCStatus(code: .invalidArgument, message: message) }
}

extension Caffe_V1_StatusCode {
    /// The code's gRPC name, such as `DEADLINE_EXCEEDED`.
    public var grpcName: String {
        switch self {
        case .ok: "OK"
        case .cancelled: "CANCELLED"
        case .unknown: "UNKNOWN"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .notFound: "NOT_FOUND"
        case .alreadyExists: "ALREADY_EXISTS"
        case .permissionDenied: "PERMISSION_DENIED"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .aborted: "ABORTED"
        case .outOfRange: "OUT_OF_RANGE"
        case .unimplemented: "UNIMPLEMENTED"
        case .internal: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .dataLoss: "DATA_LOSS"
        case .unauthenticated: "UNAUTHENTICATED"
        case .UNRECOGNIZED(let value): "UNRECOGNIZED(\(value))"
        }
    }

    /// gRPC's meaning of the code, in one line.
    public var meaning: String {
        switch self {
        case .ok: "not an error; returned on success"
        case .cancelled: "the operation was cancelled, typically by the caller"
        case .unknown: "unknown error, or an error from a space with no mapping"
        case .invalidArgument: "the client specified an invalid argument, whatever the system state"
        case .deadlineExceeded: "the deadline expired before the operation could complete"
        case .notFound: "some requested entity was not found"
        case .alreadyExists: "the entity the client tried to create already exists"
        case .permissionDenied: "the caller may not execute the operation"
        case .resourceExhausted: "some resource has been exhausted (a quota, queue space)"
        case .failedPrecondition: "the system is not in a state required for the operation"
        case .aborted: "the operation was aborted, typically by a concurrency conflict"
        case .outOfRange: "the operation was attempted past the valid range"
        case .unimplemented: "the operation is not implemented or not supported"
        case .internal: "an invariant expected by the system has been broken"
        case .unavailable: "the service is currently unavailable; retrying with backoff may help"
        case .dataLoss: "unrecoverable data loss or corruption"
        case .unauthenticated: "the request lacks valid authentication credentials"
        case .UNRECOGNIZED: "a code this version does not know"
        }
    }
}
