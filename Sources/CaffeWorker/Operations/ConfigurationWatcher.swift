import Foundation
import Logging
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// Reloads the catalog and menu when their files change, exactly as SIGHUP does
/// (``Worker/reload()``: the catalog probe first, the loaded catalog kept on refusal, counted and
/// logged), so a catalog delivered by a Kubernetes ConfigMap or a deployment tool reaches customers
/// without a restart.
///
/// It looks every `catalog_watch_ms` at a fingerprint of the files — path, size, modification
/// time and inode of every file under the catalog folder, and of the menu — following symbolic
/// links, so the atomic `..data` link swap of a ConfigMap volume is seen (its `..`-prefixed entries
/// are skipped). A change is reloaded once it has held still for one look, so files still being
/// copied are not read half-written. Polling rather than inotify: a ConfigMap update changes a link
/// above the watched folder, and a poll of a few dozen `stat`s costs less than handling that.
public struct ConfigurationWatcher: Service {
    /// What is watched.
    public let catalog: URL
    public let menu: URL
    /// Time between looks.
    public let interval: Duration
    private let reload: @Sendable () -> Void
    private let logger: Logger

    /// Watches `worker`'s catalog folder and menu every `configuration.catalogWatch`.
    public init(worker: Worker, configuration: WorkerConfiguration, logger: Logger) {
        let files = WorkerSetup.files(of: configuration)
        self.init(catalog: files.catalog, menu: files.menu, interval: configuration.catalogWatch, logger: logger) {
            try? worker.reload()
        }
    }

    /// Watches `catalog` and `menu`, calling `reload` on a change that held still.
    public init(
        catalog: URL,
        menu: URL,
        interval: Duration,
        logger: Logger,
        reload: @escaping @Sendable () -> Void
    ) {
        self.catalog = catalog
        self.menu = menu
        self.interval = interval
        self.logger = logger
        self.reload = reload
    }

    public func run() async throws {
        guard interval > .zero else { return }
        var loaded = fingerprint()
        var seen = loaded
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await gracefulShutdown(within: interval)
            } catch {
                return
            }
            let now = fingerprint()
            defer { seen = now }
            // Changed since the last reload, and the same as one look ago: the copy is done.
            guard now != loaded, now == seen else { continue }
            logger.notice(
                "configuration files changed: reloading",
                metadata: ["catalog": "\(catalog.path)", "menu": "\(menu.path)"]
            )
            reload()
            loaded = now
        }
    }

    /// Sleeps `interval`, throwing when the task is cancelled or the service group shuts down.
    private func gracefulShutdown(within interval: Duration) async throws {
        try await cancelWhenGracefulShutdown {
            try await Task.sleep(for: interval)
        }
    }

    /// Size, modification time and inode of every file, by path (links followed).
    func fingerprint() -> [String: FileStamp] {
        var stamps: [String: FileStamp] = [:]
        Self.walk(catalog.path, into: &stamps, depth: 0)
        Self.walk(menu.path, into: &stamps, depth: 0)
        return stamps
    }

    private static func walk(_ path: String, into stamps: inout [String: FileStamp], depth: Int) {
        var info = stat()
        guard depth < 8, stat(path, &info) == 0 else { return }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            for name in names where !name.hasPrefix("..") {
                walk(path + "/" + name, into: &stamps, depth: depth + 1)
            }
        } else {
            stamps[path] = FileStamp(
                size: Int64(info.st_size),
                modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                inode: UInt64(info.st_ino)
            )
        }
    }

    /// What a file's `stat` says about its contents.
    struct FileStamp: Hashable {
        var size: Int64
        var modified: Int64
        var inode: UInt64
    }
}
