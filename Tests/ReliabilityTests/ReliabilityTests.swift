import Foundation
import Testing

/// Runs each family of the reliability suite (Tests/Reliability) as its own
/// process, at the CI size with a fixed seed, so that a red run is a bug to
/// fix and never a flake to retry. `RELIABILITY=full swift test --filter
/// ReliabilityTests` runs the large size with a fresh seed, printed in each
/// family's `RESULT` line so that a failure can be replayed with
/// `RealmReliability FAMILY --size full --seed S [--case N]`.
@Suite(.serialized) struct ReliabilityTests {
    static let isFull = ProcessInfo.processInfo.environment["RELIABILITY"] == "full"

    /// The CI seeds, fixed; the full size takes a new one each run.
    static let ciSeed: UInt64 = 20_261_125

    @Test func crashSafety() throws { try run("crash-safety") }
    @Test func concurrency() throws { try run("concurrency") }
    @Test func predicateFuzz() throws { try run("predicate-fuzz") }
    @Test func damagedFiles() throws { try run("damaged-files") }
    @Test func badValues() throws { try run("bad-values") }
    @Test func injection() throws { try run("injection") }
    @Test func soak() throws { try run("soak") }
    /// Cases that large runs found, replayed forever.
    @Test(arguments: [
        // A record header claiming a value over SQLite's length limit:
        // SQLITE_TOOBIG, which was not taken for damage (issue 35).
        ("damaged-files", "full", UInt64(3502), 3320),
        // Random bytes in a page: a stop of the code before this issue's
        // changes to the write path, which no longer happens.
        ("damaged-files", "full", UInt64(3502), 5019),
    ])
    func foundByLargeRuns(_ found: (family: String, size: String, seed: UInt64, case: Int)) throws {
        try run(found.family, size: found.size, seed: found.seed, case: found.case)
    }

    // The bank's families again, on encrypted files.
    @Test func crashSafetyEncrypted() throws { try run("crash-safety", encrypted: true) }
    @Test func concurrencyEncrypted() throws { try run("concurrency", encrypted: true) }

    private func run(_ family: String, encrypted: Bool = false, size: String? = nil, seed: UInt64? = nil, case number: Int? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) throws {
        let seed = seed ?? (Self.isFull ? UInt64.random(in: 0...UInt64.max) : Self.ciSeed)
        let size = size ?? (Self.isFull ? "full" : "ci")
        let process = Process()
        process.executableURL = try Self.executable(sourceLocation: sourceLocation)
        process.arguments = [family, "--size", size, "--seed", String(seed)] + (number.map { ["--case", String($0)] } ?? [])
        if encrypted {
            var environment = ProcessInfo.processInfo.environment
            environment["RELIABILITY_ENCRYPTED"] = "1"
            process.environment = environment
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let result = text.split(separator: "\n").last { $0.hasPrefix("RESULT") }.map(String.init)
        print(result ?? "\(family): no RESULT line")
        #expect(process.terminationReason == .exit && process.terminationStatus == 0,
                "\(family) failed (exit \(process.terminationStatus)); replay with `\(encrypted ? "RELIABILITY_ENCRYPTED=1 " : "")RealmReliability \(process.arguments!.joined(separator: " "))`:\n\(text.suffix(6_000))",
                sourceLocation: sourceLocation)
        #expect(result?.contains(" failures=0 ") == true, "\(family): \(result ?? "no result")", sourceLocation: sourceLocation)
    }

    /// The RealmReliability executable, next to the test binary.
    static func executable(sourceLocation: SourceLocation) throws -> URL {
        var binaries: [URL] = []
        if let url = Bundle.main.executableURL { binaries.append(url) }
        if let first = CommandLine.arguments.first { binaries.append(URL(fileURLWithPath: first)) }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            binaries.append(URL(fileURLWithPath: exe))
        }
        for binary in binaries {
            var directory = binary.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("RealmReliability")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory = directory.deletingLastPathComponent()
            }
        }
        return try #require(nil as URL?, "RealmReliability not found next to the test binary; build it with `swift build --build-tests`.",
                            sourceLocation: sourceLocation)
    }
}
