/// What every benchmark reports: encodable for `--json`, and a summary for people with each
/// figure beside the baseline measured in the same run.
public protocol BenchmarkReport: Encodable {
    /// The report in words and figures, as `caffe-sim bench …` prints it.
    var summary: String { get }
}

extension TransportBenchmark.Report: BenchmarkReport {
    public var summary: String { TransportBenchmark.summary(self) }
}

extension CatalogBenchmark.Report: BenchmarkReport {
    public var summary: String { CatalogBenchmark.summary(self) }
}

extension RichTextBenchmark.Report: BenchmarkReport {
    public var summary: String { RichTextBenchmark.summary(self) }
}

extension AgreementBenchmark.Report: BenchmarkReport {
    public var summary: String { AgreementBenchmark.summary(self) }
}

extension CoreBenchmark.Report: BenchmarkReport {
    public var summary: String { CoreBenchmark.summary(self) }
}

extension WorkerBenchmark.Report: BenchmarkReport {
    public var summary: String { WorkerBenchmark.summary(self) }
}

extension PipelineBenchmark.Report: BenchmarkReport {
    public var summary: String { PipelineBenchmark.summary(self) }
}
