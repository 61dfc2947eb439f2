import CHeapUsage
import Localization

/// What a session does with an order whose locale it has not compiled yet.
public enum NewLocalePolicy: Sendable, Hashable {
    /// Compile it now (its resources, and its wire program when the order goes that way).
    case compile
    /// Compile nothing: fail with ``RenderError/Code/localeNotReady``, so the caller can have
    /// the order rendered where compiling costs nobody else anything.
    case `defer`
    /// Compile nothing: render with the nearest compiled locale (its CLDR parent, or the default
    /// locale) and say so in a `locale-approximated` note.
    case approximate
}

/// One session's compiled locales: resources and order programs per ``FormattingLocale`` key,
/// bounded in bytes. A locale's bytes are the heap's growth while it was compiled (approximate:
/// other threads allocate too); past the bound the least recently used locales are evicted, the
/// default locale never. Owned by one ``RenderSession``.
final class LocaleCache {
    struct Entry {
        var resources: LocaleResources
        /// The wire program: not made yet (`nil`), or made (`.some`, `nil` inside when the
        /// locale's texts do not compile for the wire).
        var program: OrderProgram??
        var bytes: Int
    }

    private(set) var entries: [String: Entry] = [:]
    private(set) var statistics: LocaleCacheStatistics
    /// Stamps for least-recently-used order.
    private var clock: UInt64 = 0
    /// Keys by tag, for tags met before.
    private var keys: [String: String?] = [:]
    /// A key never evicted (the default locale, the approximation of last resort).
    var pinned: String?

    init(bound: Int) {
        statistics = LocaleCacheStatistics(bound: bound)
    }

    /// A new use stamp.
    func tick() -> UInt64 {
        clock += 1
        return clock
    }

    /// The formatting key of `tag` (the tag itself if ICU cannot read it).
    func key(for tag: String) -> String {
        if let known = keys[tag] { return known ?? tag }
        let key = FormattingLocale.key(for: tag)
        if keys.count >= 4096 { keys.removeAll(keepingCapacity: true) }
        keys[tag] = key
        return key ?? tag
    }

    func resources(_ key: String) -> LocaleResources? { entries[key]?.resources }

    /// The wire program of `key`: `nil` when not made; `.some(nil)` when its texts do not compile.
    func program(_ key: String) -> OrderProgram?? {
        guard let entry = entries[key] else { return nil }
        return entry.program
    }

    /// Compiles `key`'s resources with `make`, counting the heap's growth as its bytes.
    func compile(_ key: String, _ make: () throws(RenderError) -> LocaleResources) throws(RenderError) -> LocaleResources {
        let before = caffe_heap_in_use()
        let made = try make()
        made.lastUse = tick()
        let grown = caffe_heap_in_use() - before
        entries[key] = Entry(resources: made, program: nil, bytes: max(Self.minimumBytes, grown))
        statistics.compilations += 1
        account()
        return made
    }

    /// Compiles `key`'s wire program with `make` (whose resources must be cached).
    func compileProgram(_ key: String, _ make: () -> OrderProgram?) -> OrderProgram? {
        guard var entry = entries[key] else { return make() }
        let before = caffe_heap_in_use()
        let made = make()
        entry.bytes += max(0, caffe_heap_in_use() - before)
        entry.program = .some(made)
        entries[key] = entry
        account()
        return made
    }

    /// Forgets every wire program (their session's arena is starting over).
    func dropPrograms() {
        for key in Array(entries.keys) { entries[key]?.program = nil }
    }

    /// The evicted keys' resources are dropped here; the session clears what refers to them.
    /// Returns whether anything was evicted.
    private(set) var evictedSinceLastCheck = false

    func takeEvicted() -> Bool {
        defer { evictedSinceLastCheck = false }
        return evictedSinceLastCheck
    }

    private func account() {
        var total = entries.values.reduce(0) { $0 + $1.bytes }
        while total > statistics.bound, entries.count > 1 {
            // The least recently used, the pinned one excepted.
            guard
                let oldest = entries.filter({ $0.key != pinned }).min(by: {
                    $0.value.resources.lastUse < $1.value.resources.lastUse
                })
            else { break }
            total -= oldest.value.bytes
            entries[oldest.key] = nil
            statistics.evictions += 1
            evictedSinceLastCheck = true
        }
        statistics.bytes = total
        statistics.locales = entries.count
    }

    /// The least a compiled locale is counted as (ICU objects allocated before, reused, are not
    /// in the heap's growth).
    static let minimumBytes = 16 << 10
}

/// What a session's locale cache has done, for metrics.
public struct LocaleCacheStatistics: Sendable, Hashable {
    /// Locales compiled, and evicted to stay within the bound.
    public var compilations: UInt64 = 0
    public var evictions: UInt64 = 0
    /// Bytes the compiled locales hold now (approximate), and the bound.
    public var bytes = 0
    public var bound = 0
    /// Locales compiled and held.
    public var locales = 0

    public init(bound: Int = 0) {
        self.bound = bound
    }
}
