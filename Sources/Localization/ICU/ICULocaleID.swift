import _FoundationICU

/// Converts a BCP 47 language tag (`es-MX`, `zh-Hant-HK`, `ar-EG-u-nu-latn`) to an ICU locale ID.
enum ICULocaleID {
    static func make(_ tag: String) -> String {
        var buffer = [CChar](repeating: 0, count: 157)
        var status = U_ZERO_ERROR
        let length = swift_uloc_forLanguageTag(tag, &buffer, Int32(buffer.count), nil, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue, length > 0 else {
            return tag.replacingHyphens()
        }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    fileprivate func replacingHyphens() -> String {
        String(map { $0 == "-" ? "_" : $0 })
    }
}

/// Reads UTF-16 output that ICU writes into a caller's buffer.
enum ICUText {
    /// Calls `fill(buffer, capacity, &status)`; retries once with the length ICU reports on overflow.
    static func read(_ fill: (UnsafeMutablePointer<UChar>, Int32, inout UErrorCode) -> Int32) -> String? {
        let capacity = 128
        var status = U_ZERO_ERROR
        let (text, needed) = withUnsafeTemporaryAllocation(of: UChar.self, capacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return (String?.none, Int32(0)) }
            let length = fill(base, Int32(capacity), &status)
            guard status.rawValue <= U_ZERO_ERROR.rawValue, Int(length) <= capacity else { return (nil, length) }
            return (String(decoding: UnsafeBufferPointer(start: base, count: Int(length)), as: UTF16.self), length)
        }
        if let text { return text }
        guard status == U_BUFFER_OVERFLOW_ERROR, needed > 0 else { return nil }
        var storage = [UChar](repeating: 0, count: Int(needed))
        status = U_ZERO_ERROR
        let length = storage.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return 0 }
            return fill(base, needed, &status)
        }
        guard status.rawValue <= U_ZERO_ERROR.rawValue else { return nil }
        return String(decoding: storage.prefix(Int(length)), as: UTF16.self)
    }
}
