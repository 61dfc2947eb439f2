// Caffe — simulator tests.
import CaffeCore
import CaffeProtocol
import CaffeSimulator
import Foundation
import SwiftProtobuf
import Testing

@Suite("caffe-sim complications: pseudo-locales and fit")
struct ComplicationFitTests {
    @Test("en-XA accents, brackets and expands each run; ar-XB forces right to left; attributes stay")
    func pseudoLocales() {
        var text = Caffe_V1_StyledText()
        var weekday = Caffe_V1_AttributedRun()
        weekday.text = "Fri"
        weekday.attributes = ["foregroundColor": "\"orange\""]
        var time = Caffe_V1_AttributedRun()
        time.text = " 4:45 PM"
        text.runs = [weekday, time]
        text.plain = "Fri 4:45 PM"
        let accented = PseudoLocale.accented.transform(text)
        #expect(accented.plain == "[Ƒŕî 4:45 ÞṀ one t]")
        #expect(accented.runs[1].text == "Ƒŕî" && accented.runs[1].attributes["foregroundColor"] == "\"orange\"")
        let rightToLeft = PseudoLocale.rightToLeft.transform(text)
        #expect(rightToLeft.plain == "\u{202E}Fri 4:45 PM\u{202C}")
        #expect(DisplayWidth.of(rightToLeft.plain) == DisplayWidth.of(text.plain))
    }

    @Test("check-fit over every configured market finds every en-XA family without room, and no real locale")
    func checkFit() throws {
        let session = try RenderingCore(configurationDirectory: CatalogBenchmarkTests.configuration).makeSession()
        let markets = TestMarkets.directory.markets
        #expect(markets.count == 12)
        let result = try ComplicationFit(locales: markets.map { ($0.locale, $0.timeZone) }).run(session: session)
        #expect(result.checked == (12 + 2) * 7)
        #expect(
            result.overflows.map(\.description) == [
                "en-XA\tmodular-small\t8 > 7\t[Šáţ on]",
                "en-XA\tutilitarian-small\t19 > 11\t[Šáţ 4:00\u{202F}ÞṀ one t]",
                "en-XA\tcircular-small\t8 > 5\t[Šáţ on]",
                "en-XA\tgraphic-corner\t17 > 10\t[Šáţ, 10\u{202F}ÞṀ one ]",
            ]
        )
    }

    @Test("Arabic's Tuesday steps down to the narrow weekday where the abbreviated one is too wide")
    func arabicNarrowWeekday() throws {
        let session = try RenderingCore(configurationDirectory: CatalogBenchmarkTests.configuration).makeSession()
        var request = Caffe_V1_ComplicationRequest()
        request.requestID = "r"
        request.userID = "u"
        request.locale = "ar-EG"
        request.timeZone = "Africa/Cairo"
        request.nextFreeCoffee = Google_Protobuf_Timestamp(date: Date(timeIntervalSince1970: 1_795_514_400))
        request.families = [.circularSmall, .modularSmall]
        let payload = try session.complication(request)
        #expect(payload.entries.map(\.text.plain) == ["ث", "ثلاثاء"])
        #expect(payload.entries[0].text.runs.first?.attributes["foregroundColor"] == "\"orange\"")
    }
}
