import Foundation
import RealmCore
import RealmObjects
import Testing

/// A write that another process keeps from beginning, or that the file
/// keeps from beginning (damage, a failing disk), never stops the program:
/// `beginWrite()` waits out a busy file as Realm does, `write(_:)` throws
/// what it cannot wait out, and a write `beginWrite()` could not begin
/// fails at its commit, as bad input does.
@Suite struct BusyFileTests {
    /// A file with one dog, whose statements give up on another process's
    /// lock after 50 ms rather than a minute.
    private func makeRealm(_ directory: TemporaryDirectory) throws -> Realm {
        var configuration = Realm.Configuration(fileURL: directory.file(), objectTypes: [Dog.self, Person.self])
        configuration.busyTimeoutMilliseconds = 50
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.create(Dog.self, value: ["name": "Rex", "age": 3]) }
        return realm
    }

    /// Holds the file's write lock from a connection of its own, as
    /// another process would, on a thread of its own, until `release`
    /// is signalled.
    private final class LockHolder: Sendable {
        private let locked = DispatchSemaphore(value: 0)
        private let released = DispatchSemaphore(value: 0)
        private let finished = DispatchSemaphore(value: 0)

        init(path: String, holdingFor seconds: Double? = nil) {
            Thread { [locked, released, finished] in
                let connection = try! Connection(path: path, readOnly: false)
                try! connection.execute("BEGIN IMMEDIATE")
                locked.signal()
                if let seconds {
                    Thread.sleep(forTimeInterval: seconds)
                } else {
                    released.wait()
                }
                try! connection.execute("COMMIT")
                finished.signal()
            }.start()
            locked.wait()
        }

        func release() {
            released.signal()
            finished.wait()
        }

        func waitUntilReleased() { finished.wait() }
    }

    @Test func beginWriteWaitsForAnotherProcessPastTheBusyTimeout() throws {
        let directory = TemporaryDirectory()
        let realm = try makeRealm(directory)
        let holder = LockHolder(path: directory.file().path, holdingFor: 0.5)
        let start = Date()
        // Ten busy timeouts pass before the lock is free: each is waited out.
        realm.beginWrite()
        #expect(Date().timeIntervalSince(start) > 0.3)
        realm.create(Dog.self, value: ["name": "Fido", "age": 5])
        try realm.commitWrite()
        holder.waitUntilReleased()
        #expect(realm.objects(Dog.self).map(\.name).sorted() == ["Fido", "Rex"])
    }

    @Test func writeThrowsWhenAnotherProcessHoldsTheLockPastTheBusyTimeout() throws {
        let directory = TemporaryDirectory()
        let realm = try makeRealm(directory)
        let holder = LockHolder(path: directory.file().path)
        var ran = false
        let error = #expect(throws: Realm.Error.self) {
            try realm.write {
                ran = true
                realm.create(Dog.self, value: ["name": "Fido", "age": 5])
            }
        }
        #expect(error?.code == .fail)
        #expect(error?.message.contains("locked") == true, "\(String(describing: error))")
        #expect(!ran)
        #expect(!realm.isInWriteTransaction)
        holder.release()
        // The Realm goes on once the other process lets go.
        try realm.write { realm.create(Dog.self, value: ["name": "Fido", "age": 5]) }
        #expect(realm.objects(Dog.self).count == 2)
    }

    @Test func aWriteThatBeginWriteCouldNotBeginFailsAtItsCommit() throws {
        let directory = TemporaryDirectory()
        let realm = try makeRealm(directory)
        let rex = try #require(realm.objects(Dog.self).first)
        try realm.write {
            let ann = realm.create(Person.self, value: ["name": "Ann"])
            ann.dogs.append(rex)
        }
        let ann = try #require(realm.objects(Person.self).first)
        // Damage that beginning a write finds: the file's metadata row gone.
        let path = directory.file().path
        try Connection(path: path, readOnly: false).execute("DELETE FROM realm_metadata")

        realm.beginWrite()
        #expect(realm.isInWriteTransaction)
        // Every kind of change is refused without stopping the program.
        realm.create(Dog.self, value: ["name": "Fido", "age": 5])
        realm.add(Dog(value: ["name": "Lassie"]))
        rex.age = 4
        ann.dogs.append(Dog(value: ["name": "Spot"]))
        ann.dogs.removeAll()
        realm.delete(rex)
        realm.delete(realm.objects(Person.self))
        realm.deleteAll()
        let error = #expect(throws: Realm.Error.self) { try realm.commitWrite() }
        #expect(error?.code == .fileCorrupt, "\(String(describing: error))")
        #expect(error?.message.contains(path) == true, "\(String(describing: error))")
        #expect(!realm.isInWriteTransaction)

        // Nothing of it reached the file.
        let check = try Connection(path: path, readOnly: true)
        let dogs = try check.prepare("SELECT count(*) FROM \(try table(of: "Dog", in: check))")
        _ = try dogs.step()
        #expect(dogs.int64(at: 0) == 1)
        dogs.reset()
        let people = try check.prepare("SELECT count(*) FROM \(try table(of: "Person", in: check))")
        _ = try people.step()
        #expect(people.int64(at: 0) == 1)
        people.reset()

        // Cancelling such a write works too, and nests no write.
        realm.beginWrite()
        #expect(realm.isInWriteTransaction)
        realm.cancelWrite()
        #expect(!realm.isInWriteTransaction)
    }

    private func table(of className: String, in connection: Connection) throws -> String {
        let statement = try connection.prepare("SELECT table_name FROM realm_classes WHERE name = ?")
        statement.bind(className, at: 1)
        defer { statement.reset() }
        _ = try statement.step()
        return "\"" + statement.string(at: 0) + "\""
    }
}
