/// Writes the Prometheus text exposition format (version 0.0.4): `# HELP` and `# TYPE` lines per
/// family, then one sample per line with escaped label values.
struct PrometheusText {
    private(set) var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(8192)
    }

    /// Starts a family.
    mutating func family(_ name: String, type: String, help: String) {
        append("# HELP \(name) \(help)\n# TYPE \(name) \(type)\n")
    }

    /// One sample with an integer value.
    mutating func sample(_ name: String, _ labels: [(String, String)] = [], value: UInt64) {
        append(name + Self.labels(labels) + " \(value)\n")
    }

    /// One sample with a floating-point value.
    mutating func sample(_ name: String, _ labels: [(String, String)] = [], value: Double) {
        append(name + Self.labels(labels) + " \(Self.number(value))\n")
    }

    /// A histogram's cumulative buckets, sum (in seconds) and count.
    mutating func histogram(_ name: String, _ labels: [(String, String)], _ histogram: LatencyHistogram) {
        var cumulative: UInt64 = 0
        for (index, bound) in LatencyHistogram.bounds.enumerated() {
            cumulative += histogram.buckets[index]
            let le = Self.number(Double(bound) / 1e9)
            sample(name + "_bucket", labels + [("le", le)], value: cumulative)
        }
        sample(name + "_bucket", labels + [("le", "+Inf")], value: histogram.count)
        sample(name + "_sum", labels, value: Double(histogram.sumNanoseconds) / 1e9)
        sample(name + "_count", labels, value: histogram.count)
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private static func labels(_ labels: [(String, String)]) -> String {
        guard !labels.isEmpty else { return "" }
        return "{" + labels.map { "\($0.0)=\"\(escape($0.1))\"" }.joined(separator: ",") + "}"
    }

    /// Label values escape backslash, double quote and line feed.
    static func escape(_ value: String) -> String {
        var escaped = ""
        for character in value {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"": escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A number as Prometheus reads it: integers without a fraction, others in Swift's shortest form.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
