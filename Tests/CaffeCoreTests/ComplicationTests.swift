import CaffeCore
import CaffeProtocol
import Testing

@Suite("Complications")
struct ComplicationTests {
    func request(_ locale: String, _ zone: String, _ date: String, hourCycle: String = "")
        -> Caffe_V1_ComplicationRequest
    {
        var request = Caffe_V1_ComplicationRequest()
        request.requestID = "r-1"
        request.userID = "u-1"
        request.locale = locale
        request.timeZone = zone
        request.hourCycle = hourCycle
        request.nextFreeCoffee = CoreFixture.timestamp(date)
        return request
    }

    @Test("each family gets the richest format that fits")
    func steppingDown() throws {
        let payload = try CoreFixture.core.makeSession()
            .complication(request("en-US", "America/New_York", "2026-11-20T20:45:00Z"))
        let texts = Dictionary(uniqueKeysWithValues: payload.entries.map { ($0.family.name, $0.text.plain) })
        #expect(texts["graphic-rectangular"] == "Fri 3:45\u{202F}PM")
        #expect(texts["graphic-corner"] == "Fri, 3\u{202F}PM")
        #expect(texts["circular-small"] == "Fri")
        #expect(payload.entries.map(\.family) == Caffe_V1_ComplicationFamily.rendered)
        for entry in payload.entries {
            #expect(DisplayWidth.of(entry.text.plain) <= entry.family.widthLimit)
        }
    }

    @Test("the weekday run is orange wherever the locale puts it")
    func weekdayColour() throws {
        let session = CoreFixture.core.makeSession()
        for locale in ["en-US", "ja-JP", "ar-EG", "zh-Hant-TW", "ko-KR"] {
            let payload = try session.complication(request(locale, "Asia/Tokyo", "2026-11-20T06:45:00Z"))
            for entry in payload.entries {
                let orange = entry.text.runs.filter { $0.attributes["foregroundColor"] == "\"orange\"" }
                #expect(orange.count == 1, "\(locale) \(entry.family.name)")
                #expect(orange.first?.attributes["dateField"] == "\"weekday\"")
                #expect(entry.text.runs.map(\.text).joined() == entry.text.plain)
            }
        }
    }

    @Test("the hour cycle is the request's")
    func hourCycle() throws {
        let session = CoreFixture.core.makeSession()
        let h23 = try session.complication(request("en-US", "UTC", "2026-11-20T15:05:00Z", hourCycle: "h23"))
        #expect(h23.entries.first { $0.family == .modularLarge }?.text.plain == "Fri 15:05")
        let h12 = try session.complication(request("ja-JP", "UTC", "2026-11-20T15:05:00Z", hourCycle: "h12"))
        #expect(h12.entries.first { $0.family == .modularLarge }?.text.plain == "金 午後3:05")
        #expect(throws: RenderError.self) {
            try session.complication(request("en-US", "UTC", "2026-11-20T15:05:00Z", hourCycle: "h25"))
        }
    }

    @Test("missing fields and unknown families are typed errors")
    func badRequests() {
        let session = CoreFixture.core.makeSession()
        var noDate = request("en-US", "UTC", "2026-11-20T15:05:00Z")
        noDate.clearNextFreeCoffee()
        #expect(throws: RenderError.self) { try session.complication(noDate) }
        var badFamily = request("en-US", "UTC", "2026-11-20T15:05:00Z")
        badFamily.families = [.unspecified]
        #expect((try? session.complication(badFamily)) == nil)
    }

    @Test("display width counts wide characters twice and bidi marks not at all")
    func width() {
        #expect(DisplayWidth.of("Wed") == 3)
        #expect(DisplayWidth.of("Sat 3:36 PM") == 11)
        #expect(DisplayWidth.of("a\r\nb") == 3)  // CR LF is one character
        #expect(DisplayWidth.of("sáb 3:36") == 8)
        #expect(DisplayWidth.of("水 12:06") == 8)
        #expect(DisplayWidth.of("\u{2068}١٢\u{2069}") == 2)
        #expect(DisplayWidth.of("e\u{301}") == 1)
    }
}
