import Foundation
import RealmCore
import Testing

/// The versioned transaction model: snapshots, refresh, the write lock,
/// commit and rollback.
@Suite struct TransactionTests {
    @Test func pinnedReaderKeepsItsVersionUntilRefresh() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory)
        let reader = try coordinator.makeTransaction()
        let writer = try coordinator.makeTransaction()
        let dogs = try reader.classHandle(named: "Dog")
        let pinned = try reader.version
        #expect(try reader.count(of: dogs) == 0)

        try writer.write { try writer.createObject(in: dogs, values: [.string("Rex"), .int(1)]) }
        #expect(try writer.version == pinned + 1)
        // The reader still sees version V.
        #expect(try reader.version == pinned)
        #expect(try reader.count(of: dogs) == 0)

        // The coordinator knows which versions are pinned.
        #expect(coordinator.liveVersions == [pinned, pinned + 1])

        #expect(try reader.refresh())
        #expect(try reader.version == pinned + 1)
        #expect(try reader.count(of: dogs) == 1)
        #expect(try reader.refresh() == false)
        #expect(coordinator.liveVersions == [pinned + 1])
        reader.invalidate()
        writer.invalidate()
        #expect(coordinator.liveVersions.isEmpty)
    }

    @Test func anInMemoryRealmReopenedAfterItsLastUserIsEmpty() throws {
        let identifier = "reopen-\(UUID().uuidString)"
        for _ in 0..<3 {
            let transaction = try Coordinator.open(.inMemory(identifier, schema: TestSchema.schema)).makeTransaction()
            let dogs = try transaction.classHandle(named: "Dog")
            #expect(try transaction.count(of: dogs) == 0)
            try transaction.write { try transaction.createObject(in: dogs, values: [.string("Rex"), .int(1)]) }
        }
    }

    /// A commit that does not wait for the disk (a sync client's download)
    /// is committed like any other, and leaves the file's own durability
    /// for the next write: `synchronous` is NORMAL while it writes, then
    /// FULL again, whether it commits or is cancelled; an encrypted file
    /// stays FULL, a file made for crash-only durability NORMAL.
    @Test(arguments: [(Coordinator.Configuration.Durability.full, false, 1, 2), (.crashOnly, false, 1, 1), (.full, true, 2, 2)])
    func aCommitThatDoesNotSyncTheDiskLeavesTheFilesDurability(durability: Coordinator.Configuration.Durability, encrypted: Bool,
                                                               whileWriting: Int64, afterwards: Int64) throws {
        let directory = TemporaryDirectory()
        var configuration = Coordinator.Configuration.file(directory.path("relaxed.realm"), schema: TestSchema.schema)
        configuration.durability = durability
        if encrypted { configuration.encryptionKey = Data(repeating: 7, count: 64) }
        let coordinator = try Coordinator.open(configuration)
        let writer = try coordinator.makeTransaction()
        let reader = try coordinator.makeTransaction()
        let dogs = try writer.classHandle(named: "Dog")
        func synchronous() throws -> Int64 {
            let setting = try writer.queryStatement("PRAGMA synchronous")
            defer { setting.reset() }
            #expect(try setting.step())
            return setting.int64(at: 0)
        }
        try writer.beginWriteWithoutSyncingTheDisk()
        #expect(try synchronous() == whileWriting)
        writer.cancelWrite()
        #expect(try synchronous() == afterwards)

        try writer.beginWriteWithoutSyncingTheDisk()
        _ = try writer.createObject(in: dogs, values: [.string("Rex"), .int(1)])
        try writer.commitWrite()
        #expect(try reader.refresh())
        #expect(try reader.count(of: dogs) == 1)
        #expect(try synchronous() == afterwards)
        // The next ordinary commit goes on as before.
        try writer.write { try writer.createObject(in: dogs, values: [.string("Fido"), .int(2)]) }
        #expect(try reader.refresh())
        #expect(try reader.count(of: dogs) == 2)
    }

    @Test func readersOnOtherThreadsSeeConsistentSnapshots() async throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory)
        // A writer commits pairs of objects; readers must never see an odd
        // count, which would be half a commit.
        let writerTask = Task.detached {
            let writer = try coordinator.makeTransaction()
            let dogs = try writer.classHandle(named: "Dog")
            for index in 0..<50 {
                try writer.write {
                    try writer.createObject(in: dogs, values: [.string("a\(index)"), .int(1)])
                    try writer.createObject(in: dogs, values: [.string("b\(index)"), .int(2)])
                }
            }
        }
        let readers = (0..<2).map { _ in
            Task.detached {
                let reader = try coordinator.makeTransaction()
                let dogs = try reader.classHandle(named: "Dog")
                var observed: [Int] = []
                for _ in 0..<100 {
                    try reader.refresh()
                    observed.append(try reader.count(of: dogs))
                }
                return observed
            }
        }
        try await writerTask.value
        for reader in readers {
            let counts = try await reader.value
            #expect(counts.allSatisfy { $0 % 2 == 0 })
            #expect(counts == counts.sorted())
        }
    }

    @Test func aWriterBlocksASecondWriterUntilCommit() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory)
        let first = try coordinator.makeTransaction()
        let dogs = try first.classHandle(named: "Dog")
        try first.beginWrite()
        try first.createObject(in: dogs, values: [.string("first"), .int(1)])

        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let seen = Locked<Int?>(nil)
        let thread = Thread {
            do {
                let second = try coordinator.makeTransaction()
                started.signal()
                try second.beginWrite()
                // Advanced to the newest version before writing.
                seen.value = try second.count(of: second.classHandle(named: "Dog"))
                second.cancelWrite()
            } catch {
                Issue.record(error)
            }
            finished.signal()
        }
        thread.start()
        started.wait()
        #expect(finished.wait(timeout: .now() + 0.3) == .timedOut, "the second writer must wait for the first")
        try first.commitWrite()
        #expect(finished.wait(timeout: .now() + 120) == .success)
        #expect(seen.value == 1)
    }

    @Test func nestedAndSameThreadWritesAreRefused() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory)
        let first = try coordinator.makeTransaction()
        let second = try coordinator.makeTransaction()
        try first.beginWrite()
        let nested = #expect(throws: RealmError.self) { try first.beginWrite() }
        #expect(nested?.kind == .invalidTransactionState)
        let deadlock = #expect(throws: RealmError.self) { try second.beginWrite() }
        #expect(deadlock?.message.contains("already in a write transaction") == true)
        first.cancelWrite()
        try second.beginWrite()
        second.cancelWrite()
    }

    @Test func rollbackLeavesNothingBehind() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory)
        let transaction = try coordinator.makeTransaction()
        let dogs = try transaction.classHandle(named: "Dog")
        let people = try transaction.classHandle(named: "Person")
        try transaction.write {
            try transaction.createObject(in: people, values: [.int(1), .string("Tim")])
        }
        let version = try transaction.version
        try transaction.beginWrite()
        let dog = try transaction.createObject(in: dogs, values: [.string("Rex"), .int(1)])
        try transaction.append(.object(dog), to: transaction.list(2, of: ObjectKey(1), in: people))
        try transaction.deleteAllObjects(in: people)
        transaction.cancelWrite()
        #expect(try transaction.version == version)
        #expect(try transaction.count(of: dogs) == 0)
        #expect(try transaction.count(of: people) == 1)

        // A throwing write block cancels too.
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try transaction.write {
                try transaction.createObject(in: dogs, values: [.string("Fido"), .int(2)])
                throw Failure()
            }
        }
        #expect(try transaction.count(of: dogs) == 0)
        #expect(transaction.isInWriteTransaction == false)
    }

    @Test func writesOutsideAWriteTransactionAreRefused() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory)
        let transaction = try coordinator.makeTransaction()
        let dogs = try transaction.classHandle(named: "Dog")
        let error = #expect(throws: RealmError.self) {
            try transaction.createObject(in: dogs, values: [.string("Rex")])
        }
        #expect(error?.kind == .invalidTransactionState)
        #expect(error?.message.contains("beginWrite()") == true)
    }

    @Test func invalidateReleasesTheSnapshot() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory)
        let reader = try coordinator.makeTransaction()
        let writer = try coordinator.makeTransaction()
        let dogs = try reader.classHandle(named: "Dog")
        #expect(try reader.count(of: dogs) == 0)
        try writer.write { try writer.createObject(in: dogs, values: [.string("Rex"), .int(1)]) }
        reader.invalidate()
        #expect(reader.state == .idle)
        // The next access reads the newest version.
        #expect(try reader.count(of: dogs) == 1)
    }

    @Test func versionsIncreaseByOnePerCommitAndPersist() throws {
        let directory = TemporaryDirectory()
        var last: UInt64 = 0
        do {
            let coordinator = try openCoordinator(directory)
            let transaction = try coordinator.makeTransaction()
            let dogs = try transaction.classHandle(named: "Dog")
            let start = try transaction.version
            for index in 0..<5 {
                try transaction.write {
                    try transaction.createObject(in: dogs, values: [.string("\(index)"), .int(1)])
                }
            }
            last = try transaction.version
            #expect(last == start + 5)
        }
        let reopened = try openCoordinator(directory)
        #expect(try reopened.makeTransaction().version == last)
    }

    @Test func objectKeysAreNeverReused() throws {
        let directory = TemporaryDirectory()
        var third = ObjectKey(0)
        do {
            let coordinator = try openCoordinator(directory)
            let transaction = try coordinator.makeTransaction()
            let dogs = try transaction.classHandle(named: "Dog")
            let first = try transaction.write { try transaction.createObject(in: dogs, values: [.string("a"), .int(1)]) }
            try transaction.write { try transaction.deleteObject(first, in: dogs) }
            let second = try transaction.write { try transaction.createObject(in: dogs, values: [.string("b"), .int(1)]) }
            #expect(second > first)
            try transaction.write { try transaction.deleteAllObjects(in: dogs) }
            third = try transaction.write { try transaction.createObject(in: dogs, values: [.string("c"), .int(1)]) }
            #expect(third > second)
            try transaction.write { try transaction.deleteObject(third, in: dogs) }
        }
        // Nor after the file is closed and reopened.
        let coordinator = try openCoordinator(directory)
        let transaction = try coordinator.makeTransaction()
        let dogs = try transaction.classHandle(named: "Dog")
        let fourth = try transaction.write { try transaction.createObject(in: dogs, values: [.string("d"), .int(1)]) }
        #expect(fourth > third)
    }
}

/// A value shared between threads under a lock, for tests.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
