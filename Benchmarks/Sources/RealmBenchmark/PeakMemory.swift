import BenchmarkSupport
import Foundation

/// The peak-memory workload: each contender enumerates the large data set
/// in a child process of its own, because the kernel's high-water mark of
/// resident memory (VmHWM, ru_maxrss) is per process and never goes down.
///
/// The child is this executable, re-run with the hidden
/// `peak-memory-child` subcommand. It opens the parent's file for the
/// contender, resets the high-water mark to its current resident size (the
/// baseline: code, libraries, the open connection), enumerates, and prints
/// how far above the baseline the high-water mark went.
struct PeakMemory {
    /// This executable.
    let executable: URL
    /// Where children may keep scratch files.
    let scratchRoot: URL

    /// What a child reports, as one JSON line on its standard output.
    struct ChildReport: Codable {
        /// The peak resident bytes above the baseline.
        var peakBytes: Int
        /// The resident bytes before enumerating.
        var baselineBytes: Int
        /// Whether the high-water mark could be reset (else the baseline
        /// is the high-water mark before enumerating).
        var resetWorked: Bool
        /// The trial's result, checked by the parent.
        var result: [Int]
    }

    /// A trial that runs one child for `contender` on its large data set
    /// (populated by the parent, outside any measurement).
    func trial(for contender: any Contender, count: Int) throws -> Trial {
        let file = try contender.largeDatasetFile(count: count)
        let tally = Tally(2)
        return Trial(samples: {
            let report = try runChild(contender: contender.name, file: file, count: count)
            tally.values = report.result
            return [Double(report.peakBytes)]
        }, result: { tally.values })
    }

    private func runChild(contender: String, file: URL, count: Int) throws -> ChildReport {
        let scratch = scratchRoot.appendingPathComponent("child-\(contender)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["peak-memory-child", "--contender", contender, "--file", file.path,
                             "--count", "\(count)", "--scratch", scratch.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("The peak-memory child for \(contender) exited with status \(process.terminationStatus).")
        }
        guard let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last else {
            throw BenchmarkError("The peak-memory child for \(contender) printed nothing.")
        }
        return try JSONDecoder().decode(ChildReport.self, from: Data(line.utf8))
    }

    // MARK: In the child

    /// Opens the file (setup), resets the high-water mark, enumerates
    /// (the measured part) and reports.
    static func measureInChild(_ contender: any Contender, file: URL, count: Int) throws -> ChildReport {
        let trial = try contender.enumerateAll(inExisting: file, count: count)
        guard case .timed(let enumerate) = trial.body else {
            throw BenchmarkError("enumerateAll must return a timed trial.")
        }
        let resetWorked = ProcessMemory.resetHighWaterMark()
        let baseline = (resetWorked ? ProcessMemory.statusBytes("VmRSS") : ProcessMemory.statusBytes("VmHWM")) ?? 0
        try enumerate()
        let peak = ProcessMemory.statusBytes("VmHWM") ?? 0
        return ChildReport(peakBytes: max(0, peak - baseline), baselineBytes: baseline,
                           resetWorked: resetWorked, result: try trial.result())
    }
}
