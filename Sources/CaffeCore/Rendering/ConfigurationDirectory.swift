import Foundation

/// Where the executables find `config/` (the catalog folder `Localizations/` and `menu.json`).
public enum ConfigurationDirectory {
    /// The environment variable that names the folder.
    public static let environmentVariable = "CAFFE_CONFIG"

    /// `explicit` when given; else `$CAFFE_CONFIG`; else `./config` when it exists; else
    /// `../etc/caffe` beside the executable when it exists (the layout of `make dist`); else the
    /// `config/` folder of the source tree these executables were built from (the embedded default).
    public static func resolve(_ explicit: String? = nil) -> URL {
        if let explicit, !explicit.isEmpty { return URL(fileURLWithPath: explicit, isDirectory: true) }
        if let fromEnvironment = ProcessInfo.processInfo.environment[environmentVariable], !fromEnvironment.isEmpty {
            return URL(fileURLWithPath: fromEnvironment, isDirectory: true)
        }
        let local = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("config")
        if FileManager.default.fileExists(atPath: local.appendingPathComponent("menu.json").path) { return local }
        if let release, FileManager.default.fileExists(atPath: release.appendingPathComponent("menu.json").path) {
            return release
        }
        return builtIn
    }

    /// `etc/caffe` of a release: `../etc/caffe` from the running executable's folder.
    static var release: URL? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        return URL(fileURLWithPath: executable)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("etc/caffe", isDirectory: true)
    }

    /// `config/` beside `Sources/` in the tree this file was compiled from.
    public static var builtIn: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Rendering
            .deletingLastPathComponent()  // CaffeCore
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // repository
            .appendingPathComponent("config", isDirectory: true)
    }
}
