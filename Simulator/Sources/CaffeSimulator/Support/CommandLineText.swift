import Foundation

/// A command line as text a shell would read back the same: what reports and journal headers
/// record as the command that made them.
public enum CommandLineText {
    /// `arguments` joined with spaces, each quoted when a shell would otherwise split or expand it
    /// (an empty argument becomes `''`).
    public static func quoted(_ arguments: [String]) -> String {
        arguments.map(quote).joined(separator: " ")
    }

    /// The command that started this process, named `name` (the path it was run by is left out).
    public static func current(as name: String) -> String {
        quoted([name] + CommandLine.arguments.dropFirst())
    }

    static func quote(_ argument: String) -> String {
        let plain =
            !argument.isEmpty
            && argument.unicodeScalars.allSatisfy { scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-_./:=@,+%^".unicodeScalars.contains(scalar)
            }
        if plain { return argument }
        return "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
