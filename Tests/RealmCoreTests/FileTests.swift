import Foundation
import RealmCore
import Testing

/// Opening files that are not Realms, damaged files, read-only and
/// in-memory Realms, and the files beside a Realm.
@Suite struct FileTests {
    /// The bytes of a file, to check that a refused open changed nothing.
    func contents(_ path: String) -> Data? {
        FileManager.default.contents(atPath: path)
    }

    /// Runs SQL on a file as another tool would, outside the object store.
    func runSQLite(_ path: String, _ sql: String) throws {
        let connection = try Connection(path: path, readOnly: false)
        try connection.execute(sql)
    }

    @Test func anotherSQLiteDatabaseIsRefusedAndUnchanged() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("other.db")
        try runSQLite(path, "CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO customers VALUES (1, 'x');")
        let before = contents(path)
        let error = #expect(throws: RealmError.self) { _ = try Coordinator.open(.file(path, schema: TestSchema.schema)) }
        #expect(error?.kind == .notARealm)
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("customers") == true)
        #expect(contents(path) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aTextFileIsRefusedAndUnchanged() throws {
        let directory = TemporaryDirectory()
        let path = directory.path("notes.realm")
        try Data("These are not the bytes you are looking for.\n".utf8).write(to: URL(fileURLWithPath: path))
        let before = contents(path)
        let error = #expect(throws: RealmError.self) { _ = try Coordinator.open(.file(path, schema: TestSchema.schema)) }
        #expect(error?.kind == .notARealm)
        #expect(error?.message.contains("not a SQLite database") == true)
        #expect(error?.message.contains("encryption key") == true)
        #expect(contents(path) == before)
    }

    /// A Realm file with data, closed, with its WAL checkpointed into it.
    func makeRealmFile(_ directory: TemporaryDirectory) throws -> String {
        let path = directory.path()
        do {
            let coordinator = try openCoordinator(directory)
            let transaction = try coordinator.makeTransaction()
            let dogs = try transaction.classHandle(named: "Dog")
            try transaction.write {
                for index in 0..<2_000 {
                    try transaction.createObject(in: dogs, values: [.string("dog number \(index) with a longish name"), .int(Int64(index))])
                }
            }
        }
        // The last connection closed: SQLite checkpointed and removed the WAL.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        return path
    }

    @Test func aTruncatedFileIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = try makeRealmFile(directory)
        let data = try #require(contents(path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: RealmError.self) { _ = try openCoordinator(directory) }
        #expect(error?.kind == .corruptFile)
        #expect(error?.message.contains("truncated") == true)

        try data.prefix(50).write(to: URL(fileURLWithPath: path))
        let short = #expect(throws: RealmError.self) { _ = try openCoordinator(directory) }
        #expect(short?.kind == .corruptFile)
    }

    /// Issue 15, item 1: a process killed during a checkpoint, after the
    /// first page (the header, with the new page count) reached the main
    /// file and before the rest did. The log still holds every committed
    /// page, and SQLite recovers the file: it must open with all its data.
    @Test func aCheckpointInterruptedAfterItsFirstPageOpens() throws {
        let source = TemporaryDirectory()
        let copy = TemporaryDirectory()
        let path = source.path()
        let copied = copy.path()
        let coordinator = try openCoordinator(source)
        let transaction = try coordinator.makeTransaction()
        let dogs = try transaction.classHandle(named: "Dog")
        try transaction.write {
            for index in 0..<3_000 {
                try transaction.createObject(in: dogs, values: [.string("dog number \(index) with a longish name"), .int(Int64(index))])
            }
        }
        // While the connection is open, the new pages are in the log only:
        // copy the file and its log as a crash would leave them.
        let main = try #require(contents(path))
        let log = try #require(contents(path + "-wal"))
        withExtendedLifetime(coordinator) {}

        // The checkpoint's first write: the newest frame of page 1 copied
        // into the main file. Frames follow the log's 32-byte header, each a
        // 24-byte header (page number first, big-endian) and a page.
        let pageSize = Int(UInt32(main[16]) << 8 | UInt32(main[17]))
        var newestFirstPage: Data?
        var offset = 32
        while offset + 24 + pageSize <= log.count {
            let page = log[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if page == 1 { newestFirstPage = log[offset + 24..<offset + 24 + pageSize] }
            offset += 24 + pageSize
        }
        var interrupted = main
        interrupted.replaceSubrange(0..<pageSize, with: try #require(newestFirstPage))
        let headerPages = interrupted[28..<32].reduce(0) { $0 << 8 | Int($1) }
        #expect(headerPages * pageSize > interrupted.count, "the header must promise more pages than the file has")
        try interrupted.write(to: URL(fileURLWithPath: copied))
        try log.write(to: URL(fileURLWithPath: copied + "-wal"))

        let recovered = try openCoordinator(copy)
        let reader = try recovered.makeTransaction()
        let recoveredDogs = try reader.classHandle(named: "Dog")
        let keys = try reader.objectKeys(in: recoveredDogs)
        #expect(keys.count == 3_000)
        // Every page reads back: the last object's values too.
        #expect(try reader.value(of: try #require(keys.last), property: 1, in: recoveredDogs) == .int(2_999))
    }

    @Test func corruptPagesAreReportedNotReturned() throws {
        let directory = TemporaryDirectory()
        let path = try makeRealmFile(directory)
        var data = try #require(contents(path))
        // Overwrite every page after the first few (the class table's pages)
        // with garbage.
        let pageSize = Int(data[16]) << 8 | Int(data[17])
        for offset in stride(from: pageSize * 6, to: data.count, by: 1) {
            data[offset] = UInt8(truncatingIfNeeded: offset &* 31)
        }
        try data.write(to: URL(fileURLWithPath: path))
        var failure: RealmError?
        do {
            let coordinator = try openCoordinator(directory)
            let transaction = try coordinator.makeTransaction()
            let dogs = try transaction.classHandle(named: "Dog")
            for key in try transaction.objectKeys(in: dogs) {
                _ = try transaction.values(of: key, in: dogs)
            }
        } catch let error as RealmError {
            failure = error
        }
        let error = try #require(failure, "reading a damaged file must fail")
        #expect([.corruptFile, .notARealm].contains(error.kind))
        #expect(error.message.contains(path))
    }

    /// Since format 3 a commit records its version in its history row
    /// alone; the version survives reopening, and a file of format 2 keeps
    /// its metadata current for the libraries that read only that.
    @Test func theCommitVersionIsTheNewestHistoryRow() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        func stored() throws -> (metadata: Int64?, history: Int64?) {
            let connection = try Connection(path: path, readOnly: true)
            return (try connection.scalar("SELECT version FROM realm_metadata"),
                    try connection.scalar("SELECT max(version) FROM realm_history"))
        }
        func commit(_ count: Int) throws -> UInt64 {
            let coordinator = try openCoordinator(directory)
            let transaction = try coordinator.makeTransaction()
            let dogs = try transaction.classHandle(named: "Dog")
            let opened = try transaction.version
            for index in 0..<count {
                try transaction.write { _ = try transaction.createObject(in: dogs, values: [.string("dog \(index)"), .int(Int64(index))]) }
            }
            #expect(try transaction.version == opened + UInt64(count))
            return try transaction.version
        }
        let first = try commit(3)
        let formatThree = try stored()
        #expect(formatThree.history == Int64(first))
        #expect(try #require(formatThree.metadata) < Int64(first))
        #expect(try commit(1) == first + 1)

        try runSQLite(path, "UPDATE realm_metadata SET format_version = 2")
        #expect(try commit(2) == first + 3)
        let formatTwo = try stored()
        #expect(formatTwo.metadata == Int64(first + 3) && formatTwo.history == Int64(first + 3))
    }

    @Test func aNewerFormatIsRefused() throws {
        let directory = TemporaryDirectory()
        let path = try makeRealmFile(directory)
        try runSQLite(path, "UPDATE realm_metadata SET format_version = 99;")
        let error = #expect(throws: RealmError.self) { _ = try openCoordinator(directory) }
        #expect(error?.kind == .incompatibleFormat)
    }

    @Test func readOnlyRealmsRefuseWrites() throws {
        let directory = TemporaryDirectory()
        let path = try makeRealmFile(directory)
        let missing = #expect(throws: RealmError.self) {
            _ = try Coordinator.open(Coordinator.Configuration(location: .file(directory.path("missing.realm")), isReadOnly: true))
        }
        #expect(missing?.message.contains("does not exist") == true)

        let coordinator = try Coordinator.open(Coordinator.Configuration(location: .file(path), isReadOnly: true, schema: TestSchema.schema))
        let transaction = try coordinator.makeTransaction()
        let dogs = try transaction.classHandle(named: "Dog")
        #expect(try transaction.count(of: dogs) == 2_000)
        let error = #expect(throws: RealmError.self) { try transaction.beginWrite() }
        #expect(error?.message.contains("read-only") == true)
    }

    @Test func inMemoryRealmsShareDataByIdentifierAndVanish() throws {
        let identifier = "in-memory-\(UUID().uuidString)"
        var path = ""
        do {
            let coordinator = try Coordinator.open(.inMemory(identifier, schema: TestSchema.schema))
            path = coordinator.path
            let writer = try coordinator.makeTransaction()
            let reader = try Coordinator.open(.inMemory(identifier, schema: TestSchema.schema)).makeTransaction()
            let dogs = try writer.classHandle(named: "Dog")
            #expect(try reader.count(of: dogs) == 0)
            try writer.write { try writer.createObject(in: dogs, values: [.string("Rex"), .int(1)]) }
            // The same MVCC behaviour as on disk.
            #expect(try reader.count(of: dogs) == 0)
            try reader.refresh()
            #expect(try reader.count(of: dogs) == 1)
            // Another identifier is another Realm.
            let other = try Coordinator.open(.inMemory(identifier + "-other", schema: TestSchema.schema)).makeTransaction()
            #expect(try other.count(of: other.classHandle(named: "Dog")) == 0)
        }
        #expect(!path.isEmpty && !FileManager.default.fileExists(atPath: path))
        let fresh = try Coordinator.open(.inMemory(identifier, schema: TestSchema.schema)).makeTransaction()
        #expect(try fresh.count(of: fresh.classHandle(named: "Dog")) == 0)
    }

    @Test func auxiliaryFilesAndDeletingThem() throws {
        let directory = TemporaryDirectory()
        let path = directory.path()
        do {
            let coordinator = try openCoordinator(directory)
            #expect(FileManager.default.fileExists(atPath: path + ".lock"))
            #expect(FileManager.default.fileExists(atPath: path + ".management"))
            let transaction = try coordinator.makeTransaction()
            _ = try transaction.version
            let inUse = #expect(throws: RealmError.self) { try AuxiliaryFiles.deleteFiles(for: path) }
            #expect(inUse?.kind == .fileInUse)
            #expect(FileManager.default.fileExists(atPath: path))
        }
        #expect(try AuxiliaryFiles.deleteFiles(for: path))
        for candidate in AuxiliaryFiles.paths(for: path) {
            #expect(!FileManager.default.fileExists(atPath: candidate), "\(candidate) remains")
        }
        #expect(try AuxiliaryFiles.deleteFiles(for: path) == false)
    }

    @Test func anEmptyFileBecomesARealm() throws {
        let directory = TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory.path(), contents: Data()))
        let coordinator = try openCoordinator(directory)
        #expect(try coordinator.makeTransaction().schema["Dog"] != nil)
    }

    @Test func aMissingDirectoryIsAClearError() throws {
        let error = #expect(throws: RealmError.self) {
            _ = try Coordinator.open(.file("/nonexistent-directory-\(UUID().uuidString)/x.realm", schema: TestSchema.schema))
        }
        #expect(error?.kind == .fileNotFound)
        #expect(error?.message.contains("/x.realm") == true)
    }
}
