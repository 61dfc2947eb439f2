// Caffe — CaffeProtocol tests.
import CaffeProtocol
import CaffeProtocolFixtures
import CaffeTestKit
import FoundationEssentials
import SwiftProtobuf
import Testing

/// Untrusted bytes must never crash a receiver: every path ends in a value or a ``CaffeProtocolError``.
@Suite("Hostile bytes")
struct HostileBytesTests {
    /// An event whose body frame is `body`, with a valid OrderEvent header.
    func event(body: [UInt8], limits: CaffeProtocolLimits = .standard) throws -> EventFrames {
        let header = EventFrames.header(for: Fixtures.order())
        return try EventFrames(parsing: [frame("order.sf-1"), frame(wire(header)), frame(body)], limits: limits)
    }

    /// What decoding one body produced, comparable across runs.
    enum Outcome: Hashable {
        case decoded([UInt8])
        case failed(String)
    }

    // MARK: Truncation

    @Test func everyTruncationOfAnOrderDecodesAtFieldBoundariesAndIsMalformedElsewhere() throws {
        let order = Fixtures.order()
        let body = try wire(order)
        let boundaries = Set([0] + Wire.fieldEnds(body))
        // The empty prefix, then 9 singular fields and one entry per order line.
        #expect(boundaries.count == 1 + 9 + 2)
        #expect(boundaries.contains(body.count))

        var decodedLengths: [Int] = []
        for length in 0...body.count {
            let prefix = Array(body.prefix(length))
            let event = try event(body: prefix)
            switch Result(catching: { () throws(CaffeProtocolError) in
                try event.decodeBody(as: Caffe_V1_OrderEvent.self)
            }) {
            case .success(let decoded):
                decodedLengths.append(length)
                // A prefix that decodes is exactly the fields before the cut: re-encoding gives it back.
                #expect(try wire(decoded) == prefix, "prefix of \(length) bytes")
                #expect(decoded.unknownFields.data.isEmpty)
            case .failure(let error):
                #expect(error.code == .malformed, "prefix of \(length) bytes")
                #expect(error.message.hasPrefix("event body is not a valid caffe.v1.OrderEvent: "))
            }
        }
        #expect(decodedLengths == boundaries.sorted())
        #expect(try event(body: body).decodeBody(as: Caffe_V1_OrderEvent.self) == order)
    }

    @Test func truncatedPrefixesAtFieldBoundariesAreValidOnlyOnceTheRequiredFieldsAreIn() throws {
        // Prefixes that stop before `lines` lack a required field. Once the first line is in, a
        // prefix is a valid, smaller order: protobuf cannot tell a cut at a field boundary from a
        // shorter message, so integrity rests on ZeroMQ delivering frames whole.
        let body = try wire(Fixtures.order())
        let ends = Wire.fieldEnds(body)
        let fields = try ends.dropLast().map { end in
            let decoded = try event(body: Array(body.prefix(end))).decodeBody(as: Caffe_V1_OrderEvent.self)
            return validationError(of: decoded)?.field
        }
        #expect(
            fields == [
                "source_id", "sequence", "placed_at", "store_id", "customer", "currency_code", "lines", nil, nil, nil,
            ]
        )
    }

    @Test func everyTruncationOfAHeaderIsHandled() throws {
        var header = EventFrames.header(
            for: Fixtures.order(),
            sentAt: Google_Protobuf_Timestamp(seconds: 12, nanos: 34)
        )
        header.metadata = ["trace-id": "abc"]
        let bytes = try wire(header)
        var codes: [CaffeProtocolError.Code?] = []
        for length in 0...bytes.count {
            let frames = [try frame("order.sf-1"), try frame(Array(bytes.prefix(length))), try frame([])]
            codes.append(protocolError(try EventFrames(parsing: frames))?.code)
        }
        let boundaries = Set(Wire.fieldEnds(bytes))
        for (length, code) in codes.enumerated() {
            if length == 0 {
                #expect(code == .missingField)
            } else if boundaries.contains(length) {
                #expect(code == nil, "prefix of \(length) bytes")
            } else {
                #expect(code == .malformed, "prefix of \(length) bytes")
            }
        }
    }

    // MARK: Garbage corpus

    static func corpus() -> [[UInt8]] {
        var generator = SplitMix64(seed: 0xCAFE_F00D)
        return (0..<2000).map { _ in generator.bytes(generator.next(below: 301)) }
    }

    @Test func splitMix64IsTheReferenceSequence() {
        // Reference values of SplitMix64 for seed 0.
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func corpusCoversLengthsZeroToThreeHundred() {
        let corpus = Self.corpus()
        #expect(corpus.count == 2000)
        #expect(corpus.map(\.count).min() == 0)
        #expect(corpus.map(\.count).max() == 300)
        #expect(Self.corpus() == corpus)
    }

    func bodyOutcome(_ bytes: [UInt8]) throws -> Outcome {
        let event = try event(body: bytes)
        switch Result(catching: { () throws(CaffeProtocolError) in try event.decodeBody(as: Caffe_V1_OrderEvent.self) })
        {
        case .success(let order):
            // Whatever decoded must survive its own round trip and validation must answer.
            let reencoded = try wire(order)
            #expect(try Caffe_V1_OrderEvent(serializedBytes: reencoded) == order)
            if let error = validationError(of: order) {
                #expect([CaffeProtocolError.Code.missingField, .invalidField].contains(error.code))
                #expect(error.field != nil)
            }
            return .decoded(reencoded)
        case .failure(let error):
            #expect(error.code == .malformed)
            #expect(error.field == nil)
            return .failed(error.code.description)
        }
    }

    @Test func garbageBodiesDecodeOrAreMalformed() throws {
        let corpus = Self.corpus()
        let outcomes = try corpus.map(bodyOutcome)
        #expect(outcomes.count == 2000)
        // The empty input is the empty message.
        let firstEmpty = corpus.firstIndex { $0.isEmpty }
        let emptyIndex = try #require(firstEmpty)
        #expect(outcomes[emptyIndex] == .decoded([]))
        // Decoding is a function of the bytes: a second pass gives the same outcome for every input.
        #expect(try corpus.map(bodyOutcome) == outcomes)
    }

    @Test func garbageBodiesDecodeOrAreMalformedForEveryBodyType() throws {
        var generator = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let bytes = generator.bytes(generator.next(below: 301))
            try expectDecodesOrMalformed(Caffe_V1_ComplicationRequest.self, bytes)
            try expectDecodesOrMalformed(Caffe_V1_DeadLetter.self, bytes)
            try expectDecodesOrMalformed(Caffe_V1_Receipt.self, bytes)
            try expectDecodesOrMalformed(Caffe_V1_ReplayResponse.self, bytes)
            try expectDecodesOrMalformed(Caffe_V1_StatsResponse.self, bytes)
        }
    }

    /// Decodes `bytes` as the body of an event announcing `type`: a message or `.malformed`.
    func expectDecodesOrMalformed<Body: SwiftProtobuf.Message>(_ type: Body.Type, _ bytes: [UInt8]) throws {
        var header = Caffe_V1_EventHeader()
        header.bodyType = Body.protoMessageName
        let event = try EventFrames(parsing: [frame("t"), frame(wire(header)), frame(bytes)])
        if let error = protocolError(try event.decodeBody(as: type)) {
            #expect(error.code == .malformed, "\(Body.protoMessageName)")
        }
    }

    /// 2000 copies of a valid order body, each with one to four bytes overwritten at
    /// pseudo-random positions: unlike pure noise, most keep a plausible structure, so the
    /// decoder gets deep before anything goes wrong.
    static func mutants(of bytes: [UInt8], seed: UInt64) -> [[UInt8]] {
        var generator = SplitMix64(seed: seed)
        return (0..<2000).map { _ in
            var mutant = bytes
            for _ in 0...generator.next(below: 4) {
                mutant[generator.next(below: mutant.count)] = UInt8(truncatingIfNeeded: generator.next())
            }
            return mutant
        }
    }

    @Test func mutatedOrderBodiesDecodeOrAreMalformed() throws {
        let mutants = Self.mutants(of: try wire(Fixtures.order()), seed: 0x0DE1_1CA7)
        let outcomes = try mutants.map(bodyOutcome)
        #expect(outcomes.count == 2000)
        #expect(try mutants.map(bodyOutcome) == outcomes)
    }

    @Test func mutatedEventHeadersParseOrFailWithMalformedOrMissingBodyType() throws {
        let header = EventFrames.header(
            for: Fixtures.order(),
            sentAt: Google_Protobuf_Timestamp(seconds: 12, nanos: 34)
        )
        let body = try frame(wire(Fixtures.order()))
        for bytes in Self.mutants(of: try wire(header), seed: 0xBEEF) {
            let frames = [try frame("order.sf-1"), try frame(bytes), body]
            switch Result(catching: { () throws(CaffeProtocolError) in try EventFrames(parsing: frames) }) {
            case .success(let event):
                #expect(!event.header.bodyType.isEmpty)
                if event.header.bodyType == "caffe.v1.OrderEvent" {
                    // The body is intact, so a header that still names its type decodes it.
                    #expect(try event.decodeBody(as: Caffe_V1_OrderEvent.self) == Fixtures.order())
                } else {
                    let mismatch = protocolError(try event.decodeBody(as: Caffe_V1_OrderEvent.self))
                    #expect(mismatch?.code == .unexpectedBodyType)
                }
            case .failure(let error):
                // invalidField: a mutated id now holds a control character (the identifier rule).
                #expect([CaffeProtocolError.Code.malformed, .missingField, .invalidField].contains(error.code))
                if error.code == .invalidField { #expect(["source_id", "order_id"].contains(error.field)) }
            }
        }
    }

    @Test func garbageEventHeadersParseOrFailWithMalformedOrMissingBodyType() throws {
        let body = try frame(wire(Fixtures.order()))
        for bytes in Self.corpus() {
            let frames = [try frame("order.sf-1"), try frame(bytes), body]
            do {
                let event = try EventFrames(parsing: frames)
                #expect(!event.header.bodyType.isEmpty)
                #expect(event.headerFrame.bytes == bytes)
                // The header names some other type (or garbage), so the body is not decoded blindly.
                if event.header.bodyType != "caffe.v1.OrderEvent" {
                    let mismatch = protocolError(try event.decodeBody(as: Caffe_V1_OrderEvent.self))
                    #expect(mismatch?.code == .unexpectedBodyType)
                    #expect(mismatch?.field == "body_type")
                }
            } catch {
                #expect([CaffeProtocolError.Code.malformed, .missingField, .invalidField].contains(error.code))
                if error.code == .missingField { #expect(error.field == "body_type") }
            }
        }
    }

    @Test func garbageRequestAndResponseHeadersAreHandled() throws {
        let body = try frame(wire(Fixtures.order()))
        for bytes in Self.corpus() {
            let request = [try frame(Fixtures.routingA), ByteFrame(), try frame(bytes), body]
            if let error = protocolError(try RequestFrames(parsing: request)) {
                #expect([CaffeProtocolError.Code.malformed, .missingField].contains(error.code))
                if error.code == .missingField { #expect(["method", "request_id"].contains(error.field)) }
            }
            let response = [ByteFrame(), try frame(bytes), body]
            if let error = protocolError(try ResponseFrames(parsing: response)) {
                // A response header has no required fields; an empty garbage frame is just the defaults.
                #expect(error.code == .malformed)
            }
        }
    }

    @Test func garbageFrameListsNeverCrashTheEnvelopeParsers() throws {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<500 {
            // 0–6 frames, each empty a third of the time, otherwise up to 40 random bytes.
            let frames = try (0..<generator.next(below: 7)).map { _ in
                try frame(generator.next(below: 3) == 0 ? [] : generator.bytes(1 + generator.next(below: 40)))
            }
            for error in [
                protocolError(try EventFrames(parsing: frames)),
                protocolError(try RequestFrames(parsing: frames)),
                protocolError(try ResponseFrames(parsing: frames)),
            ].compactMap({ $0 }) {
                #expect(
                    [CaffeProtocolError.Code.wrongFrameCount, .missingDelimiter, .malformed, .missingField].contains(
                        error.code
                    )
                )
            }
        }
    }

    // MARK: Nesting

    @Test func tenThousandBytesOfNestedLengthPrefixesAreMalformed() throws {
        // 0x32 is field 6 (customer), length-delimited; 0x80 0x01 claims 128 bytes, again and again.
        let bytes = Array([UInt8]([0x32, 0x80, 0x01]).repeated(3334).prefix(10_000))
        #expect(bytes.count == 10_000)
        let hostile = try event(body: bytes)
        let error = try failure(try hostile.decodeBody(as: Caffe_V1_OrderEvent.self))
        #expect(error.code == .malformed)
    }

    /// `depth` nested unknown groups of field 15: start-group tags (0x7B), then end-group tags (0x7C).
    func nestedGroups(_ depth: Int) -> [UInt8] {
        [UInt8](repeating: 0x7B, count: depth) + [UInt8](repeating: 0x7C, count: depth)
    }

    @Test func fiveThousandNestedGroupsAreMalformedNotAStackOverflow() throws {
        let bytes = nestedGroups(5_000)
        #expect(bytes.count == 10_000)
        let hostile = try event(body: bytes)
        let error = try failure(try hostile.decodeBody(as: Caffe_V1_OrderEvent.self))
        #expect(error.code == .malformed)
        #expect(error.message.contains("messageDepthLimit"))
    }

    @Test func nestingIsAcceptedUpToTheDepthLimitAndRejectedBeyond() throws {
        // The message itself is one level, so 31 nested groups fit in the standard depth of 32.
        let fits = try event(body: nestedGroups(31)).decodeBody(as: Caffe_V1_OrderEvent.self)
        #expect(Array(fits.unknownFields.data) == nestedGroups(31))
        let hostile = try event(body: nestedGroups(32))
        let tooDeep = try failure(try hostile.decodeBody(as: Caffe_V1_OrderEvent.self))
        #expect(tooDeep.code == .malformed)

        let deeper = CaffeProtocolLimits(messageDepthLimit: 101)
        let accepted = try event(body: nestedGroups(100), limits: deeper).decodeBody(as: Caffe_V1_OrderEvent.self)
        #expect(Array(accepted.unknownFields.data) == nestedGroups(100))
    }

    @Test func depthLimitAppliesToKnownNestedMessages() throws {
        // ReplayResponse > OrderEvent > Customer: three levels.
        var replay = Caffe_V1_ReplayResponse()
        replay.events = [Fixtures.order()]
        replay.unavailable = [3, 5]
        let request = try RequestFrames(
            parsing: RequestFrames.encode(
                header: Fixtures.requestHeader(method: CaffeMethod.replayFetch),
                body: Caffe_V1_ReplayRequest()
            )
        )
        let reply = try request.reply(status: .ok, body: replay)

        let shallow = try ResponseFrames(parsing: reply, limits: CaffeProtocolLimits(messageDepthLimit: 2))
        let error = try failure(try shallow.decodeBody(as: Caffe_V1_ReplayResponse.self))
        #expect(error.code == .malformed)
        #expect(error.message.hasPrefix("response body is not a valid caffe.v1.ReplayResponse: "))

        let enough = try ResponseFrames(parsing: reply, limits: CaffeProtocolLimits(messageDepthLimit: 3))
        #expect(try enough.decodeBody(as: Caffe_V1_ReplayResponse.self) == replay)
    }

    @Test func mismatchedEndGroupIsMalformed() throws {
        // Start group 15, end group 14.
        let hostile = try event(body: [0x7B, 0x74])
        let error = try failure(try hostile.decodeBody(as: Caffe_V1_OrderEvent.self))
        #expect(error.code == .malformed)
    }

    @Test func unterminatedVarintIsMalformed() throws {
        // sequence (field 3) followed by ten continuation bytes.
        let bytes: [UInt8] = [0x18] + [UInt8](repeating: 0xFF, count: 10)
        let hostile = try event(body: bytes)
        let unterminated = try failure(try hostile.decodeBody(as: Caffe_V1_OrderEvent.self))
        #expect(unterminated.code == .malformed)
    }

    @Test func invalidUTF8InAStringFieldIsMalformed() throws {
        // order_id (field 1) holding 0xC3 0x28, which is not UTF-8.
        let bytes: [UInt8] = [0x0A, 0x02, 0xC3, 0x28]
        let hostile = try event(body: bytes)
        let badUTF8 = try failure(try hostile.decodeBody(as: Caffe_V1_OrderEvent.self))
        #expect(badUTF8.code == .malformed)
    }

    @Test func knownFieldWithTheWrongWireTypeIsKeptAsUnknownAndFailsValidation() throws {
        // customer (field 6) sent as a varint. SwiftProtobuf, like the reference implementations,
        // keeps a field whose wire type does not match its declaration as an unknown field, so
        // decoding succeeds and validation is what rejects the order.
        var order = Fixtures.order()
        order.clearCustomer()
        let body = try wire(order) + [0x30, 0x01]
        let decoded = try event(body: body).decodeBody(as: Caffe_V1_OrderEvent.self)
        #expect(!decoded.hasCustomer)
        #expect(Array(decoded.unknownFields.data) == [0x30, 0x01])
        let error = try invalidity(of: decoded)
        #expect(error.code == .missingField)
        #expect(error.field == "customer")
    }

    // MARK: Unknown fields

    @Test func unknownTrailingFieldIsToleratedAndKept() throws {
        let order = Fixtures.order()
        // Field 999, varint, value 42: tag 999 << 3 = 7992 = 0xB8 0x3E.
        let unknown = Wire.tag(999, wireType: 0) + Wire.varint(42)
        #expect(unknown == [0xB8, 0x3E, 0x2A])
        let body = try wire(order) + unknown

        var decoded = try event(body: body).decodeBody(as: Caffe_V1_OrderEvent.self)
        #expect(decoded.orderID == "ord-0001")
        #expect(decoded.lines.count == 2)
        #expect(decoded.customer.locale == "es-MX")
        #expect(Array(decoded.unknownFields.data) == unknown)
        try decoded.validate()
        // Forwarding keeps the field a newer sender added.
        #expect(try wire(decoded) == body)
        decoded.unknownFields = UnknownStorage()
        #expect(decoded == order)
    }

    @Test func unknownFieldsOfEveryWireTypeInsideNestedMessagesAreTolerated() throws {
        let order = Fixtures.order()
        // Inside customer: field 20 varint, field 21 fixed64, field 22 bytes, field 23 fixed32,
        // field 24 as an (empty) group.
        let extra =
            Wire.tag(20, wireType: 0) + Wire.varint(300)
            + Wire.tag(21, wireType: 1) + [1, 2, 3, 4, 5, 6, 7, 8]
            + Wire.tag(22, wireType: 2) + Wire.varint(3) + [0xFF, 0x00, 0xFE]
            + Wire.tag(23, wireType: 5) + [9, 9, 9, 9]
            + Wire.tag(24, wireType: 3) + Wire.tag(24, wireType: 4)
        let customer = try wire(order.customer) + extra
        var stripped = order
        stripped.clearCustomer()
        // Field 6 is customer; appending a second occurrence merges into the first.
        let body = try wire(stripped) + Wire.tag(6, wireType: 2) + Wire.varint(UInt64(customer.count)) + customer

        let decoded = try event(body: body).decodeBody(as: Caffe_V1_OrderEvent.self)
        #expect(Array(decoded.customer.unknownFields.data) == extra)
        var known = decoded
        known.customer.unknownFields = UnknownStorage()
        #expect(known == order)
    }

    @Test func enumValueFromANewerSenderIsKeptAsUnrecognized() throws {
        var order = Fixtures.order()
        order.customer.termOfAddress = .UNRECOGNIZED(7)
        let decoded = try event(body: wire(order)).decodeBody(as: Caffe_V1_OrderEvent.self)
        #expect(decoded.customer.termOfAddress == .UNRECOGNIZED(7))
        #expect(decoded.customer.termOfAddress.rawValue == 7)
        try decoded.validate()
    }

    @Test func repeatedScalarFieldLastValueWins() throws {
        // order_id twice: proto3 keeps the last.
        let body = try wire(Fixtures.order()) + [0x0A, 0x03] + Array("new".utf8)
        let decoded = try event(body: body).decodeBody(as: Caffe_V1_OrderEvent.self)
        #expect(decoded.orderID == "new")
    }

    // MARK: Chunked bodies

    /// Splits `bytes` at the odd offsets 1, 3, 7, 13, 21… (gaps 2, 4, 6, 8…), so chunks start at
    /// odd positions and have irregular sizes.
    func oddChunks(_ bytes: [UInt8]) -> [[UInt8]] {
        var cuts: [Int] = [1]
        var cut = 1
        var gap = 2
        while cut + gap < bytes.count {
            cut += gap
            cuts.append(cut)
            gap += 2
        }
        var chunks: [[UInt8]] = []
        var start = 0
        for cut in cuts + [bytes.count] {
            chunks.append(Array(bytes[start..<cut]))
            start = cut
        }
        return chunks
    }

    /// Decoding depends only on a frame's complete bytes: a body written into a frame piece by
    /// piece, as a transport reassembles segments, decodes to the same order as one written at
    /// once, and a frame's bytes may sit at an odd (unaligned) address.
    @Test func bodyReassembledFromOddChunksDecodes() throws {
        let order = Fixtures.order()
        let body = try wire(order)
        let chunks = oddChunks(body)
        #expect(chunks.count > 5)
        #expect(chunks.first == [body[0]])
        #expect(chunks.reduce([], +) == body)

        var reassembled = ByteFrame()
        for chunk in chunks { reassembled.bytes += chunk }
        #expect(reassembled.bytes == body)
        let header = try frame(wire(EventFrames.header(for: order)))
        let event = try EventFrames(parsing: [frame("order.sf-1"), header, reassembled])
        #expect(try event.decodeBody(as: Caffe_V1_OrderEvent.self) == order)
    }

    @Test func bodyAtAnUnalignedAddressDecodesInPlace() throws {
        let order = Fixtures.order()
        let body = try wire(order)
        let storage = UnsafeMutableRawPointer.allocate(byteCount: body.count + 1, alignment: 16)
        let start = storage + 1
        body.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: body.count) }
        defer { storage.deallocate() }
        let unaligned = BorrowedFrame(bytes: UnsafeRawBufferPointer(start: start, count: body.count))
        #expect(unaligned.withUnsafeBytes { Int(bitPattern: $0.baseAddress) % 2 } == 1)
        let header = BorrowedFrame(copying: try wire(EventFrames.header(for: order)))
        let topic = BorrowedFrame(copying: Array("order.sf-1".utf8))
        defer { [header, topic].forEach { $0.release() } }
        let event = try EventMessage<BorrowedFrame>(parsing: [topic, header, unaligned])
        #expect(try event.decodeBody(as: Caffe_V1_OrderEvent.self) == order)
    }

    @Test func bodySplitAcrossFramesIsRejectedNotHalfDecoded() throws {
        let order = Fixtures.order()
        let chunks = oddChunks(try wire(order))
        let frames =
            try [frame("order.sf-1"), frame(wire(EventFrames.header(for: order)))] + chunks.map { try frame($0) }
        let error = try failure(try EventFrames(parsing: frames))
        #expect(error.code == .wrongFrameCount)
        #expect(error.message == "an event has 3 frames (topic, header, body), got \(2 + chunks.count)")
    }

    @Test func eachOddChunkAloneIsMalformedOrAPartialMessage() throws {
        let order = Fixtures.order()
        let body = try wire(order)
        for chunk in oddChunks(body) {
            // Never the full order, never a crash.
            let event = try event(body: chunk)
            switch Result(catching: { () throws(CaffeProtocolError) in
                try event.decodeBody(as: Caffe_V1_OrderEvent.self)
            }) {
            case .success(let decoded): #expect(decoded != order)
            case .failure(let error): #expect(error.code == .malformed)
            }
        }
    }
}

extension Array {
    /// The array's elements repeated `count` times.
    func repeated(_ count: Int) -> [Element] { (0..<count).flatMap { _ in self } }
}

/// A frame over memory it does not own, as a transport's receive buffer is: decoding reads it in
/// place, wherever it sits.
private struct BorrowedFrame: WireFrame {
    var bytes: UnsafeRawBufferPointer

    init() {
        bytes = UnsafeRawBufferPointer(start: nil, count: 0)
    }

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// A frame over a fresh copy of `bytes`, to be released with ``release()``.
    init(copying bytes: [UInt8]) {
        self.bytes = UnsafeRawBufferPointer(
            UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
        )
        bytes.withUnsafeBytes { UnsafeMutableRawBufferPointer(mutating: self.bytes).copyMemory(from: $0) }
    }

    func release() {
        bytes.deallocate()
    }

    static func copying(_ bytes: UnsafeRawBufferPointer) -> BorrowedFrame {
        BorrowedFrame(copying: Array(bytes))
    }

    var count: Int { bytes.count }

    func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(bytes)
    }
}
