import CLibFuzzer

#if canImport(Glibc)
import Glibc
#endif

/// Runs libFuzzer on one function: the `main` of every fuzzer.
///
/// libFuzzer normally supplies `main` and calls `LLVMFuzzerTestOneInput`. SwiftPM links every
/// executable target with a `main` of its own, so the fuzzers keep theirs and hand control to
/// libFuzzer's driver (`LLVMFuzzerRunDriver`), which parses the usual flags (`-max_total_time`,
/// `-dict`, corpus folders, a crash file to reproduce) and calls `body` once per input.
///
/// ```swift
/// FuzzDriver.run { input in
///     _ = try? RichTextParser.parse(input.text)
/// }
/// ```
///
/// A failed check is a crash: call ``FuzzDriver/fail(_:)`` (or let a sanitizer report), and
/// libFuzzer saves the input as `crash-<sha1>` for reproduction.
public enum FuzzDriver {
    /// The function under test; set once, before the driver starts, and only read afterwards.
    nonisolated(unsafe) private static var body: (FuzzInput) -> Void = { _ in }

    /// Starts libFuzzer with the process's arguments and exits with its status.
    public static func run(_ body: @escaping (FuzzInput) -> Void) -> Never {
        Self.body = body
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzDriver.body(FuzzInput(UnsafeRawBufferPointer(start: data, count: size)))
            return 0
        }
        exit(status)
    }

    /// Reports a broken invariant as a crash, with `message` on standard error.
    public static func fail(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
        fatalError("invariant broken: \(message)", file: file, line: line)
    }
}
