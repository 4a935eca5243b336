import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// This process's resident memory, as Linux reports it in
/// /proc/self/status: the peak-memory measurements of both benchmarks.
public enum ProcessMemory {
    /// Resets the high-water mark of resident memory (VmHWM) to the current
    /// resident size by writing 5 to /proc/self/clear_refs (Linux 4.0 and
    /// later); false where that cannot be done.
    public static func resetHighWaterMark() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }

    /// A "kB" line of /proc/self/status (`VmRSS`, `VmHWM`), in bytes.
    public static func statusBytes(_ key: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(key + ":") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.count >= 2, let kilobytes = Int(fields[1]) { return kilobytes * 1024 }
        }
        return nil
    }
}
