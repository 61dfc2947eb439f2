import CaffeCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The standard `process_*` metrics of the Prometheus client libraries, read from `/proc/self`:
/// CPU seconds, resident and virtual memory, open and maximum file descriptors, start time.
struct ProcessMetrics: Equatable {
    var cpuSeconds: Double
    var residentBytes: Double
    var virtualBytes: Double
    var openDescriptors: Double
    var maxDescriptors: Double
    /// Seconds since 1970.
    var startTime: Double

    /// This process now, or nil where `/proc` cannot be read.
    static func current() -> ProcessMetrics? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let fields = fieldsAfterName(stat), fields.count > 21,
            let user = Double(fields[11]), let system = Double(fields[12]),
            let started = Double(fields[19]), let virtual = Double(fields[20]), let pages = Double(fields[21])
        else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        var limit = rlimit()
        getrlimit(RLIMIT_NOFILE_VALUE, &limit)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        return ProcessMetrics(
            cpuSeconds: (user + system) / ticks,
            residentBytes: pages * pageSize,
            virtualBytes: virtual,
            openDescriptors: Double(open),
            maxDescriptors: Double(limit.rlim_cur),
            startTime: bootTime() + started / ticks
        )
    }

    /// Writes the six families.
    func write(to text: inout PrometheusText) {
        text.family("process_cpu_seconds_total", type: "counter", help: "User and system CPU time, in seconds.")
        text.sample("process_cpu_seconds_total", value: cpuSeconds)
        text.family("process_resident_memory_bytes", type: "gauge", help: "Resident memory size in bytes.")
        text.sample("process_resident_memory_bytes", value: residentBytes)
        text.family("process_virtual_memory_bytes", type: "gauge", help: "Virtual memory size in bytes.")
        text.sample("process_virtual_memory_bytes", value: virtualBytes)
        text.family("process_open_fds", type: "gauge", help: "Open file descriptors.")
        text.sample("process_open_fds", value: openDescriptors)
        text.family("process_max_fds", type: "gauge", help: "The limit on open file descriptors.")
        text.sample("process_max_fds", value: maxDescriptors)
        text.family(
            "process_start_time_seconds",
            type: "gauge",
            help: "When the process started, in seconds since 1970."
        )
        text.sample("process_start_time_seconds", value: startTime)
    }

    /// `caffe_build_info{version,swift}` 1: which build is running (for joins in queries).
    static func writeBuildInfo(_ prefix: String, to text: inout PrometheusText) {
        let name = "\(prefix)_build_info"
        text.family(name, type: "gauge", help: "Always 1; the labels name the build.")
        text.sample(name, [("version", CaffeVersion.current), ("swift", CaffeVersion.swift)], value: 1.0)
    }

    /// The fields of `/proc/self/stat` after the command name, which may hold spaces and
    /// parentheses: `fields[0]` is the state (field 3 in proc(5)).
    static func fieldsAfterName(_ stat: String) -> [Substring]? {
        guard let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// The boot time in seconds since 1970 (`btime` in `/proc/stat`).
    private static func bootTime() -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return 0 }
        for line in stat.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }
}

/// Glibc's `RLIMIT_NOFILE` as the type `getrlimit` takes.
private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
