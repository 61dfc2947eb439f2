import CMallocCounter

/// Counts the heap allocations the calling thread makes, through a counter linked into the test
/// executable in place of the C allocator's entry points (it forwards to glibc's).
///
/// ```swift
/// let allocations = AllocationCounter.count { _ = try session.renderOrder(bytes: body) }
/// #expect(allocations == 0)
/// ```
public enum AllocationCounter {
    /// How many allocations `body` made on this thread.
    public static func count(_ body: () throws -> Void) rethrows -> Int {
        caffe_malloc_counter_start()
        defer { _ = caffe_malloc_counter_stop() }
        try body()
        return Int(caffe_malloc_counter_stop())
    }
}
