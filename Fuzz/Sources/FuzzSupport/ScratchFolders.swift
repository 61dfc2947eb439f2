import FoundationEssentials

#if canImport(Glibc)
import Glibc
#endif

/// Folders a fuzzer writes its inputs to, removed when it exits normally (after a crash they
/// stay, with the input that crashed inside), and the files in them.
public enum ScratchFolders {
    /// Registered folders; set up before fuzzing starts, on the main thread.
    nonisolated(unsafe) private static var folders: [URL] = []

    /// Replaces the contents of `file` with `data`: plain POSIX calls, because `Data.write(to:)`
    /// also synchronises the file to disk, a cost per input that tells nothing.
    public static func write(_ data: Data, to file: URL) {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { FuzzDriver.fail("cannot open \(file.path): errno \(errno)") }
        defer { close(descriptor) }
        let written = data.withUnsafeBytes { buffer in
            buffer.isEmpty ? 0 : Glibc.write(descriptor, buffer.baseAddress, buffer.count)
        }
        guard written == data.count else { FuzzDriver.fail("cannot write \(file.path): errno \(errno)") }
    }

    /// Removes `folder` and everything in it when the process exits.
    public static func removeAtExit(_ folder: URL) {
        if folders.isEmpty {
            atexit {
                for folder in ScratchFolders.folders { try? FileManager.default.removeItem(at: folder) }
            }
        }
        folders.append(folder)
    }
}
