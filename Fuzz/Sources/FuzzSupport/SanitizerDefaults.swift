/// Leaks LeakSanitizer must not report: they are in the toolchain's Foundation, outside Caffe,
/// and would stop every run at the first input that reaches them. Compiled into every fuzzer, so
/// a reproduction (`fuzzer crash-…`) suppresses the same and nothing else.
///
/// - `CFPropertyListCreateWithData`: swift-corelibs-foundation's `PropertyListSerialization`
///   drops the `CFError` it creates for some malformed binary property lists (Localization reads
///   binary `.strings` and `.stringsdict` files with it).
private let leakSuppressions: StaticString = "leak:CFPropertyListCreateWithData\n"

/// LeakSanitizer's hook for built-in suppressions (`sanitizer_common/sanitizer_interface_internal.h`).
@_cdecl("__lsan_default_suppressions")
public func lsanDefaultSuppressions() -> UnsafePointer<CChar> {
    UnsafeRawPointer(leakSuppressions.utf8Start).assumingMemoryBound(to: CChar.self)
}
