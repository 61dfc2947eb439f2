import Foundation

/// CPU time of processes, read from `/proc` as `utime + stime` (what the kernel charged the
/// process in user and kernel mode, every thread included).
public enum ProcessCPU {
    /// Seconds of CPU `pid` and every process descended from it have used so far (children are
    /// counted while they run: a forked Python peer is its parent plus its workers).
    public static func seconds(ofTree pid: Int32) -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var total = 0.0
        for process in tree(of: pid) {
            guard let stat = fields(process) else { continue }
            total += (Double(stat.utime) + Double(stat.stime)) / ticks
        }
        return total
    }

    /// Resident memory of `pid` and its descendants, in MiB (`VmRSS`).
    public static func residentMegabytes(ofTree pid: Int32) -> Double {
        tree(of: pid).reduce(0) { total, process in
            guard let status = try? String(contentsOfFile: "/proc/\(process)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
                let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
            else { return total }
            return total + kilobytes / 1024
        }
    }

    /// Seconds of CPU each thread of `pid` has used so far, by thread name (threads of one name
    /// summed), from `/proc/<pid>/task/<tid>/schedstat`: nanoseconds on a CPU, not clock ticks.
    public static func threadSeconds(of pid: Int32) -> [String: Double] {
        var seconds: [String: Double] = [:]
        let tasks = "/proc/\(pid)/task"
        for tid in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let name = try? String(contentsOfFile: "\(tasks)/\(tid)/comm", encoding: .utf8),
                let schedstat = try? String(contentsOfFile: "\(tasks)/\(tid)/schedstat", encoding: .utf8),
                let nanoseconds = schedstat.split(separator: " ").first.flatMap({ Double($0) })
            else { continue }
            seconds[name.trimmingCharacters(in: .whitespacesAndNewlines), default: 0] += nanoseconds / 1e9
        }
        return seconds
    }

    /// Seconds of CPU this process has used.
    public static var ownSeconds: Double { seconds(ofTree: getpid()) - childrenSeconds(of: getpid()) }

    private static func childrenSeconds(of pid: Int32) -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return tree(of: pid).dropFirst().compactMap(fields).reduce(0) {
            $0 + (Double($1.utime) + Double($1.stime)) / ticks
        }
    }

    /// `pid` and its descendants, `pid` first.
    static func tree(of pid: Int32) -> [Int32] {
        var parents: [Int32: [Int32]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let process = Int32(entry), let stat = fields(process) else { continue }
            parents[stat.ppid, default: []].append(process)
        }
        var result = [pid]
        var index = 0
        while index < result.count {
            result += parents[result[index]] ?? []
            index += 1
        }
        return result
    }

    /// The fields of `/proc/<pid>/stat` this needs. The command name (field 2) may hold spaces
    /// and parentheses, so fields are counted from the last `)`.
    static func fields(_ pid: Int32) -> (ppid: Int32, utime: UInt64, stime: UInt64)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        let rest = text[text.index(after: close)...].split(separator: " ")
        // rest[0] is the state (field 3): ppid is field 4, utime 14, stime 15.
        guard rest.count > 12, let ppid = Int32(rest[1]), let utime = UInt64(rest[11]), let stime = UInt64(rest[12])
        else { return nil }
        return (ppid, utime, stime)
    }
}
