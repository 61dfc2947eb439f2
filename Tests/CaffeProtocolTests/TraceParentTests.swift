// Caffe — protocol tests.

import Testing

@testable import CaffeProtocol

/// W3C Trace Context's `traceparent` (Level 1, §3.2), read and written.
@Suite("traceparent")
struct TraceParentTests {
    static let example = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test func readsTheSpecificationsExample() throws {
        let parent = try #require(TraceParent(Self.example))
        #expect(parent.traceIDHigh == 0x4bf9_2f35_77b3_4da6)
        #expect(parent.traceIDLow == 0xa3ce_929d_0e0e_4736)
        #expect(parent.parentID == 0x00f0_67aa_0ba9_02b7)
        #expect(parent.flags == 1)
        #expect(parent.isSampled)
        #expect(parent.traceID == "4bf92f3577b34da6a3ce929d0e0e4736")
        #expect(parent.parentIDString == "00f067aa0ba902b7")
        #expect(parent.description == Self.example)
        #expect(TraceParent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00")?.isSampled == false)
    }

    /// A receiver of a later version reads the four fields it knows and ignores what follows a dash.
    @Test func readsLaterVersionsAndWritesVersion00() throws {
        let later = try #require(TraceParent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09-what-comes-next"))
        #expect(later.flags == 9)
        #expect(later.description == "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09")
        #expect(TraceParent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09") != nil)
    }

    @Test func refusesWhatTheSpecificationMakesInvalid() {
        let invalid = [
            "",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",  // version ff
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",  // uppercase
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",  // trace id all zeros
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",  // parent id all zeros
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-",  // version 00 is 55 characters
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-1",
            "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",
            "cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",  // later version: a dash must follow
            "0-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        ]
        for text in invalid { #expect(TraceParent(text) == nil, "\(text)") }
        #expect(TraceParent(nil) == nil)
    }

    /// A child keeps the trace and its flags and names the new span as the parent.
    @Test func childNamesTheNewSpan() throws {
        let parent = try #require(TraceParent(Self.example))
        let child = parent.child(spanID: 0x1122_3344_5566_7788)
        #expect(child.description == "00-4bf92f3577b34da6a3ce929d0e0e4736-1122334455667788-01")
        #expect(parent.child(spanID: 0xab).parentIDString == "00000000000000ab")
        // Flags version 00 does not define are not passed on.
        let later = try #require(TraceParent("cc-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-09-x"))
        #expect(later.child(spanID: 2).description == "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000002-01")
    }
}
