import Foundation

/// What PostgreSQL itself spends: the CPU time of every `postgres` process
/// on the machine (from /proc, so run the load test where no other
/// cluster is busy), and the database's commits and rows (its statistics
/// views, read with `psql`).
struct PostgresLoad {
    var cpuSeconds: Double
    var commits: Int
    var rowsInserted: Int

    /// PostgreSQL's counters now.
    static func read(database: String) -> PostgresLoad {
        PostgresLoad(cpuSeconds: cpuSeconds(), commits: statistic("xact_commit", database), rowsInserted: statistic("tup_inserted", database))
    }

    private static func cpuSeconds() -> Double {
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        var ticks = 0
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil {
            guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")"),
                  stat[stat.index(after: open)..<close] == "postgres" else { continue }
            // After the name: state is field 3; utime and stime are 14 and 15.
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            if fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) { ticks += user + system }
        }
        return Double(ticks) / ticksPerSecond
    }

    private static func statistic(_ column: String, _ database: String) -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", database, "-Atc", "SELECT \(column) FROM pg_stat_database WHERE datname = current_database()"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return 0 }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
