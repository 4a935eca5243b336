import Foundation
import RealmCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Encrypted files on disk: what they hold, what a wrong key or a changed
/// byte does, and how they behave with crashes and several processes.
@Suite(.serialized) struct EncryptionTests {
    static let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
    static let otherKey = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 5) })

    static let schema = Schema([
        ObjectSchema(name: "Secret", properties: [
            Property(name: "name", type: .string, isIndexed: true),
            Property(name: "note", type: .string),
            Property(name: "blob", type: .data),
        ]),
    ])

    static func configuration(_ path: String, key: Data? = EncryptionTests.key) -> Coordinator.Configuration {
        var configuration = Coordinator.Configuration.file(path, schema: schema)
        configuration.encryptionKey = key
        return configuration
    }

    /// Recognizable values: each says which object it belongs to, so that
    /// any 16 bytes of one are unlikely to occur by chance.
    static func name(_ index: Int) -> String { "secret-name-\(index)-" + String(repeating: "N", count: 24) }
    static func note(_ index: Int) -> String { "A confidential note number \(index) that must never reach the disk in the clear." }
    static func blob(_ index: Int) -> Data { Data("binary-payload-\(index)-".utf8 + (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }) }

    /// Writes `count` secrets in `transactions` commits.
    static func fill(_ coordinator: Coordinator, count: Int = 300, transactions: Int = 10) throws {
        let transaction = try coordinator.makeTransaction()
        let secrets = try transaction.classHandle(named: "Secret")
        for batch in 0..<transactions {
            try transaction.write {
                for index in stride(from: batch, to: count, by: transactions) {
                    _ = try transaction.createObject(in: secrets, values: [.string(name(index)), .string(note(index)), .data(blob(index))])
                }
            }
        }
    }

    /// Every secret, read back, keyed by its name.
    static func contents(_ coordinator: Coordinator) throws -> [String: [Value]] {
        let transaction = try coordinator.makeTransaction()
        let secrets = try transaction.classHandle(named: "Secret")
        var contents: [String: [Value]] = [:]
        for key in try transaction.objectKeys(in: secrets) {
            let values = try transaction.values(of: key, in: secrets)
            guard case .string(let name) = values[0] else { continue }
            contents[name] = values
        }
        return contents
    }

    static func expectIntact(_ coordinator: Coordinator, count: Int = 300, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let contents = try contents(coordinator)
        #expect(contents.count == count, sourceLocation: sourceLocation)
        for index in 0..<count {
            #expect(contents[name(index)] == [.string(name(index)), .string(note(index)), .data(blob(index))],
                    "secret \(index)", sourceLocation: sourceLocation)
        }
    }

    /// Sixteen bytes, as two words, for hashing.
    struct Run: Hashable {
        let low: UInt64
        let high: UInt64

        init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
            low = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            high = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
        }
    }

    /// How many of the file's 16-byte runs, at any offset, are runs of one
    /// of `values` (at any offset).
    static func plaintextRuns(in path: String, of values: [Data]) -> Int {
        guard let file = FileManager.default.contents(atPath: path), file.count >= 16 else { return 0 }
        var runs = Set<Run>()
        for value in values where value.count >= 16 {
            value.withUnsafeBytes { bytes in
                for offset in 0...(bytes.count - 16) { runs.insert(Run(bytes, at: offset)) }
            }
        }
        return file.withUnsafeBytes { bytes in
            (0...(bytes.count - 16)).reduce(0) { found, offset in runs.contains(Run(bytes, at: offset)) ? found + 1 : found }
        }
    }

    @Test func theScanFindsPlaintextWhereThereIsSome() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        try Self.fill(try Coordinator.open(Self.configuration(path, key: nil)))
        #expect(Self.plaintextRuns(in: path, of: Self.storedValues()) > 1000)
    }

    static func storedValues(count: Int = 300) -> [Data] {
        (0..<count).flatMap { [Data(name($0).utf8), Data(note($0).utf8), blob($0)] }
    }

    // MARK: No plaintext

    @Test func neitherTheFileNorItsLogHoldsPlaintext() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        do {
            let coordinator = try Coordinator.open(Self.configuration(path))
            try Self.fill(coordinator)
            // The commits are in the log, not yet checkpointed.
            let logSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
            #expect(logSize > 100_000)
            #expect(Self.plaintextRuns(in: path + "-wal", of: Self.storedValues()) == 0)
            #expect(Self.plaintextRuns(in: path, of: Self.storedValues()) == 0)
            try Self.expectIntact(coordinator)
        }
        // Closed: checkpointed into the file.
        #expect(Self.plaintextRuns(in: path, of: Self.storedValues()) == 0)
        let header = try #require(FileManager.default.contents(atPath: path)).prefix(16)
        #expect(header != Data("SQLite format 3\0".utf8), "standard tools must not recognise the file")
        let coordinator = try Coordinator.open(Self.configuration(path))
        try Self.expectIntact(coordinator)
        #expect(try coordinator.makeTransaction().verify() == [])
    }

    /// Lays out an encrypted file at `path` with MultiProcessTests' schema,
    /// lets a helper process commit into it, kills the helper once it
    /// reported `commits` commits, and returns the last commit it reported.
    static func killWriter(of path: String, after commits: Int, objectsPerTransaction: Int) throws -> Int {
        _ = try Coordinator.open(.init(location: .file(path), encryptionKey: key, schema: MultiProcessTests.schema))
        let helper = try HelperProcess(["write-loop", path, "100000", "\(objectsPerTransaction)"], encryptionKey: key)
        var reported = 0
        while reported < commits, let line = try helper.readLine() {
            reported = try MultiProcessTests.committedNumber(line)
        }
        helper.kill(SIGKILL)
        helper.waitForExit()
        while let line = try helper.readLine() {
            reported = max(reported, try MultiProcessTests.committedNumber(line))
        }
        return reported
    }

    @Test func aWriterKilledMidCommitLeavesNoPlaintext() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        let reported = try Self.killWriter(of: path, after: 25, objectsPerTransaction: 40)
        #expect(reported >= 25)
        // The payloads the helper wrote ("tx1-seq0-tx1-seq0-…").
        let payloads = (1...reported).flatMap { tx in (0..<40).map { Data("tx\(tx)-seq\($0)-tx\(tx)-seq\($0)-".utf8) } }
        #expect(Self.plaintextRuns(in: path + "-wal", of: payloads) == 0)
        #expect(Self.plaintextRuns(in: path, of: payloads) == 0)

        var configuration = Coordinator.Configuration.file(path, schema: MultiProcessTests.schema)
        configuration.encryptionKey = Self.key
        let coordinator = try Coordinator.open(configuration)
        let transaction = try coordinator.makeTransaction()
        let groups = try MultiProcessTests.groups(transaction, try transaction.classHandle(named: "Entry"), checkingPayloads: true)
        let last = groups.keys.max() ?? 0
        #expect(last >= reported && last <= reported + 1)
        for (tx, seqs) in groups { #expect(seqs == Array(0..<40), "transaction \(tx) is partly there") }
        #expect(try transaction.verify() == [])
    }

    @Test func anInMemoryRealmWithAKeyEncryptsItsPrivateFile() throws {
        var configuration = Coordinator.Configuration.inMemory("encrypted-\(UUID())", schema: Self.schema)
        configuration.encryptionKey = Self.key
        let coordinator = try Coordinator.open(configuration)
        try Self.fill(coordinator)
        try Self.expectIntact(coordinator)
        #expect(Self.plaintextRuns(in: coordinator.path, of: Self.storedValues()) == 0)
        #expect(Self.plaintextRuns(in: coordinator.path + "-wal", of: Self.storedValues()) == 0)
    }

    // MARK: Keys

    @Test func wrongMissingAndMisfitKeysAreRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        try Self.fill(try Coordinator.open(Self.configuration(path)))

        func openError(_ configuration: Coordinator.Configuration) -> RealmError? {
            do {
                let coordinator = try Coordinator.open(configuration)
                _ = try Self.contents(coordinator)
                return nil
            } catch {
                return error as? RealmError ?? RealmError(.storage, "\(error)")
            }
        }

        // Wrong in the cipher's half, in the MAC's half, or in both.
        var cipherHalfWrong = Self.key, macHalfWrong = Self.key
        cipherHalfWrong[0] ^= 0x01
        macHalfWrong[63] ^= 0x80
        for key in [Self.otherKey, cipherHalfWrong, macHalfWrong] {
            let wrong = try #require(openError(Self.configuration(path, key: key)))
            #expect(wrong.kind == .notARealm)
            #expect(wrong.message.contains("invalid database"))
            #expect(wrong.message.contains("encryption key is wrong"))
        }

        let missing = try #require(openError(Self.configuration(path, key: nil)))
        #expect(missing.kind == .notARealm)
        #expect(missing.message.contains("invalid database"))
        #expect(missing.message.contains("encryption key"))

        for length in [0, 32, 63, 65, 128] {
            let misfit = try #require(openError(Self.configuration(path, key: Data(repeating: 7, count: length))))
            #expect(misfit.kind == .invalidValue)
            #expect(misfit.message.contains("exactly 64 bytes"))
            #expect(misfit.message.contains("it is \(length) bytes"))
        }

        // The file is untouched by every refusal.
        try Self.expectIntact(try Coordinator.open(Self.configuration(path)))

        let plainPath = directory.path("plain.realm")
        try Self.fill(try Coordinator.open(Self.configuration(plainPath, key: nil)))
        let keyOnPlain = try #require(openError(Self.configuration(plainPath)))
        #expect(keyOnPlain.kind == .notARealm)
        #expect(keyOnPlain.message.contains("invalid database"))
        #expect(keyOnPlain.message.contains("not encrypted"))
        try Self.expectIntact(try Coordinator.open(Self.configuration(plainPath, key: nil)))
    }

    @Test func aSecondKeyForAnOpenFileIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        let coordinator = try Coordinator.open(Self.configuration(path))
        for other in [Self.otherKey, nil] {
            #expect(throws: RealmError.self) { _ = try Coordinator.open(Self.configuration(path, key: other)) }
        }
        withExtendedLifetime(coordinator) {}
    }

    // MARK: Damage

    enum Damage: String, CaseIterable, Sendable {
        case dataPage, firstPage, initializationVector, mac, swappedPages, truncatedMidPage, truncatedAtPageBoundary
    }

    /// Reads every page of the file at `path` (integrity check and every
    /// object), and returns the error that stopped it.
    static func errorReading(_ path: String) -> RealmError? {
        do {
            let coordinator = try Coordinator.open(configuration(path))
            let transaction = try coordinator.makeTransaction()
            let problems = try transaction.verify()
            _ = try contents(coordinator)
            return problems.isEmpty ? nil : RealmError(.corruptFile, problems.joined(separator: "; "))
        } catch {
            return error as? RealmError ?? RealmError(.storage, "\(error)")
        }
    }

    @Test(arguments: Damage.allCases)
    func changedBytesAreDetected(_ damage: Damage) throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        try Self.fill(try Coordinator.open(Self.configuration(path)))
        let damagedPath = directory.path("damaged.realm")
        try FileManager.default.copyItem(atPath: path, toPath: damagedPath)

        var bytes = try #require(FileManager.default.contents(atPath: damagedPath))
        let pageSize = 4096
        let pages = bytes.count / pageSize
        #expect(pages >= 5)
        let page = pages / 2
        switch damage {
        case .dataPage: bytes[page * pageSize + 1000] ^= 0x01
        case .firstPage: bytes[50] ^= 0x80
        case .initializationVector: bytes[page * pageSize + 4048 + 5] ^= 0x01
        case .mac: bytes[page * pageSize + 4064 + 31] ^= 0x01
        case .swappedPages:
            let first = bytes.subdata(in: pageSize..<2 * pageSize)
            bytes.replaceSubrange(pageSize..<2 * pageSize, with: bytes.subdata(in: page * pageSize..<(page + 1) * pageSize))
            bytes.replaceSubrange(page * pageSize..<(page + 1) * pageSize, with: first)
        case .truncatedMidPage: bytes = bytes.prefix(bytes.count - pageSize / 2)
        case .truncatedAtPageBoundary: bytes = bytes.prefix(bytes.count - 2 * pageSize)
        }
        try bytes.write(to: URL(fileURLWithPath: damagedPath))

        let error = try #require(Self.errorReading(damagedPath), "\(damage) went unnoticed")
        switch damage {
        case .firstPage:
            #expect(error.kind == .notARealm)
            #expect(error.message.contains("first page fails authentication"))
        case .truncatedMidPage:
            #expect(error.kind == .corruptFile)
            #expect(error.message.contains("truncated"))
        case .truncatedAtPageBoundary:
            // Missing pages read as absent: SQLite finds its b-tree broken.
            #expect(error.kind == .corruptFile)
            #expect(error.message.contains("malformed"))
        default:
            #expect(error.kind == .corruptFile || error.kind == .notARealm)
            #expect(error.message.contains("fails authentication"))
        }
        // The undamaged original is intact.
        try Self.expectIntact(try Coordinator.open(Self.configuration(path)))
    }

    @Test func aChangedFrameOfALogInUseIsDetected() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        let coordinator = try Coordinator.open(Self.configuration(path))
        try Self.fill(coordinator)
        // The last frame is the newest version of its page.
        let log = try FileHandle(forUpdating: URL(fileURLWithPath: path + "-wal"))
        let size = try log.seekToEnd()
        try log.seek(toOffset: size - 2000)
        var byte = try #require(try log.read(upToCount: 1))
        byte[0] ^= 0x01
        try log.seek(toOffset: size - 2000)
        try log.write(contentsOf: byte)
        try log.close()

        let reader = try Connection(path: path, readOnly: true, encryptionKey: Self.key)
        let statement = try reader.prepare("PRAGMA integrity_check")
        let error = #expect(throws: RealmError.self) { while try statement.step() {} }
        #expect(error?.kind == .corruptFile)
        #expect(error?.message.contains("write-ahead log") == true)
        #expect(error?.message.contains("fails authentication") == true)
        withExtendedLifetime(coordinator) {}
    }

    @Test func aChangedFrameOfALogLeftByACrashIsDetected() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        // Killed before it closes: the log stays, to be recovered.
        let reported = try Self.killWriter(of: path, after: 30, objectsPerTransaction: 5)
        let logSize = try #require(try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int)
        #expect(logSize > 32 + 20 * 4120)

        // A copy with one byte of an early frame changed; the original stays.
        let damagedPath = directory.path("damaged.realm")
        try FileManager.default.copyItem(atPath: path, toPath: damagedPath)
        var log = try #require(FileManager.default.contents(atPath: path + "-wal"))
        log[32 + 3 * 4120 + 24 + 700] ^= 0x04
        try log.write(to: URL(fileURLWithPath: damagedPath + "-wal"))

        var configuration = Coordinator.Configuration.file(damagedPath, schema: MultiProcessTests.schema)
        configuration.encryptionKey = Self.key
        let error = #expect(throws: RealmError.self) {
            let coordinator = try Coordinator.open(configuration)
            _ = try coordinator.makeTransaction().verify()
        }
        #expect(error?.message.contains("frame 4 of the write-ahead log") == true)

        configuration.location = .file(path)
        let transaction = try Coordinator.open(configuration).makeTransaction()
        let groups = try MultiProcessTests.groups(transaction, try transaction.classHandle(named: "Entry"), checkingPayloads: true)
        #expect(groups.count >= reported)
    }

    // MARK: Several processes

    @Test func writersInSeveralProcessesShareAnEncryptedFile() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        var configuration = Coordinator.Configuration.file(path, schema: MultiProcessTests.schema)
        configuration.encryptionKey = Self.key
        let coordinator = try Coordinator.open(configuration)
        let heard = Heard()
        let listener = coordinator.addCommitListener { version in heard.note(version) }
        defer { coordinator.removeCommitListener(listener) }
        let transaction = try coordinator.makeTransaction()
        let entries = try transaction.classHandle(named: "Entry")
        let perProcess = 40
        let helpers = try (0..<3).map { _ in try HelperProcess(["append", path, "\(perProcess)"], encryptionKey: Self.key) }
        for seq in 0..<perProcess {
            try transaction.write {
                _ = try transaction.createObject(in: entries, values: [.int(0), .int(Int64(seq)), .string("local")])
            }
        }
        for helper in helpers {
            #expect(try helper.readLine() == "done")
            try helper.expectSuccess()
        }
        let reader = try coordinator.makeTransaction()
        #expect(try reader.count(of: try reader.classHandle(named: "Entry")) == 4 * perProcess)
        // Other processes' commits reach this one's listeners.
        let finalVersion = try reader.version
        let deadline = Date(timeIntervalSinceNow: 120)
        while heard.highest < finalVersion && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(heard.highest >= finalVersion)
        #expect(try reader.verify() == [])
    }

    /// The versions a commit listener heard of.
    final class Heard: @unchecked Sendable {
        private let lock = NSLock()
        private var value: UInt64 = 0
        func note(_ version: UInt64) { lock.withLock { value = max(value, version) } }
        var highest: UInt64 { lock.withLock { value } }
    }
}
