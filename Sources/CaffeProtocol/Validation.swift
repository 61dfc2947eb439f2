import SwiftProtobuf

/// A message that can check its required fields after decoding (proto3 itself has no "required").
public protocol CaffeValidatable {
    /// Throws ``CaffeProtocolError`` naming the first missing or malformed field.
    func validate() throws(CaffeProtocolError)
}

extension Caffe_V1_OrderEvent: CaffeValidatable {
    public func validate() throws(CaffeProtocolError) {
        let type = "OrderEvent"
        try require(orderID, "order_id", in: type)
        try require(sourceID, "source_id", in: type)
        try identifier(orderID, "order_id", in: type)
        try identifier(sourceID, "source_id", in: type)
        guard sequence > 0 else { throw .missing("sequence", in: type) }
        guard hasPlacedAt else { throw .missing("placed_at", in: type) }
        try require(storeID, "store_id", in: type)
        try identifier(storeID, "store_id", in: type)
        guard hasCustomer else { throw .missing("customer", in: type) }
        try require(customer.locale, "customer.locale", in: type)
        try require(customer.timeZone, "customer.time_zone", in: type)
        try require(currencyCode, "currency_code", in: type)
        guard currencyCode.utf8.count == 3, currencyCode.utf8.allSatisfy({ (0x41...0x5a).contains($0) }) else {
            throw .invalid("currency_code", in: type, "must be an ISO 4217 code such as USD, got '\(currencyCode)'")
        }
        guard !lines.isEmpty else { throw .missing("lines", in: type) }
        for (index, line) in lines.enumerated() {
            try require(line.itemID, "lines[\(index)].item_id", in: type)
            try require(line.size, "lines[\(index)].size", in: type)
        }
        if !tip.isEmpty, !DecimalString.isValid(tip) {
            throw .invalid("tip", in: type, "must be a decimal string such as 1.50, got '\(tip)'")
        }
    }
}

extension Caffe_V1_ComplicationRequest: CaffeValidatable {
    public func validate() throws(CaffeProtocolError) {
        let type = "ComplicationRequest"
        try require(requestID, "request_id", in: type)
        try require(userID, "user_id", in: type)
        try identifier(requestID, "request_id", in: type)
        try identifier(userID, "user_id", in: type)
        try require(locale, "locale", in: type)
        try require(timeZone, "time_zone", in: type)
        guard hasNextFreeCoffee else { throw .missing("next_free_coffee", in: type) }
        if !hourCycle.isEmpty, !["h11", "h12", "h23", "h24"].contains(hourCycle) {
            throw .invalid("hour_cycle", in: type, "must be h11, h12, h23 or h24, got '\(hourCycle)'")
        }
    }
}

extension Caffe_V1_EventHeader: CaffeValidatable {
    public func validate() throws(CaffeProtocolError) {
        try require(bodyType, "body_type", in: "EventHeader")
        try identifier(sourceID, "source_id", in: "EventHeader")
        try identifier(orderID, "order_id", in: "EventHeader")
    }
}

extension Caffe_V1_RequestHeader: CaffeValidatable {
    public func validate() throws(CaffeProtocolError) {
        try require(method, "method", in: "RequestHeader")
        try require(requestID, "request_id", in: "RequestHeader")
        try identifier(requestID, "request_id", in: "RequestHeader")
        if hasDeadline, !(0..<1_000_000_000).contains(deadline.nanos) {
            throw .invalid("deadline", in: "RequestHeader", "has nanos \(deadline.nanos) outside 0..<1000000000")
        }
        if hasTimeout, timeout.seconds < 0 || !(0..<1_000_000_000).contains(timeout.nanos) {
            throw .invalid("timeout", in: "RequestHeader", "must be a non-negative duration")
        }
    }
}

/// Refuses an id that breaks ``Identifier``'s rule (an empty one passes: `require` judges that).
private func identifier(_ value: String, _ field: String, in type: String) throws(CaffeProtocolError) {
    if let problem = Identifier.problem(value) { throw .invalid(field, in: type, problem) }
}

private func require(_ value: String, _ field: String, in type: String) throws(CaffeProtocolError) {
    if value.isEmpty { throw .missing(field, in: type) }
}

/// Money on the wire: an optional minus sign, digits, and optionally a point and more digits.
public enum DecimalString {
    /// Whether `text` is a decimal string such as `12.50`, `-0.75` or `1500`.
    public static func isValid(_ text: String) -> Bool {
        var utf8 = Substring(text).utf8[...]
        if utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
        let integer = utf8.prefix(while: isDigit)
        guard !integer.isEmpty else { return false }
        utf8 = utf8.dropFirst(integer.count)
        if utf8.isEmpty { return true }
        guard utf8.first == UInt8(ascii: ".") else { return false }
        let fraction = utf8.dropFirst()
        return !fraction.isEmpty && fraction.allSatisfy(isDigit)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
}
