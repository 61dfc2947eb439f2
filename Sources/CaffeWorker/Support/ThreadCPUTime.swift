#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`), or `nil` where the
/// clock cannot be read.
enum ThreadCPUTime {
    static func now() -> Duration? {
        var spec = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec) == 0 else { return nil }
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}
