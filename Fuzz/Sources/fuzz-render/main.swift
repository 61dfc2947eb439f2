// Orders and complication requests rendered both ways the core can: from the body's bytes
// (`RenderSession.renderOrder(bytes:)`, which reads plain bodies in place and writes them with the
// locale's compiled program), and decoded by SwiftProtobuf, rendered as messages and encoded. The
// hand-written reader sees hostile bytes first, so the two must agree on every input: the same
// output bytes, or both refusing it with the same error.
//
// Input: an options byte (bit 0: tight limits; bit 1: a complication request, else an order), then
// frames (`FuzzInput.frames`), of which the first is the body.
import CaffeCore
import CaffeProtocol
import FuzzSupport
import SwiftProtobuf
import WireFuzzing

/// AddressSanitizer's options for this fuzzer: no leak checks. The core and its sessions live for
/// the whole run and cache per-locale templates as indirect enums, whose boxes Swift reaches
/// through pointers with tag bits set, which LeakSanitizer does not follow; it would report every
/// cache entry as leaked. The catalog, Markdown and agreement fuzzers check the same code for leaks
/// with values that die with each input. (Called before `main`, so the text is a literal here, not
/// a global of this file, which top-level code would initialize only later.)
@_cdecl("__asan_default_options")
func asanDefaultOptions() -> UnsafePointer<CChar> {
    let options: StaticString = "detect_leaks=0"
    return UnsafeRawPointer(options.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// The built-in configuration, as `make demo` and the worker use it.
let core: RenderingCore = {
    do {
        return try RenderingCore(configurationDirectory: ConfigurationDirectory.builtIn)
    } catch {
        FuzzDriver.fail("the built-in configuration does not load: \(error)")
    }
}()
/// SwiftProtobuf's encoding with map keys sorted, as the wire path and `ProtobufWriter` write them
/// (map order is otherwise unspecified, and a Swift dictionary's differs from process to process).
var sorted: BinaryEncodingOptions {
    var options = BinaryEncodingOptions()
    options.useDeterministicOrdering = true
    return options
}
/// One session per path, kept across inputs as a render thread keeps its own.
let wirePath = core.makeSession()
let messagePath = core.makeSession()

/// An outcome either path can have, comparable across the two.
enum Outcome: Equatable {
    case rendered([[UInt8]])
    case refused(String)
}

func outcome(_ body: () throws -> [[UInt8]]) -> Outcome {
    do {
        return .rendered(try body())
    } catch {
        return .refused("\(type(of: error)): \(error)")
    }
}

func compare(_ wire: Outcome, _ messages: Outcome, _ what: String) {
    guard wire != messages else { return }
    if case .rendered(let a) = wire, case .rendered(let b) = messages, a.count == b.count,
        let output = a.indices.first(where: { a[$0] != b[$0] })
    {
        let at = zip(a[output], b[output]).prefix { $0 == $1 }.count
        func around(_ bytes: [UInt8]) -> String {
            String(decoding: bytes[max(0, at - 40)..<min(bytes.count, at + 60)], as: UTF8.self).debugDescription
        }
        FuzzDriver.fail(
            "the \(what) paths differ in output \(output) at byte \(at): wire \(around(a[output])), messages \(around(b[output]))"
        )
    }
    FuzzDriver.fail("the \(what) wire path gives \(wire), the message path \(messages)")
}

FuzzDriver.run { input in
    var input = input
    let options = input.byte()
    let limits = options & 1 == 0 ? CaffeProtocolLimits.standard : WireFuzzing.tightLimits
    let body = input.frames().first ?? []
    if options & 2 == 0 {
        let wire = outcome {
            try body.withUnsafeBytes { bytes in
                let rendered = try wirePath.renderOrder(bytes: bytes, limits: limits)
                return [Array(rendered.confirmation), Array(rendered.receipt), Array(rendered.storeID.utf8)]
            }
        }
        let messages = outcome {
            let order = try body.withUnsafeBytes { bytes in
                try EventFrames.decodeBody(Caffe_V1_OrderEvent.self, bytes: bytes, limits: limits)
            }
            let rendered = try messagePath.render(order)
            return [
                try rendered.confirmation.serializedBytes(options: sorted),
                try rendered.receipt.serializedBytes(options: sorted),
                Array(order.storeID.utf8),
            ]
        }
        compare(wire, messages, "order")
    } else {
        let wire = outcome {
            try body.withUnsafeBytes { bytes in
                let rendered = try wirePath.renderComplication(bytes: bytes, limits: limits)
                return [Array(rendered.payload), Array(rendered.userID.utf8)]
            }
        }
        let messages = outcome {
            let request = try body.withUnsafeBytes { bytes in
                try EventFrames.decodeBody(Caffe_V1_ComplicationRequest.self, bytes: bytes, limits: limits)
            }
            return [try messagePath.complication(request).serializedBytes(options: sorted), Array(request.userID.utf8)]
        }
        compare(wire, messages, "complication")
    }
}
