import Foundation
import RealmCore
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Transactions, write locks and crashes across processes, with
/// `RealmCoreTestHelper` (Tests/RealmCoreTestHelper/main.swift) as the other
/// process.
@Suite(.serialized) struct MultiProcessTests {
    /// The helper's schema (keep identical to `entrySchema` in the helper).
    static let schema = Schema([
        ObjectSchema(name: "Entry", properties: [
            Property(name: "tx", type: .int),
            Property(name: "seq", type: .int),
            Property(name: "payload", type: .string),
        ]),
    ])

    static func open(_ path: String) throws -> Coordinator {
        try Coordinator.open(.file(path, schema: schema))
    }

    // MARK: Snapshots

    @Test func pinnedReaderKeepsItsVersionWhileAnotherProcessCommits() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        let coordinator = try Self.open(path)
        let writer = try coordinator.makeTransaction()
        let entries = try writer.classHandle(named: "Entry")
        try writer.write {
            for seq in 0..<3 {
                try writer.createObject(in: entries, values: [.int(0), .int(Int64(seq)), .string("local")])
            }
        }

        let reader = try coordinator.makeTransaction()
        let pinned = try reader.version
        let pinnedKeys = try reader.objectKeys(in: entries)
        #expect(pinnedKeys.count == 3)

        let transactions = 10, perTransaction = 5
        let helper = try HelperProcess(["write-loop", path, "\(transactions)", "\(perTransaction)"])
        var reported = 0
        while let line = try helper.readLine() {
            reported += 1
            #expect(line == "committed \(reported)")
            // Between the other process's commits the snapshot stays put.
            #expect(try reader.version == pinned)
            #expect(try reader.count(of: entries) == 3)
            #expect(try reader.objectKeys(in: entries) == pinnedKeys)
        }
        try helper.expectSuccess()
        #expect(reported == transactions)

        #expect(try reader.version == pinned)
        #expect(try reader.count(of: entries) == 3)
        #expect(try reader.objectKeys(in: entries) == pinnedKeys)

        // A new transaction starts at the newest version …
        let fresh = try coordinator.makeTransaction()
        #expect(try fresh.version == pinned + UInt64(transactions))
        #expect(try fresh.count(of: entries) == 3 + transactions * perTransaction)

        // … and the pinned one gets there on refresh.
        #expect(try reader.refresh())
        #expect(try reader.version == pinned + UInt64(transactions))
        #expect(try reader.count(of: entries) == 3 + transactions * perTransaction)
        let groups = try Self.groups(reader, entries)
        for tx in 1...transactions {
            #expect(groups[tx] == Array(0..<perTransaction), "transaction \(tx)")
        }
    }

    // MARK: Write lock

    @Test func beginWriteWaitsForAnotherProcessesWriteTransaction() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        let coordinator = try Self.open(path)
        let transaction = try coordinator.makeTransaction()
        let entries = try transaction.classHandle(named: "Entry")
        let before = try transaction.version

        let helper = try HelperProcess(["hold-write", path, "800"])
        #expect(try helper.readLine() == "locked")
        let clock = ContinuousClock()
        let start = clock.now
        try transaction.beginWrite()
        let waited = start.duration(to: clock.now)

        // The helper writes `committing` before it commits, and its commit is
        // what let beginWrite() through, so the line must already be waiting
        // in the pipe.
        #expect(helper.hasLineReady(), "beginWrite() returned before the other process began to commit (after \(waited))")
        #expect(try helper.readLine() == "committing")
        #expect(waited >= .milliseconds(200), "beginWrite() waited only \(waited) for a write held for 800 ms")

        // The write starts from the other process's commit.
        #expect(transaction.state == .writing(version: before + 1))
        #expect(try transaction.count(of: entries) == 1)
        let held = try #require(try transaction.objectKeys(in: entries).first)
        #expect(try transaction.values(of: held, in: entries) == [.int(-1), .int(0), .string("held")])
        let mine = try transaction.createObject(in: entries, values: [.int(1), .int(0), .string("mine")])
        #expect(mine != held)
        try transaction.commitWrite()

        #expect(try helper.readLine() == "committed")
        try helper.expectSuccess()
        #expect(try transaction.version == before + 2)
        #expect(try transaction.count(of: entries) == 2)
    }

    // MARK: Crashes

    @Test(arguments: [5, 20, 40])
    func killedWriterLeavesOnlyWholeTransactions(killAfter: Int) throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        let perTransaction = 40
        // Lay the file out, then let go of it so that the check below opens
        // it afresh.
        let initialVersion: UInt64
        do {
            let coordinator = try Self.open(path)
            initialVersion = try coordinator.makeTransaction().version
        }

        let helper = try HelperProcess(["write-loop", path, "100000", "\(perTransaction)"])
        var reported = 0
        while reported < killAfter {
            guard let line = try helper.readLine() else {
                Issue.record("The helper exited after \(reported) commits: \(helper.errorOutput())")
                return
            }
            reported = try Self.committedNumber(line)
        }
        helper.kill(SIGKILL)
        helper.waitForExit()
        #expect(helper.process.terminationReason == .uncaughtSignal)
        #expect(helper.process.terminationStatus == SIGKILL)
        // Commits reported after the line that triggered the kill.
        while let line = try helper.readLine() {
            reported = max(reported, try Self.committedNumber(line))
        }

        weak var released: Coordinator?
        do {
            let coordinator = try Self.open(path)
            released = coordinator
            let transaction = try coordinator.makeTransaction()
            let entries = try transaction.classHandle(named: "Entry")
            let groups = try Self.groups(transaction, entries, checkingPayloads: true)
            let last = groups.keys.max() ?? 0
            // Every reported commit survived, and at most one unreported one.
            #expect(last >= reported, "commit \(reported) was reported, but the file ends at \(last)")
            #expect(last <= reported + 1, "the file holds \(last) transactions; the helper reported \(reported)")
            #expect(Set(groups.keys) == Set((0..<last).map { $0 + 1 }), "transactions are missing")
            // No transaction is partly there.
            for (tx, seqs) in groups.sorted(by: { $0.key < $1.key }) {
                #expect(seqs == Array(0..<perTransaction), "transaction \(tx) has \(seqs.count) of \(perTransaction) objects")
            }
            #expect(try transaction.version == initialVersion + UInt64(last))
            #expect(try Self.integrityCheck(path) == "ok")

            // The file stays writable.
            try transaction.write {
                try transaction.createObject(in: entries, values: [.int(Int64(last + 1)), .int(0), .string("after")])
            }
            #expect(try transaction.version == initialVersion + UInt64(last) + 1)
        }
        #expect(released == nil, "the coordinator outlived its last transaction")
    }

    // MARK: Concurrent writers

    @Test func writersInSeveralProcessesAllCommit() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        let coordinator = try Self.open(path)
        let transaction = try coordinator.makeTransaction()
        let entries = try transaction.classHandle(named: "Entry")
        let initialVersion = try transaction.version

        let perProcess = 50
        let helpers = try (0..<3).map { _ in try HelperProcess(["append", path, "\(perProcess)"]) }
        for seq in 0..<perProcess {
            try transaction.write {
                try transaction.createObject(in: entries, values: [.int(0), .int(Int64(seq)), .string("test")])
            }
        }
        for helper in helpers {
            #expect(try helper.readLine() == "done")
            try helper.expectSuccess()
        }

        try transaction.refresh()
        let total = 4 * perProcess
        #expect(try transaction.count(of: entries) == total)
        let keys = try transaction.objectKeys(in: entries)
        #expect(keys.count == total)
        #expect(Set(keys).count == keys.count, "object keys were handed out twice")
        #expect(try transaction.version == initialVersion + UInt64(total))
        let groups = try Self.groups(transaction, entries)
        let expectedWriters = Set([0] + helpers.map { Int($0.process.processIdentifier) })
        #expect(Set(groups.keys) == expectedWriters)
        for (writer, seqs) in groups {
            #expect(seqs == Array(0..<perProcess), "writer \(writer)")
        }
    }

    @Test func processesCreatingOneFileAtOnceAgreeOnItsLayout() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        let perProcess = 20
        let helpers = try (0..<3).map { _ in try HelperProcess(["append", path, "\(perProcess)"]) }
        for helper in helpers {
            #expect(try helper.readLine() == "done", "\(helper.errorOutput())")
            try helper.expectSuccess()
        }
        let coordinator = try Self.open(path)
        let transaction = try coordinator.makeTransaction()
        let entries = try transaction.classHandle(named: "Entry")
        #expect(try transaction.count(of: entries) == 3 * perProcess)
        #expect(transaction.schema.objectSchemas.count == 1)
        // The layout commit (version 1 → 2) happened once.
        #expect(try transaction.version == 2 + UInt64(3 * perProcess))
    }

    // MARK: Support

    /// The `seq` numbers of each `tx` number, sorted.
    /// With `checkingPayloads`, also that each payload is the 400 bytes
    /// write-loop wrote for its object.
    static func groups(_ transaction: Transaction, _ entries: ClassHandle, checkingPayloads: Bool = false) throws -> [Int: [Int]] {
        var groups: [Int: [Int]] = [:]
        for key in try transaction.objectKeys(in: entries) {
            let values = try transaction.values(of: key, in: entries)
            guard case .int(let tx) = values[0], case .int(let seq) = values[1], case .string(let payload) = values[2] else {
                Issue.record("object \(key) has values \(values)")
                continue
            }
            if checkingPayloads {
                #expect(payload.utf8.count == 400 && payload.hasPrefix("tx\(tx)-seq\(seq)-"), "object \(key) has a torn payload")
            }
            groups[Int(tx), default: []].append(Int(seq))
        }
        return groups.mapValues { $0.sorted() }
    }

    static func committedNumber(_ line: String) throws -> Int {
        let words = line.split(separator: " ")
        return try #require(words.count == 2 && words[0] == "committed" ? Int(words[1]) : nil, "unexpected helper output '\(line)'")
    }

    static func integrityCheck(_ path: String) throws -> String {
        let connection = try Connection(path: path, readOnly: false)
        let statement = try connection.prepare("PRAGMA integrity_check")
        defer { statement.reset() }
        return try statement.step() ? statement.string(at: 0) : "no result"
    }
}

/// `RealmCoreTestHelper` running in a child process, its stdout read line by
/// line.
final class HelperProcess {
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffer: [UInt8] = []
    private var reachedEnd = false
    /// How long a read waits for the helper before the test fails.
    static let timeout: Duration = .seconds(120)

    /// Starts the helper with `arguments`; `encryptionKey` makes it open
    /// the file with that key.
    init(_ arguments: [String], encryptionKey: Data? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        process.executableURL = try Self.executable(sourceLocation: sourceLocation)
        process.arguments = arguments
        if let encryptionKey {
            var environment = ProcessInfo.processInfo.environment
            environment["REALM_TEST_ENCRYPTION_KEY"] = encryptionKey.map { String(format: "%02x", $0) }.joined()
            process.environment = environment
        }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning {
            kill(SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The helper next to the running test binary (the products directory).
    static func executable(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        var binaries: [URL] = []
        if let url = Bundle.main.executableURL { binaries.append(url) }
        if let first = CommandLine.arguments.first { binaries.append(URL(fileURLWithPath: first)) }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            binaries.append(URL(fileURLWithPath: exe))
        }
        var searched: [String] = []
        for binary in binaries {
            // On Darwin the binary sits in Foo.xctest/Contents/MacOS.
            var directory = binary.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("RealmCoreTestHelper")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                searched.append(directory.path)
                directory = directory.deletingLastPathComponent()
            }
        }
        return try #require(
            nil as URL?,
            "RealmCoreTestHelper not found next to the test binary (searched \(searched)); build it with `swift build --build-tests`.",
            sourceLocation: sourceLocation)
    }

    /// The next line of the helper's stdout, or nil at its end.
    func readLine(sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let deadline = ContinuousClock.now + Self.timeout
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            if reachedEnd {
                // A line cut short by a kill is not a line.
                return nil
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            let milliseconds = remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000 + 1
            guard remaining > .zero, wait(milliseconds: Int32(clamping: milliseconds)) else {
                try #require(Bool(false), "No output from the helper \(process.arguments ?? []) for \(Self.timeout); stderr: \(errorOutput())", sourceLocation: sourceLocation)
                return nil
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
            } else if count == 0 {
                reachedEnd = true
            } else if errno != EINTR && errno != EAGAIN {
                reachedEnd = true
            }
        }
    }

    /// Whether a whole line can be read without waiting.
    func hasLineReady() -> Bool {
        if buffer.contains(UInt8(ascii: "\n")) { return true }
        guard wait(milliseconds: 0) else { return false }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0) }
        if count > 0 { buffer.append(contentsOf: chunk[..<count]) }
        return buffer.contains(UInt8(ascii: "\n"))
    }

    private var descriptor: Int32 { output.fileHandleForReading.fileDescriptor }

    private func wait(milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let status = poll(&entry, 1, milliseconds)
            if status >= 0 { return status > 0 }
            if errno != EINTR { return true }
        }
    }

    func kill(_ signal: Int32) {
        _ = systemKill(process.processIdentifier, signal)
    }

    func waitForExit() {
        process.waitUntilExit()
    }

    /// Everything the helper wrote to stderr (waits for it to exit).
    func errorOutput() -> String {
        if process.isRunning { kill(SIGKILL) }
        process.waitUntilExit()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits for the helper and requires that it exited with status 0.
    func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) throws {
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let reason = process.terminationReason == .exit ? "exited with \(process.terminationStatus)" : "died of signal \(process.terminationStatus)"
            try #require(Bool(false), "The helper \(process.arguments ?? []) \(reason): \(errorOutput())", sourceLocation: sourceLocation)
            return
        }
    }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    read(descriptor, buffer.baseAddress, buffer.count)
}

private func systemKill(_ process: pid_t, _ signal: Int32) -> Int32 {
    kill(process, signal)
}
