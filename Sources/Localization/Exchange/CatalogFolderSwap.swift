import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Replaces a catalog folder's files all at once: the folder is copied beside itself (same file
/// system), the changed files are written into the copy with the modes of the files they replace,
/// and the copy is exchanged with the folder in one `renameat2(RENAME_EXCHANGE)` — so a failure
/// or a kill at any moment leaves the folder all old or all new, never a mix. The old folder,
/// now under the staging name, is removed after; a staging folder left by a killed import is
/// removed by the next one (its process is gone).
///
/// A file the import may not write (read-only, immutable) stops it before anything changes.
/// Staging folders are named `.<folder>.caffe-import-<pid>-<random>` beside the folder.
public enum CatalogFolderSwap {
    /// Why the folder could not be replaced; nothing in it changed.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Writes `files` (paths relative to `folder`) into `folder` all at once.
    public static func replace(files: [String: [UInt8]], in folder: URL) throws(Failure) {
        guard !files.isEmpty else { return }
        let target = folder.resolvingSymlinksInPath()
        try refuseLinks(files, in: target)
        // A file that may not be written (read-only to this user, immutable) is not replaced
        // behind its owner's back by the swap: the import stops before anything changes.
        for path in files.keys.sorted() {
            let url = target.appendingPathComponent(path)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let descriptor = open(url.path, O_WRONLY | O_APPEND)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                throw Failure(description: "cannot write \(path): \(reason) (nothing changed)")
            }
            close(descriptor)
        }
        removeAbandoned(besides: target)
        let staging = try stage(target)
        // Before the exchange the copy is the new catalog, after it the old one: removed either way.
        defer { try? FileManager.default.removeItem(at: staging) }
        do {
            for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
                let url = staging.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(),
                    withIntermediateDirectories: true
                )
                let mode = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.posixPermissions]
                try Data(bytes).write(to: url)
                if let mode { try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path) }
            }
        } catch {
            throw Failure(description: "cannot write the merged files (nothing changed): \(error.localizedDescription)")
        }
        try exchange(staging, target)
    }

    /// Refuses files whose path inside `folder` passes through a symbolic link: a write into the
    /// staged copy would follow it to the live file (before the swap, or in a dry run).
    public static func refuseLinks(_ files: [String: [UInt8]], in folder: URL) throws(Failure) {
        let root = folder.resolvingSymlinksInPath().standardizedFileURL.path
        for path in files.keys.sorted() {
            var url = folder.resolvingSymlinksInPath().appendingPathComponent(path)
            // The deepest part that exists decides: a missing file is made where its folder is.
            while !FileManager.default.fileExists(atPath: url.path), url.path.count > root.count {
                url = url.deletingLastPathComponent()
            }
            let resolved = url.resolvingSymlinksInPath().standardizedFileURL.path
            let expected = url.standardizedFileURL.path
            let linked =
                resolved != expected
                || (try? FileManager.default.destinationOfSymbolicLink(atPath: url.path)) != nil
            if linked {
                throw Failure(
                    description: "\(path) is reached through a symbolic link; import writes regular files "
                        + "only (nothing changed)"
                )
            }
        }
    }

    /// A copy of `folder` beside it, modes kept.
    static func stage(_ folder: URL) throws(Failure) -> URL {
        let staging = folder.deletingLastPathComponent().appendingPathComponent(
            ".\(folder.lastPathComponent).caffe-import-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        )
        do {
            try FileManager.default.copyItem(at: folder, to: staging)
            try copyModes(from: folder, to: staging)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw Failure(description: "cannot stage a copy of \(folder.path): \(error.localizedDescription)")
        }
        return staging
    }

    /// Gives every file and folder of `copy` the mode of its original in `original`.
    private static func copyModes(from original: URL, to copy: URL) throws {
        let manager = FileManager.default
        if let mode = try manager.attributesOfItem(atPath: original.path)[.posixPermissions] {
            try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: copy.path)
        }
        guard let paths = manager.subpaths(atPath: original.path) else { return }
        for path in paths {
            let from = original.appendingPathComponent(path).path
            guard let attributes = try? manager.attributesOfItem(atPath: from),
                attributes[.type] as? FileAttributeType != .typeSymbolicLink,
                let mode = attributes[.posixPermissions]
            else { continue }
            try manager.setAttributes([.posixPermissions: mode], ofItemAtPath: copy.appendingPathComponent(path).path)
        }
    }

    private typealias RenameAt2 =
        @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) ->
        Int32

    /// `renameat2`, looked up at run time (Swift's Glibc module does not declare it).
    private static let renameat2: RenameAt2? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
    }()

    /// Exchanges two folders atomically.
    static func exchange(_ first: URL, _ second: URL) throws(Failure) {
        guard let renameat2 else {
            throw Failure(description: "this system has no renameat2: the catalog cannot be replaced atomically")
        }
        let exchangeFlag: UInt32 = 1 << 1  // RENAME_EXCHANGE
        guard renameat2(AT_FDCWD, first.path, AT_FDCWD, second.path, exchangeFlag) == 0 else {
            let reason = String(cString: strerror(errno))
            throw Failure(description: "cannot swap in the merged catalog (nothing changed): \(reason)")
        }
    }

    /// Removes staging folders of imports whose process is gone.
    static func removeAbandoned(besides folder: URL) {
        let parent = folder.deletingLastPathComponent()
        let prefix = ".\(folder.lastPathComponent).caffe-import-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap { Int32($0) } ?? 0
            guard pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }
}
