import BenchmarkSupport
import Foundation
import SQLiteContender

/// Where and how the benchmark ran, for the report's header and the JSON.
struct RunEnvironment: Codable {
    var date: String
    /// The project's commit, "+dirty" when its sources have uncommitted
    /// changes (the numbers are then those of uncommitted code).
    var projectRevision: String
    var swiftVersion: String
    var sqliteVersion: String
    /// The journal mode every contender runs at (or each one's, when they
    /// differ, which the benchmark refuses).
    var journalMode: String
    var synchronous: String
    /// Each contender's settings, and how they were read.
    var storage: [String: StorageSettings]
    var quick: Bool
    var repetitions: Int
    var operatingSystem: String
    var architecture: String
    var processors: Int
    var physicalMemoryBytes: UInt64
    var sizes: Sizes
    /// How the data is made, for whoever reads the numbers.
    var data: String

    init(contenders: [any Contender], quick: Bool, repetitions: Int, sizes: Sizes) throws {
        let formatter = ISO8601DateFormatter()
        date = formatter.string(from: Date())
        projectRevision = Self.projectRevision()
        swiftVersion = Self.swiftVersion()
        sqliteVersion = SQLiteContender.libraryVersion
        storage = [:]
        for contender in contenders {
            storage[contender.name] = try contender.storageSettings()
        }
        let modes = Set(storage.values.map { $0.journalMode.lowercased() })
        let levels = Set(storage.values.map { $0.synchronous.uppercased() })
        guard modes.count == 1, levels.count == 1 else {
            throw BenchmarkError("The contenders do not run at the same journal mode and synchronous level: \(storage)")
        }
        journalMode = modes.first!
        synchronous = levels.first!
        self.quick = quick
        self.repetitions = repetitions
        operatingSystem = ProcessInfo.processInfo.operatingSystemVersionString
        var names = utsname()
        uname(&names)
        architecture = withUnsafeBytes(of: names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        processors = ProcessInfo.processInfo.activeProcessorCount
        physicalMemoryBytes = ProcessInfo.processInfo.physicalMemory
        self.sizes = sizes
        data = "objects (id Int primary key, stringCol String unindexed, indexedString String indexed, intCol Int); "
            + "stringCol = 'a' when id % 10 == 0, else 'b\\(id % 1000)' (10% match stringCol == 'a'); "
            + "indexedString = 's\\(id)'; intCol = (id * 7919) % 1000003 (distinct, unsorted); "
            + "lookups use a class with the same unique string in an indexed and an unindexed property"
    }

    /// The first line of `swift --version`, or the compiler this was built
    /// with when `swift` is not on the PATH.
    private static func swiftVersion() -> String {
        if let line = firstLine(of: ["swift", "--version"]) { return line }
        #if compiler(>=6.3)
        return "Swift 6.3 or later (compiler)"
        #else
        return "Swift 6 (compiler)"
        #endif
    }

    /// `git rev-parse --short HEAD` of the project, with "+dirty" when the
    /// code under test (the root package's manifest and `Sources/`) has
    /// uncommitted changes; "unknown" outside a checkout.
    private static func projectRevision() -> String {
        let project = Contenders.packageDirectory.deletingLastPathComponent().path
        guard let revision = firstLine(of: ["git", "-C", project, "rev-parse", "--short", "HEAD"]) else { return "unknown" }
        let status = ["git", "-C", project, "status", "--porcelain", "--", "Sources", "Package.swift"]
        let isDirty = firstLine(of: status) != nil
        return isDirty ? revision + "+dirty" : revision
    }

    /// The first line a command prints, or nil when it fails or prints
    /// nothing.
    private static func firstLine(of command: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
    }
}
