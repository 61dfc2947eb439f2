import FoundationEssentials

/// A value whose contiguous bytes can be sent as one frame without an intermediate copy.
///
/// The binding conforms `[UInt8]`, `ArraySlice<UInt8>`, `ContiguousArray<UInt8>`, `Data`,
/// `String`, `Substring` (UTF-8) and `UnsafeRawBufferPointer`.
public protocol ZMQFrameRepresentable {
    /// Calls `body` with the bytes that make up the frame.
    func withFrameBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result
}

extension Array: ZMQFrameRepresentable where Element == UInt8 {
    public func withFrameBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(body)
    }
}

extension ArraySlice: ZMQFrameRepresentable where Element == UInt8 {
    public func withFrameBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(body)
    }
}

extension ContiguousArray: ZMQFrameRepresentable where Element == UInt8 {
    public func withFrameBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(body)
    }
}

extension Data: ZMQFrameRepresentable {
    public func withFrameBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        withUnsafeBytes(body)
    }
}

extension String: ZMQFrameRepresentable {
    public func withFrameBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var copy = self
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}

extension Substring: ZMQFrameRepresentable {
    public func withFrameBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var copy = self
        return copy.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}

extension UnsafeRawBufferPointer: ZMQFrameRepresentable {
    public func withFrameBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        body(self)
    }
}
