import CaffeProtocol

/// Writes `caffe.v1.StyledText` messages from spans: the plain text, then the runs (neighbouring
/// spans with equal attributes joined, empty ones left out), then the HTML — the bytes
/// ``ProtobufWriter`` writes for the message ``StyledTextBuilder`` would have built.
struct StyledTextWriter {
    let attributes: AttributeTable

    /// Writes field `number` holding the text of `spans` (holes must be filled) and `html`;
    /// with `merging` off, each span is a run of its own (as date pieces are).
    func write(
        _ number: Int,
        spans: UnsafeBufferPointer<TextSpan>,
        html: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
        merging: Bool = true,
        into buffer: WireBuffer
    ) {
        let message = buffer.beginMessage(number)
        var plain = 0
        for index in 0..<spans.count { plain += Int(spans[index].count) }
        if plain > 0 {
            buffer.appendKey(1, wireType: 2)
            buffer.appendVarint(UInt64(plain))
            buffer.reserve(plain)
            copy(spans, from: 0, to: spans.count, into: buffer)
        }
        var index = 0
        let encoded = attributes.encoded
        while index < spans.count {
            let attribute = spans[index].attribute
            guard spans[index].count > 0 else {
                index += 1
                continue
            }
            // The run: this span and the following ones with the same attributes (or no text).
            var end = index + 1
            var length = Int(spans[index].count)
            while merging, end < spans.count, spans[end].attribute == attribute || spans[end].count == 0 {
                length += Int(spans[end].count)
                end += 1
            }
            let attributeBytes = encoded[Int(attribute)]
            buffer.appendKey(2, wireType: 2)
            buffer.appendVarint(UInt64(1 + WireBuffer.varintSize(UInt64(length)) + length + attributeBytes.count))
            buffer.appendKey(1, wireType: 2)
            buffer.appendVarint(UInt64(length))
            copy(spans, from: index, to: end, into: buffer)
            buffer.append(attributeBytes)
            index = end
        }
        if !html.isEmpty {
            buffer.appendKey(3, wireType: 2)
            buffer.appendVarint(UInt64(html.count))
            buffer.append(html)
        }
        buffer.endMessage(message)
    }

    /// Appends the bytes of `spans[start..<end]`.
    @inline(__always)
    private func copy(_ spans: UnsafeBufferPointer<TextSpan>, from start: Int, to end: Int, into buffer: WireBuffer) {
        for index in start..<end where spans[index].count > 0 {
            if let bytes = spans[index].start { buffer.append(bytes, count: Int(spans[index].count)) }
        }
    }
}

/// Turns texts rendered the ordinary way (wire messages, documents) into spans, once, when a
/// locale's program is built or a cache entry is made.
struct SpanMaker {
    let arena: ConstantArena
    let attributes: AttributeTable

    /// The runs of `styled` as spans, with `hole` (a private-use scalar) splitting runs into holes.
    func spans(_ styled: Caffe_V1_StyledText, hole: Unicode.Scalar? = nil) -> [TextSpan] {
        var spans: [TextSpan] = []
        for run in styled.runs {
            let attribute = attributes.id(run.attributes)
            guard let hole, run.text.unicodeScalars.contains(hole) else {
                spans.append(arena.span(run.text, attribute))
                continue
            }
            let pieces = run.text.unicodeScalars.split(separator: hole, omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index > 0 { spans.append(.hole(attribute)) }
                if !piece.isEmpty { spans.append(arena.span(String(piece), attribute)) }
            }
        }
        return spans
    }

    /// The spans of `styled` split at the UTF-8 offsets `cuts` (ascending): `cuts.count + 1` parts.
    func split(_ styled: Caffe_V1_StyledText, at cuts: [Int]) -> [[TextSpan]] {
        var parts: [[TextSpan]] = [[]]
        var offset = 0
        var nextCut = 0
        for run in styled.runs {
            let attribute = attributes.id(run.attributes)
            var bytes = Array(run.text.utf8)[...]
            while !bytes.isEmpty {
                while nextCut < cuts.count, cuts[nextCut] <= offset {
                    parts.append([])
                    nextCut += 1
                }
                let room = nextCut < cuts.count ? cuts[nextCut] - offset : bytes.count
                let taken = bytes.prefix(room)
                let stored = taken.withUnsafeBytes { arena.store($0) }
                parts[parts.count - 1].append(TextSpan(start: stored, count: taken.count, attribute: attribute))
                bytes = bytes.dropFirst(taken.count)
                offset += taken.count
            }
        }
        while parts.count < cuts.count + 1 { parts.append([]) }
        return parts
    }

    /// HTML split at `hole`: the pieces between holes, stored.
    func htmlPieces(_ html: String, hole: Unicode.Scalar) -> [UnsafeRawBufferPointer] {
        html.unicodeScalars.split(separator: hole, omittingEmptySubsequences: false).map { arena.bytes(String($0)) }
    }
}
