import ArgumentParser
import Foundation
import Localization

extension StringCatalog {
    /// The catalog at `path` (a folder or one catalog file) for a command; a path that is neither
    /// exits 1 with the reason on standard error, prefixed with the command's name.
    static func load(_ path: String, developmentLanguage: String?, command: String) throws -> StringCatalog {
        do {
            return try StringCatalog(contentsOf: URL(fileURLWithPath: path), developmentLanguage: developmentLanguage)
        } catch {
            FileHandle.standardError.write(Data("caffe \(command): \(error)\n".utf8))
            throw ExitCode(1)
        }
    }
}
