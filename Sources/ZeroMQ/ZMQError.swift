import CZeroMQ
import Glibc

/// A failed libzmq call: the `errno` it set, libzmq's text for it, and the call that failed.
///
/// "Would block" (`EAGAIN`) is normally an outcome, not an error: the `try…` and `timeout:` calls
/// return `nil` or `false` for it. It surfaces as a ``ZMQError`` only from a blocking call whose
/// socket has a send or receive timeout set, where ``isWouldBlock`` is `true`.
///
/// Equality compares the error code only.
public struct ZMQError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The `errno` value libzmq reported (`EAGAIN`, `ETERM`, `EHOSTUNREACH`, …).
    public let code: Int32
    /// The failing call, with its main argument: `zmq_bind(tcp://127.0.0.1:bad)`.
    public let operation: String
    /// libzmq's description of ``code`` (`zmq_strerror`), or the binding's own explanation.
    public let message: String

    /// Wraps an error code reported by `operation`.
    public init(code: Int32, operation: String, message: String? = nil) {
        self.code = code
        self.operation = operation
        self.message = message ?? String(cString: zmq_strerror(code))
    }

    /// Reads the calling thread's libzmq error (`zmq_errno`) for the call that just failed.
    static func last(_ operation: @autoclosure () -> String) -> ZMQError {
        ZMQError(code: zmq_errno(), operation: operation())
    }

    /// A misuse the binding detects itself (a bad key length, a closed socket…), reported as `EINVAL`.
    static func invalidArgument(_ operation: String, _ message: String) -> ZMQError {
        ZMQError(code: EINVAL, operation: operation, message: message)
    }

    /// The call would have blocked, or a socket timeout expired (`EAGAIN`).
    public var isWouldBlock: Bool { code == EAGAIN }
    /// The context was shut down or terminated (`ETERM`).
    public var isContextTerminated: Bool { code == ETERM }
    /// A signal interrupted the call (`EINTR`).
    public var isInterrupted: Bool { code == EINTR }
    /// A ROUTER with ``ZMQSocketOption/routerMandatory`` could not route to the named peer (`EHOSTUNREACH`).
    public var isHostUnreachable: Bool { code == EHOSTUNREACH }
    /// The socket's state machine does not allow the call now, such as a REQ sending twice (`EFSM`).
    public var isWrongState: Bool { code == EFSM }
    /// The socket was closed by its owner, or was never valid (`ENOTSOCK`).
    public var isSocketClosed: Bool { code == ENOTSOCK }

    public var description: String {
        "\(operation) failed: \(message) (errno \(code))"
    }

    public static func == (lhs: ZMQError, rhs: ZMQError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
