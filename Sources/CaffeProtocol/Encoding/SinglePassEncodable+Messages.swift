import SwiftProtobuf

// Field numbers follow caffe/v1/*.proto; each message writes its fields in field-number order,
// then its unknown fields, as SwiftProtobuf does.

extension Google_Protobuf_Timestamp: SinglePassEncodable {
    public func encode(to writer: inout ProtobufWriter) {
        writer.write(1, int64: seconds)
        writer.write(2, int32: nanos)
        writer.writeRaw(unknownFields.data)
    }
}

extension Caffe_V1_EventHeader: SinglePassEncodable {
    public func encode(to writer: inout ProtobufWriter) {
        writer.write(1, string: bodyType)
        writer.write(2, string: sourceID)
        writer.write(3, uint64: sequence)
        writer.write(4, string: orderID)
        writer.write(5, message: sentAt, if: hasSentAt)
        writer.write(6, map: metadata)
        writer.write(7, uint64: sourceEpoch)
        writer.writeRaw(unknownFields.data)
    }
}

extension Caffe_V1_EventRef: SinglePassEncodable {
    public func encode(to writer: inout ProtobufWriter) {
        writer.write(1, string: sourceID)
        writer.write(2, uint64: sequence)
        writer.write(3, string: orderID)
        writer.writeRaw(unknownFields.data)
    }
}

extension Caffe_V1_AttributedRun: SinglePassEncodable {
    public func encode(to writer: inout ProtobufWriter) {
        writer.write(1, string: text)
        writer.write(2, map: attributes)
        writer.writeRaw(unknownFields.data)
    }
}

extension Caffe_V1_StyledText: SinglePassEncodable {
    public func encode(to writer: inout ProtobufWriter) {
        writer.write(1, string: plain)
        writer.write(2, messages: runs)
        writer.write(3, string: html)
        writer.writeRaw(unknownFields.data)
    }
}

extension Caffe_V1_RenderNote: SinglePassEncodable {
    public func encode(to writer: inout ProtobufWriter) {
        writer.write(1, string: code)
        writer.write(2, string: detail)
        writer.writeRaw(unknownFields.data)
    }
}

extension Caffe_V1_Confirmation: SinglePassEncodable {
    public func encode(to writer: inout ProtobufWriter) {
        writer.write(1, message: ref, if: hasRef)
        writer.write(2, string: locale)
        writer.write(3, message: greeting, if: hasGreeting)
        writer.write(4, message: summary, if: hasSummary)
        writer.write(5, message: itemCount, if: hasItemCount)
        writer.write(6, message: pickup, if: hasPickup)
        writer.write(7, message: text, if: hasText)
        writer.write(8, messages: notes)
        writer.writeRaw(unknownFields.data)
    }
}

extension Caffe_V1_ReceiptLine: SinglePassEncodable {
    public func encode(to writer: inout ProtobufWriter) {
        writer.write(1, message: description_p, if: hasDescription_p)
        writer.write(2, string: unitPrice)
        writer.write(3, string: linePrice)
        writer.write(4, message: formattedPrice, if: hasFormattedPrice)
        writer.writeRaw(unknownFields.data)
    }
}

extension Caffe_V1_Receipt: SinglePassEncodable {
    public func encode(to writer: inout ProtobufWriter) {
        writer.write(1, message: ref, if: hasRef)
        writer.write(2, string: locale)
        writer.write(3, string: currencyCode)
        writer.write(4, messages: lines)
        writer.write(5, string: subtotal)
        writer.write(6, string: tax)
        writer.write(7, string: taxRate)
        writer.write(8, string: tip)
        writer.write(9, string: total)
        writer.write(10, message: text, if: hasText)
        writer.write(11, messages: notes)
        writer.writeRaw(unknownFields.data)
    }
}

extension Caffe_V1_ComplicationEntry: SinglePassEncodable {
    public func encode(to writer: inout ProtobufWriter) {
        writer.write(1, int32: Int32(truncatingIfNeeded: family.rawValue))
        writer.write(2, message: text, if: hasText)
        writer.writeRaw(unknownFields.data)
    }
}

extension Caffe_V1_ComplicationPayload: SinglePassEncodable {
    public func encode(to writer: inout ProtobufWriter) {
        writer.write(1, string: requestID)
        writer.write(2, string: userID)
        writer.write(3, string: locale)
        writer.write(4, messages: entries)
        writer.write(5, messages: notes)
        writer.writeRaw(unknownFields.data)
    }
}
