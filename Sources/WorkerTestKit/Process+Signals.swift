import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Process {
    /// Starts the process with no signal blocked.
    ///
    /// Foundation spawns children with the calling thread's signal mask, and the threads of Swift's
    /// concurrency pool block nearly every signal. A child started from one of them never sees
    /// SIGTERM or SIGINT unless it unblocks them itself: `terminate()` does nothing and a forked
    /// child keeps Foundation's exit-watch socket open, so `waitUntilExit()` never returns. The
    /// mask is cleared for the spawn only and restored on this thread after it.
    public func runWithSignalsUnblocked() throws {
        var none = sigset_t()
        sigemptyset(&none)
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &none, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try run()
    }
}
