import Foundation

/// The cores this process may use: the CPUs it may run on (its affinity), capped by its control
/// group's CPU limit when it has one (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us` over
/// `cpu.cfs_period_us`), rounded up. What `render.threads: 0` and `input.pipelines: 0` follow: a
/// pod limited to 2 CPUs on a 64-core node gets 2, not 64.
public enum ProcessorCores {
    /// The cores available, and where the figure came from (for the start log).
    public struct Reading: Hashable, Sendable, CustomStringConvertible {
        public var cores: Int
        /// `affinity` or the limit's file (`cgroup cpu.max 150000/100000`).
        public var source: String
        public var description: String { "\(cores) (\(source))" }
    }

    /// Read once: the limit does not change under a running process in any way the worker follows.
    public static let available: Reading = read()

    static func read() -> Reading {
        let online = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let membership = (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""
        for (file, limit) in limitFiles(membership) {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8), let cores = limit(text) else {
                continue
            }
            if cores < online { return Reading(cores: cores, source: "cgroup \(file)") }
            break
        }
        return Reading(cores: online, source: "affinity")
    }

    /// The files that may hold this process's CPU limit, each with its reader, from
    /// `/proc/self/cgroup`'s lines (`0::/path` for v2, `N:cpu,cpuacct:/path` for v1).
    static func limitFiles(_ membership: String) -> [(String, (String) -> Int?)] {
        var files: [(String, (String) -> Int?)] = []
        for line in membership.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = fields[2] == "/" ? "" : String(fields[2])
            if fields[0] == "0", fields[1].isEmpty {
                files.append(("/sys/fs/cgroup\(path)/cpu.max", cpuMax))
                files.append(("/sys/fs/cgroup/cpu.max", cpuMax))
            } else if fields[1].split(separator: ",").contains("cpu") {
                for root in ["/sys/fs/cgroup/cpu,cpuacct", "/sys/fs/cgroup/cpu"] {
                    files.append(("\(root)\(path)/cpu.cfs_quota_us", { quota in cfsQuota(quota, root: root + path) }))
                }
            }
        }
        return files
    }

    /// `cpu.max`: `max 100000` (no limit) or `150000 100000` (1.5 CPUs: 2 cores).
    static func cpuMax(_ text: String) -> Int? {
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let quota = Double(fields[0]), let period = Double(fields[1]), period > 0 else {
            return nil
        }
        return max(1, Int((quota / period).rounded(.up)))
    }

    /// cgroup v1: `cpu.cfs_quota_us` (-1: no limit) over the period beside it.
    static func cfsQuota(_ text: String, root: String) -> Int? {
        guard let quota = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), quota > 0,
            let periodText = try? String(contentsOfFile: root + "/cpu.cfs_period_us", encoding: .utf8),
            let period = Double(periodText.trimmingCharacters(in: .whitespacesAndNewlines)), period > 0
        else { return nil }
        return max(1, Int((quota / period).rounded(.up)))
    }
}
