#if canImport(Glibc)
import Glibc
#endif

/// The wall clock, for latencies measured from a time another host wrote (`sent_at`).
enum WallClock {
    /// Nanoseconds since 1970 now.
    static func nanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
    }
}
