// Caffe — ZeroMQ binding tests.
import FoundationEssentials
import Testing
import ZeroMQ

@Suite("Messages and frames")
struct MessageTests {
    @Test func framesHoldWhatTheyWereGiven() throws {
        #expect(try ZMQMessage("héllo").bytes == Array("héllo".utf8))
        #expect(try ZMQMessage("héllo").string == "héllo")
        #expect(try ZMQMessage([UInt8]()).isEmpty)
        #expect(try ZMQMessage(Data([1, 2, 3])).data == Data([1, 2, 3]))
        #expect(try ZMQMessage([9, 8, 7] as ArraySlice<UInt8>).count == 3)
        #expect(try ZMQMessage(Substring("abc")).string == "abc")
        #expect(ZMQMessage().count == 0)
    }

    @Test func sizedFramesAreFilledInPlace() throws {
        let message = try ZMQMessage(count: 4)
        message.withUnsafeMutableBytes { $0.copyBytes(from: [0xCA, 0xFE, 0xF0, 0x0D]) }
        #expect(message.bytes == [0xCA, 0xFE, 0xF0, 0x0D])
        let copy = try message.copy()
        #expect(copy.bytes == message.bytes)
        #expect(message.description == "ZMQMessage(4 bytes: ....)")
        #expect(try ZMQMessage("order.sf-1").description == "ZMQMessage(10 bytes: order.sf-1)")
    }

    @Test func invalidUTF8IsRepairedNotTrapped() throws {
        #expect(try ZMQMessage([0x61, 0xFF, 0x62] as [UInt8]).string == "a\u{FFFD}b")
    }
}
