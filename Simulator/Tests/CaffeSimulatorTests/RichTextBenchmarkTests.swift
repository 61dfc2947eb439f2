// Caffe — simulator tests.
import CaffeSimulator
import Testing

@Suite("caffe-sim bench richtext")
struct RichTextBenchmarkTests {
    @Test func parsedAndCompiledAgreeAndAreMeasured() throws {
        let report = try RichTextBenchmark(configuration: .init(iterations: 20, rounds: 1)).run()
        #expect(
            report.note.html
                == #"<strong>Thank you!</strong> <em>Please visit our <a href="https://caffe.example.com">website</a>.</em>"#
        )
        #expect(
            report.template.html
                == #"Add <span data-inflect="true">2 large <span data-morphology="{&quot;partOfSpeech&quot;:&quot;noun&quot;}">pizza</span></span> to your order"#
        )
        #expect(report.note.parseNanoseconds > 0 && report.note.compiledNanoseconds > 0)
        #expect(report.template.parseNanoseconds > 0 && report.template.compiledNanoseconds > 0)
    }
}
