import CaffeProtocol
import ZeroMQ

/// Why a call to a worker did not return its reply, a publisher did not send, or a consumer could
/// not read.
public enum CaffeClientError: Error, Sendable, CustomStringConvertible {
    /// The worker answered with a status other than OK: its code and detail (docs/WIRE.md's
    /// tables give both), and the reply's header metadata.
    case status(RPCStatus, metadata: [String: String])
    /// No answer within the time given, over every attempt.
    case noAnswer(after: Duration, attempts: Int)
    /// The socket could not connect within the time given (nothing listening, a wrong address).
    case notConnected(endpoint: String, after: Duration)
    /// The endpoint text names no transport (`tcp://`, `ipc://`, `inproc://`…).
    case badEndpoint(String)
    /// The reply was not a Caffe reply, or its body not the method's reply type.
    case malformedReply(CaffeProtocolError)
    /// An output event that is not one: wrong frames, a header or body that does not decode.
    case malformedOutput(CaffeProtocolError)
    /// An event a publisher refuses to send: it names another source, skips or repeats a sequence,
    /// has no order id, or does not encode. Nothing was sent.
    case invalidEvent(String)
    /// libzmq refused an operation.
    case transport(ZMQError)

    /// The worker's status code, when it answered with one.
    public var code: Caffe_V1_StatusCode? {
        if case .status(let status, _) = self { status.code } else { nil }
    }

    public var description: String {
        switch self {
        case .status(let status, _): "\(status.code.grpcName): \(status.message)"
        case .noAnswer(let after, let attempts): "no answer within \(after) (\(attempts) attempts)"
        case .notConnected(let endpoint, let after): "could not connect to \(endpoint) within \(after)"
        case .badEndpoint(let text): "\(InvalidEndpoint(text))"
        case .malformedReply(let error): "the reply is not a Caffe reply: \(error)"
        case .malformedOutput(let error): "not an output event: \(error)"
        case .invalidEvent(let reason): "event not sent: \(reason)"
        case .transport(let error): "\(error)"
        }
    }
}
