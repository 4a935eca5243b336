// realm-benchmark: this project against GRDB and the raw SQLite C API on
// the workloads of SPEC §8, in one process, interleaved. See README.md.
//
//   swift run -c release --package-path Benchmarks realm-benchmark [--quick] [--output DIR] [--filter NAME]

import ArgumentParser
import BenchmarkSupport
import Foundation

struct RealmBenchmarkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realm-benchmark",
        abstract: "Benchmarks this project against GRDB and the SQLite C API (SPEC §8).",
        subcommands: [Run.self, PeakMemoryChild.self],
        defaultSubcommand: Run.self)
}

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the workloads, print the table, write the JSON and the SVG chart.")

    @Flag(help: "About a tenth of the sizes and 3 rounds: under a minute.")
    var quick = false

    @Option(help: "Where to write benchmark-<timestamp>.json and .svg (default: Benchmarks/Results).")
    var output: String?

    @Option(help: "Run only the workload of this name, or else the workloads whose name contains it.")
    var filter: String?

    @Option(help: "Measured rounds per workload (default: 5, or 3 with --quick).")
    var repetitions: Int?

    @Option(help: "Run only these contenders, comma-separated (for profiling one; default: all).")
    var contenders: String?

    func run() throws {
        let repetitions = self.repetitions ?? (quick ? 3 : 5)
        let sizes = Sizes(quick: quick)
        let scratchRoot = FileManager.default.temporaryDirectory
            .appendingPathComponent("realm-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.removeItem(at: scratchRoot)
        defer { try? FileManager.default.removeItem(at: scratchRoot) }

        var types = Contenders.types
        if let contenders {
            let names = Set(contenders.split(separator: ",").map(String.init))
            types = types.filter { names.contains($0.name) }
            guard types.count == names.count else {
                throw ValidationError("Contenders are \(Contenders.types.map { $0.name }.joined(separator: ", ")).")
            }
        }
        let contenders = try types.map { try $0.init(directory: scratchRoot.appendingPathComponent($0.name)) }
        let environment = try RunEnvironment(contenders: contenders, quick: quick, repetitions: repetitions, sizes: sizes)
        let peakMemory = PeakMemory(executable: URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
                                    scratchRoot: scratchRoot)
        var workloads = Workload.all(sizes: sizes, repetitions: repetitions, peakMemory: peakMemory)
        if let filter {
            // An exact name selects one workload even where it is part of
            // another's (indexed-string-lookup, unindexed-string-lookup).
            let exact = workloads.filter { $0.name == filter }
            workloads = exact.isEmpty ? workloads.filter { $0.name.contains(filter) } : exact
            guard !workloads.isEmpty else { throw ValidationError("No workload name contains '\(filter)'.") }
        }

        let start = ContinuousClock.now
        let outcomes = Harness(contenders: contenders, repetitions: repetitions).run(workloads)
        let elapsed = seconds(from: start, to: ContinuousClock.now)

        print(Table.render(outcomes, environment: environment))

        let directory = output.map { URL(fileURLWithPath: $0) } ?? Contenders.packageDirectory.appendingPathComponent("Results")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!,
                                                formatOptions: [.withYear, .withMonth, .withDay, .withTime])
        let base = directory.appendingPathComponent("benchmark-\(stamp)")
        try JSONReport(environment: environment, workloads: outcomes).write(to: base.appendingPathExtension("json"))
        try SVGChart.render(outcomes, environment: environment)
            .write(to: base.appendingPathExtension("svg"), atomically: true, encoding: .utf8)
        print("")
        print(String(format: "Ran in %.0f s. Wrote %@.json and .svg", elapsed, base.path))
    }
}

/// The child process of the peak-memory workload (see PeakMemory).
struct PeakMemoryChild: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "peak-memory-child",
        abstract: "Enumerate a contender's large data set and report peak memory (used by the benchmark itself).",
        shouldDisplay: false)

    @Option var contender: String
    @Option var file: String
    @Option var count: Int
    @Option var scratch: String

    func run() throws {
        guard let type = Contenders.types.first(where: { $0.name == contender }) else {
            throw ValidationError("Unknown contender '\(contender)'.")
        }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let instance = try type.init(directory: URL(fileURLWithPath: scratch))
        let report = try PeakMemory.measureInChild(instance, file: URL(fileURLWithPath: file), count: count)
        print(String(decoding: try JSONEncoder().encode(report), as: UTF8.self))
    }
}

RealmBenchmarkCommand.main()
