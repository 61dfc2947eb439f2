import ArgumentParser
import CaffeBooks
import CaffeProtocol
import CaffeWorker
import Foundation

/// `caffe checkpoint`: what a worker's checkpoint holds, and moving entries between shards.
struct CheckpointCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkpoint",
        abstract: "Show a worker's checkpoint, or move its entries to other shards.",
        subcommands: [Show.self, Reshard.self]
    )

    /// `caffe checkpoint show`: each source's mark, and with `--shards` the shard that owns it.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print each source's mark (snapshot and journal read as the worker reads them).",
            discussion: "One line per source: source (epoch), mark, given-up ranges, pinned endpoint, owner."
        )

        @Option(help: "Also print the shard that owns each source among this many (input.shard).")
        var shards: Int?

        @Argument(help: "The checkpoint file (checkpoint.path).")
        var file: String

        func validate() throws {
            if let shards, !(1...ShardAssignment.maximumCount).contains(shards) {
                throw ValidationError("--shards must be 1 to \(ShardAssignment.maximumCount)")
            }
        }

        func run() throws {
            let checkpoint = try CheckpointCommand.read(file)
            let keys = Set(checkpoint.sources.keys).union(checkpoint.givenUp.keys).union(checkpoint.endpoints.keys)
            for key in keys.sorted() {
                var line = "\(Identifier.printable(SourceStream.describe(key)))  mark \(checkpoint.sources[key] ?? 0)"
                if let ranges = checkpoint.givenUpRanges[key], !ranges.isEmpty {
                    line += "  given up " + ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ",")
                }
                if let endpoint = checkpoint.endpoints[key] { line += "  replay \(Identifier.printable(endpoint))" }
                if let shards {
                    line +=
                        "  shard \(ShardAssignment.shard(of: SourceStream.split(key).source, among: shards))/\(shards)"
                }
                print(line)
            }
        }
    }

    /// `caffe checkpoint reshard`: the split or merge step of changing the number of shards.
    struct Reshard: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Move checkpoint entries to the shards that own their sources among a new number of shards.",
            discussion: """
                Give the checkpoints of every old shard, shard 0 first, with the workers stopped \
                (drained). Writes <output>/shard-<i>.checkpoint for each new shard, with an empty \
                journal beside it; install each as that shard's checkpoint.path (journal included) \
                and start the workers with input.shard i/N. A source found in two inputs keeps its \
                lowest mark (what lies between is rendered again, never lost); two different pinned \
                replay endpoints for one source are refused (exit 1).
                """
        )

        @Option(help: "The new number of shards.")
        var to: Int

        @Option(help: "The folder to write the new checkpoints to (created; existing shard files are replaced).")
        var output: String

        @Argument(help: "The old shards' checkpoint files, shard 0 first.")
        var files: [String]

        func validate() throws {
            guard (1...ShardAssignment.maximumCount).contains(to) else {
                throw ValidationError("--to must be 1 to \(ShardAssignment.maximumCount)")
            }
            guard !files.isEmpty else { throw ValidationError("give the old shards' checkpoint files") }
        }

        func run() throws {
            let inputs = try files.map(CheckpointCommand.read)
            let result: CheckpointReshard.Result
            do {
                result = try CheckpointReshard.reshard(inputs, into: to)
            } catch {
                throw CheckpointCommand.failure("\(error)")
            }
            let folder = URL(fileURLWithPath: output, isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for (shard, checkpoint) in result.checkpoints.enumerated() {
                    let file = folder.appendingPathComponent("shard-\(shard).checkpoint")
                    try checkpoint.write(to: file)
                    try Data().write(to: Checkpoint.journalURL(for: file))
                }
            } catch {
                throw CheckpointCommand.failure("cannot write to \(output): \(error)")
            }
            let total = result.checkpoints.reduce(0) { $0 + $1.sources.count }
            print("\(total) sources from \(files.count) shard\(files.count == 1 ? "" : "s") into \(to):")
            for (shard, checkpoint) in result.checkpoints.enumerated() {
                print(
                    "  shard-\(shard).checkpoint  \(checkpoint.sources.count) sources, \(result.movedIn[shard]) moved in"
                )
            }
            for key in result.overlapping {
                print(
                    "  note: \(Identifier.printable(SourceStream.describe(key))) was in more than one input; its lowest mark is kept"
                )
            }
        }
    }

    /// Reads a checkpoint an operator named: a name with neither a snapshot nor a journal is a
    /// mistake here (the worker takes it for a first start), and a torn journal line is said.
    static func read(_ path: String) throws -> Checkpoint {
        let reading: Checkpoint.Reading
        do {
            reading = try Checkpoint.reading(URL(fileURLWithPath: path))
        } catch {
            throw failure("\(error)")
        }
        guard reading.existed else {
            throw failure("\(path): no such checkpoint (neither the file nor \(path).journal exists)")
        }
        if let torn = reading.tornLine {
            FileHandle.standardError.write(Data("caffe checkpoint: warning: \(torn)\n".utf8))
        }
        return reading.checkpoint
    }

    /// Says `message` on standard error; the exit status to throw (1, without the usage text).
    static func failure(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("caffe checkpoint: \(message)\n".utf8))
        return ExitCode(1)
    }
}
