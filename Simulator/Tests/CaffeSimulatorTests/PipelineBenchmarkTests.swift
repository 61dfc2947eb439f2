// Caffe — simulator tests.
import CaffeSimulator
import Testing

@Suite("bench pipeline: the sustained-rate search")
struct PipelineBenchmarkTests {
    @Test("doubles until a probe fails, then bisects to within the resolution below the capacity")
    func searchConverges() {
        var tried: [Double] = []
        let found = PipelineBenchmark.search(from: 2000, below: 400_000, resolution: 0.05) { rate in
            tried.append(rate)
            return rate <= 14_700
        }
        #expect(tried == [2000, 4000, 8000, 16_000, 12_000, 14_000, 15_000, 14_500])
        #expect(found == 14_500)
    }

    @Test("a subject that fails the first rate sustains nothing; one that never fails stops at the ceiling")
    func searchEdges() {
        #expect(PipelineBenchmark.search(from: 2000, below: 400_000, resolution: 0.05) { _ in false } == 0)
        var probes = 0
        let capped = PipelineBenchmark.search(from: 2000, below: 100_000, resolution: 0.05) { _ in
            probes += 1
            return true
        }
        #expect(capped == 95_500)
        #expect(probes == 9)
    }
}
