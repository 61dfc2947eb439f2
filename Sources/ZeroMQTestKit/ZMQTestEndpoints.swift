import Glibc
import Synchronization

/// Endpoints for socket tests that never collide between tests running in parallel.
public enum ZMQTestEndpoints {
    private static let counter = Atomic<Int>(0)

    /// A fresh `inproc://` name.
    public static func inproc(_ label: String = "test") -> String {
        "inproc://\(label).\(counter.add(1, ordering: .relaxed).newValue)"
    }

    /// A fresh `ipc://` path in the temporary directory, unique to this process.
    public static func ipc(_ label: String = "test") -> String {
        "ipc:///tmp/caffe-test-\(getpid())-\(label)-\(counter.add(1, ordering: .relaxed).newValue).sock"
    }

    /// The loopback TCP wildcard; `bind` returns the port the kernel chose.
    public static let tcpLoopback = "tcp://127.0.0.1:*"
}
