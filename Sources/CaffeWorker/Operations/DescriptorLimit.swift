#if canImport(Glibc)
import Glibc
#endif

/// The process's file descriptor limit (`RLIMIT_NOFILE`): a worker raises its soft limit to the
/// hard one at start, as services do (systemd leaves the soft limit at 1,024 for `select`'s sake;
/// nothing here uses `select`), so a flood of connections to one endpoint cannot take the
/// descriptors a checkpoint write or a replay connection needs.
public enum DescriptorLimit {
    /// The soft limit now.
    public static var current: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return Int(clamping: limit.rlim_cur)
    }

    /// The connections an operations endpoint serves at once with `limit` descriptors: an eighth
    /// of them, 16 to 256, the rest kept for checkpoints, replay and the sockets.
    public static func operationsConnections(limit: Int = current) -> Int { max(16, min(256, limit / 8)) }

    /// Raises the soft limit to the hard limit; returns the limits before and after (equal when
    /// it was there already or could not be raised).
    @discardableResult
    public static func raiseToHard() -> (before: Int, after: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return (1024, 1024) }
        let before = Int(clamping: limit.rlim_cur)
        guard limit.rlim_cur < limit.rlim_max else { return (before, before) }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 else { return (before, before) }
        return (before, Int(clamping: raised.rlim_cur))
    }
}
