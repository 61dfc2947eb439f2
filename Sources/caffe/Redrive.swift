import ArgumentParser
import CaffeClient
import CaffeProtocol
import CaffeTransport
import Foundation
import SwiftProtobuf
import ZeroMQ

/// `caffe redrive`: asks a worker to render dead-lettered events again (`caffe.v1.Admin/Redrive`),
/// after the cause was fixed (a catalog, a menu). The worker renders each letter's original event
/// outside its sequence books: not taken for a duplicate, completing nothing, its outputs marked
/// `redriven: "true"` in their metadata (consumers de-duplicate by order id as ever).
struct Redrive: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Have a worker render dead letters again (caffe.v1.Admin/Redrive).",
        discussion: """
            The file holds dead letters as a consumer of the dead-letter topic received them, one \
            per line in protobuf's JSON form (Python: json_format.MessageToJson(letter, indent=None)). \
            Letters that kept no event (an unrecoverable gap, an oversized message) are refused. \
            Exit status: 0 when every letter was accepted, 1 otherwise.
            """
    )

    @Option(help: "The worker's RPC endpoint (rpc.endpoint), as a client connects to it.")
    var rpc: String = "tcp://127.0.0.1:5562"

    @Option(help: "Seconds to wait for each answer.")
    var timeout: Double = 5

    @Argument(help: "A file of dead letters, one JSON object per line (- or none: standard input).")
    var file: String?

    func run() async throws {
        let text: String
        if let file, file != "-" {
            text = try String(contentsOf: URL(fileURLWithPath: file), encoding: .utf8)
        } else {
            text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        var options = RPCClient.Options()
        options.timeout = .milliseconds(Int64(timeout * 1000))
        let client = try RPCClient(endpoint: rpc, options: options)
        var accepted = 0
        var refused = 0
        for (number, line) in text.split(separator: "\n").enumerated() where !line.allSatisfy(\.isWhitespace) {
            let letter: Caffe_V1_DeadLetter
            do {
                letter = try Caffe_V1_DeadLetter(jsonString: String(line))
            } catch {
                refused += 1
                print("line \(number + 1): not a DeadLetter in JSON: \(error)")
                continue
            }
            let reference = "\(letter.ref.sourceID) #\(letter.ref.sequence) \(letter.ref.orderID)"
            do {
                try await client.redrive(letter)
                accepted += 1
                print("line \(number + 1): \(reference): redriven")
            } catch {
                guard case .status(let status, _) = error else {
                    throw ValidationError("no answer from \(rpc) within \(timeout) s")
                }
                refused += 1
                print("line \(number + 1): \(reference): \(status.code.grpcName): \(status.message)")
            }
        }
        print("\(accepted) redriven, \(refused) refused")
        if refused > 0 { throw ExitCode(1) }
    }
}
