import Foundation
import RealmCore
import Testing

/// The replication hook (Sources/RealmCore/Replication): every change asked
/// for reaches the observer once, none that follows from another, in the
/// same SQLite transaction as the change.
@Suite struct ReplicationTests {
    /// Writes a line per change into a table of its own, as sync's recorder
    /// keeps its records in the file, and a line per commit.
    final class LoggingObserver: ReplicationObserver, @unchecked Sendable {
        // @unchecked: `failNext` is set by the test between writes, on the
        // writing thread.
        var failNext = false
        var failCommit = false
        var commitsNoted = 0

        func record(_ change: ReplicatedChange, in transaction: Transaction) throws(RealmError) {
            if failNext {
                failNext = false
                throw RealmError(.storage, "the observer failed")
            }
            try log(Self.describe(change), transaction)
        }

        func willCommit(_ transaction: Transaction) throws(RealmError) {
            if failCommit {
                // What it wrote before it failed goes with the failure.
                try log("half a commit", transaction)
                throw RealmError(.storage, "the observer refused the commit")
            }
            try log("commit", transaction)
        }

        func didCommit(_ transaction: Transaction) { commitsNoted += 1 }

        private func log(_ line: String, _ transaction: Transaction) throws(RealmError) {
            try transaction.replicationExecute("CREATE TABLE IF NOT EXISTS sync_test_log (line TEXT NOT NULL)")
            let insert = try transaction.replicationStatement("INSERT INTO sync_test_log (line) VALUES (?)")
            insert.bind(line, at: 1)
            try insert.run()
        }

        static func describe(_ change: ReplicatedChange) -> String {
            switch change {
            case .created(let handle, let key): "create \(handle.className) \(key.rawValue)"
            case .createdEmbedded(let handle, let key, let owner, let ownerClass, let property, let index):
                "embed \(handle.className) \(key.rawValue) in \(ownerClass.className) \(owner.rawValue).\(property)\(index.map { "[\($0)]" } ?? "")"
            case .set(let handle, let key, let property, let value): "set \(handle.className) \(key.rawValue).\(property) = \(value)"
            case .erased(let handle, let key): "erase \(handle.className) \(key.rawValue)"
            case .erasedAll(let handle, let keys): "erase all \(handle.className) \(keys.map(\.rawValue))"
            case .listInserted(let list, let index, let value): "insert \(list.owner.rawValue).\(list.property)[\(index)] = \(value)"
            case .listSet(let list, let index, let value): "replace \(list.owner.rawValue).\(list.property)[\(index)] = \(value)"
            case .listMoved(let list, let from, let to): "move \(list.owner.rawValue).\(list.property) \(from) -> \(to)"
            case .listSwapped(let list, let first, let second): "swap \(list.owner.rawValue).\(list.property) \(first) <-> \(second)"
            case .listErased(let list, let index): "remove \(list.owner.rawValue).\(list.property)[\(index)]"
            case .listCleared(let list): "clear \(list.owner.rawValue).\(list.property)"
            case .setInserted(let set, let value): "add \(set.owner.rawValue).\(set.property) \(value)"
            case .setErased(let set, let value): "drop \(set.owner.rawValue).\(set.property) \(value)"
            case .setCleared(let set): "clear set \(set.owner.rawValue).\(set.property)"
            case .mapSet(let map, let key, let value): "put \(map.owner.rawValue).\(map.property)[\(key)] = \(value)"
            case .mapErased(let map, let key): "unput \(map.owner.rawValue).\(map.property)[\(key)]"
            case .mapCleared(let map): "clear map \(map.owner.rawValue).\(map.property)"
            case .createdEmbeddedInMap(let handle, let key, let map, let mapKey):
                "embed \(handle.className) \(key.rawValue) in \(map.owner.rawValue).\(map.property)[\(mapKey)]"
            }
        }
    }

    struct Fixture {
        let directory = TemporaryDirectory()
        let coordinator: Coordinator
        let transaction: Transaction
        let observer = LoggingObserver()
        let dogs: ClassHandle
        let people: ClassHandle
        let addresses: ClassHandle

        init() throws {
            coordinator = try Coordinator.open(.file(directory.path(), schema: DeletionTests.schema))
            coordinator.replication = observer
            transaction = try coordinator.makeTransaction()
            dogs = try transaction.classHandle(named: "Dog")
            people = try transaction.classHandle(named: "Person")
            addresses = try transaction.classHandle(named: "Address")
        }

        /// The lines logged so far, read at the transaction's version.
        func log() throws -> [String] {
            let exists = try transaction.queryStatement("SELECT count(*) FROM sqlite_master WHERE name = 'sync_test_log'")
            defer { exists.reset() }
            guard try exists.step(), exists.int64(at: 0) == 1 else { return [] }
            let statement = try transaction.queryStatement("SELECT line FROM sync_test_log ORDER BY rowid")
            defer { statement.reset() }
            var lines: [String] = []
            while try statement.step() { lines.append(statement.string(at: 0)) }
            return lines
        }
    }

    @Test func everyChangeAskedForIsRecordedOnceBeforeTheCommit() throws {
        let fixture = try Fixture()
        let t = fixture.transaction
        try t.beginWrite()
        let rex = try t.createObject(in: fixture.dogs, values: [.string("Rex"), .int(1), .null])
        let ana = try t.createObject(in: fixture.people, values: [.int(7), .string("Ana")])
        try t.setValue(.int(2), of: rex, property: 1, in: fixture.dogs)
        try t.setValue(.object(ana), of: rex, property: 2, in: fixture.dogs)
        let dogs = try t.list(2, of: ana, in: fixture.people)
        try t.append(.object(rex), to: dogs)
        let fido = try t.createObject(in: fixture.dogs, values: [.string("Fido"), .int(3), .null])
        try t.insert(.object(fido), at: 0, in: dogs)
        try t.move(from: 0, to: 1, in: dogs)
        try t.swapAt(0, 1, in: dogs)
        try t.replace(at: 0, with: .object(rex), in: dogs)
        try t.remove(at: 1, from: dogs)
        let home = try t.createEmbeddedObject(in: fixture.people, owner: ana, property: 4, values: [.string("Main St")])
        let past = try t.list(5, of: ana, in: fixture.people)
        let old = try t.appendEmbeddedObject(to: past, values: [.string("Old Rd")])
        try t.removeAll(from: dogs)
        try t.commitWrite()

        #expect(try fixture.log() == [
            "create Dog \(rex.rawValue)",
            "create Person 7",
            "set Dog \(rex.rawValue).1 = \(Value.int(2))",
            "set Dog \(rex.rawValue).2 = \(Value.object(ana))",
            "insert 7.2[0] = \(Value.object(rex))",
            "create Dog \(fido.rawValue)",
            "insert 7.2[0] = \(Value.object(fido))",
            "move 7.2 0 -> 1",
            "swap 7.2 0 <-> 1",
            "replace 7.2[0] = \(Value.object(rex))",
            "remove 7.2[1]",
            "embed Address \(home.rawValue) in Person 7.4",
            "embed Address \(old.rawValue) in Person 7.5[0]",
            "clear 7.2",
            "commit",
        ])
    }

    @Test func whatFollowsFromAChangeIsNotRecorded() throws {
        let fixture = try Fixture()
        let t = fixture.transaction
        try t.beginWrite()
        let ana = try t.createObject(in: fixture.people, values: [.int(1), .string("Ana")])
        let rex = try t.createObject(in: fixture.dogs, values: [.string("Rex"), .int(1), .object(ana)])
        try t.append(.object(rex), to: try t.list(2, of: ana, in: fixture.people))
        _ = try t.createEmbeddedObject(in: fixture.people, owner: ana, property: 4, values: [.string("Main St")])
        try t.commitWrite()

        // Deleting Ana nullifies Rex's owner and deletes her address: one
        // record, the deletion asked for.
        try t.beginWrite()
        try t.deleteObject(ana, in: fixture.people)
        try t.commitWrite()
        let log = try fixture.log()
        #expect(Array(log.suffix(2)) == ["erase Person 1", "commit"])

        try t.beginWrite()
        try t.deleteAllObjects(in: fixture.dogs)
        try t.commitWrite()
        #expect(Array(try fixture.log().suffix(2)) == ["erase all Dog [\(rex.rawValue)]", "commit"])
    }

    @Test func aChangeThatFailsOrIsCancelledLeavesNoRecord() throws {
        let fixture = try Fixture()
        let t = fixture.transaction
        try t.beginWrite()
        try t.createObject(in: fixture.people, values: [.int(1), .string("Ana")])
        #expect(throws: RealmError.self) {
            try t.createObject(in: fixture.people, values: [.int(1), .string("Again")])
        }
        try t.commitWrite()
        #expect(try fixture.log() == ["create Person 1", "commit"])

        // A cancelled write takes its records with it.
        try t.beginWrite()
        try t.createObject(in: fixture.people, values: [.int(2), .string("Bo")])
        t.cancelWrite()
        #expect(try fixture.log() == ["create Person 1", "commit"])
    }

    @Test func anObserverThatFailsFailsTheChangeAndTheCommit() throws {
        let fixture = try Fixture()
        let t = fixture.transaction
        try t.beginWrite()
        fixture.observer.failNext = true
        #expect(throws: RealmError.self) {
            try t.createObject(in: fixture.people, values: [.int(1), .string("Ana")])
        }
        // The object was not created: the change and its record are one.
        #expect(try t.count(of: fixture.people) == 0)
        let rex = try t.createObject(in: fixture.dogs, values: [.string("Rex"), .int(1), .null])
        fixture.observer.failNext = true
        #expect(throws: RealmError.self) { try t.setValue(.int(5), of: rex, property: 1, in: fixture.dogs) }
        #expect(try t.value(of: rex, property: 1, in: fixture.dogs) == .int(1))

        fixture.observer.failCommit = true
        let noted = fixture.observer.commitsNoted
        #expect(throws: RealmError.self) { try t.commitWrite() }
        #expect(t.isInWriteTransaction, "a refused commit leaves the write open")
        #expect(fixture.observer.commitsNoted == noted, "a refused commit is not announced")
        fixture.observer.failCommit = false
        try t.commitWrite()
        #expect(fixture.observer.commitsNoted == noted + 1, "a commit is announced once it is durable")
        #expect(try fixture.log() == ["create Dog \(rex.rawValue)", "commit"], "the refused commit's writes rolled back")
    }

    @Test func withoutAnObserverNothingIsRecorded() throws {
        let fixture = try Fixture()
        fixture.coordinator.replication = nil
        let t = fixture.transaction
        try t.beginWrite()
        try t.createObject(in: fixture.people, values: [.int(1), .string("Ana")])
        try t.commitWrite()
        #expect(try fixture.log().isEmpty)
    }
}
