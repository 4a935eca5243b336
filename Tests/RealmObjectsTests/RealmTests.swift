import Foundation
import RealmObjects
import Testing

/// Seed 000 "Realms", "Threading", "Testing", "Current limitations", and
/// seed 002's Realm API: configurations, in-memory and read-only Realms,
/// class subsets, thread confinement, ThreadSafeReference, migrations.
@Suite(.serialized) struct RealmTests {
    @Test func theDefaultConfiguration() throws {
        let directory = TemporaryDirectory()
        let saved = Realm.Configuration.defaultConfiguration
        defer { Realm.Configuration.defaultConfiguration = saved }
        #expect(saved.fileURL?.lastPathComponent == "default.realm")
        #expect(saved.fileURL?.deletingLastPathComponent().path == FileManager.default.currentDirectoryPath)

        var configuration = Realm.Configuration()
        configuration.fileURL = directory.file("default.realm")
        Realm.Configuration.defaultConfiguration = configuration
        let realm = try Realm()
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        #expect(FileManager.default.fileExists(atPath: directory.file("default.realm").path))
        #expect(try Realm(fileURL: directory.file("default.realm")).objects(Dog.self).count == 1)
    }

    @Test func inMemoryRealmsLiveWhileReferenced() throws {
        let identifier = "memory-\(UUID().uuidString)"
        var configuration = Realm.Configuration(inMemoryIdentifier: identifier)
        #expect(configuration.fileURL == nil)
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
            #expect(try Realm(configuration: configuration).objects(Dog.self).count == 1)
        }
        // Every instance is gone: so is the data.
        #expect(try Realm(configuration: configuration).objects(Dog.self).count == 0)
        configuration.fileURL = URL(fileURLWithPath: "/tmp/x.realm")
        #expect(configuration.inMemoryIdentifier == nil)
    }

    @Test func classSubsets() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file(), objectTypes: [Book.self])
        let realm = try Realm(configuration: configuration)
        #expect(realm.schema.classNames == ["Book"])
    }

    @Test func readOnlyRealms() throws {
        let directory = TemporaryDirectory()
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file()))
            try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        }
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), readOnly: true))
        #expect(realm.objects(Dog.self).filter("age > 0").count == 1)
        let missing = #expect(throws: Realm.Error.self) {
            _ = try Realm(configuration: Realm.Configuration(fileURL: directory.file("missing.realm"), readOnly: true))
        }
        #expect(missing?.code == .fileNotFound)
    }

    @Test func threadSafeReferencesToObjectsResultsAndLists() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let person = Person(value: ["name": "Jane", "dogs": [["name": "Rex", "age": 1]]])
        try realm.write { realm.add(person) }
        let personRef = ThreadSafeReference(to: person)
        let dogsRef = ThreadSafeReference(to: person.dogs)
        let resultsRef = ThreadSafeReference(to: realm.objects(Dog.self).filter("age < 2"))
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<[String]>([])
        DispatchQueue(label: "background").async {
            autoreleasepool {
                let realm = try! Realm(configuration: configuration)
                guard let person = realm.resolve(personRef),
                      let dogs = realm.resolve(dogsRef),
                      let puppies = realm.resolve(resultsRef) else { return }
                try! realm.write { person.name = "Jane Doe" }
                outcome.value = [person.name, dogs.first?.name ?? "", "\(puppies.count)"]
            }
            done.signal()
        }
        done.wait()
        #expect(outcome.value == ["Jane Doe", "Rex", "1"])
        realm.refresh()
        #expect(person.name == "Jane Doe")
    }

    @Test func aDeletedObjectResolvesToNil() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        let dog = Dog(value: ["name": "Rex", "age": 1])
        try realm.write { realm.add(dog) }
        let reference = ThreadSafeReference(to: dog)
        try realm.write { realm.delete(dog) }
        let done = DispatchSemaphore(value: 0)
        let resolved = Locked<Bool?>(nil)
        Thread {
            let realm = try! Realm(configuration: configuration)
            resolved.value = realm.resolve(reference) != nil
            done.signal()
        }.start()
        done.wait()
        #expect(resolved.value == false)
    }

    @Test func migrationsRunWithOldAndNewObjects() throws {
        let directory = TemporaryDirectory()
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), objectTypes: [PersonV0.self]))
            try realm.write {
                realm.add(PersonV0(value: ["firstName": "Ada", "lastName": "Lovelace", "age": 36]))
            }
        }
        // Opening with the new model and no migration fails, listing the
        // differences.
        let error = #expect(throws: Realm.Error.self) {
            _ = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), objectTypes: [PersonV1.self]))
        }
        #expect(error?.code == .schemaMismatch)
        #expect(error?.message.contains("Property 'Person.fullName' has been added.") == true)

        var configuration = Realm.Configuration(fileURL: directory.file(), schemaVersion: 1, objectTypes: [PersonV1.self])
        configuration.migrationBlock = { migration, oldSchemaVersion in
            if oldSchemaVersion < 1 {
                migration.enumerateObjects(ofType: "Person") { oldObject, newObject in
                    let first = oldObject!["firstName"] as! String
                    let last = oldObject!["lastName"] as! String
                    newObject!["fullName"] = "\(first) \(last)"
                }
                migration.renameProperty(onType: "Person", from: "age", to: "yearsSinceBirth")
            }
        }
        let realm = try Realm(configuration: configuration)
        let person = try #require(realm.objects(PersonV1.self).first)
        #expect(person.fullName == "Ada Lovelace")
        #expect(person.yearsSinceBirth == 36)
        #expect(person.nickname == "none")  // the model's default for a new property
    }

    /// The seeds' "users who skipped versions": `email` was removed at
    /// version 2 and added again at 3, so a file still at version 1 has no
    /// schema difference from version 3, yet its migration block must run
    /// to nil the stale values out.
    @Test func theMigrationBlockRunsOnEveryVersionIncrease() throws {
        let directory = TemporaryDirectory()
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), schemaVersion: 1, objectTypes: [City.self]))
            try realm.write { realm.add(City(value: ["id": 1, "name": "Oslo", "population": 42])) }
        }
        let calls = Locked<[UInt64]>([])
        var configuration = Realm.Configuration(fileURL: directory.file(), schemaVersion: 3, objectTypes: [City.self])
        configuration.migrationBlock = { migration, oldSchemaVersion in
            calls.value.append(oldSchemaVersion)
            if oldSchemaVersion < 3 {
                migration.enumerateObjects(ofType: "City") { _, newObject in
                    newObject!["population"] = nil
                }
            }
        }
        do {
            let realm = try Realm(configuration: configuration)
            #expect(realm.objects(City.self).first?.population == nil)
        }
        // Once at the new version, opening again runs nothing.
        _ = try Realm(configuration: configuration)
        #expect(calls.value == [1])
    }

    /// A value the migration block sets that its property cannot take fails
    /// the migration like any write: the file stays at its old version.
    @Test func aBadValueInAMigrationFailsItAndLeavesTheFile() throws {
        let directory = TemporaryDirectory()
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), schemaVersion: 1, objectTypes: [City.self]))
            try realm.write { realm.add(City(value: ["id": 1, "name": "Oslo", "population": 42])) }
        }
        var configuration = Realm.Configuration(fileURL: directory.file(), schemaVersion: 2, objectTypes: [City.self])
        configuration.migrationBlock = { migration, _ in
            migration.enumerateObjects(ofType: "City") { _, newObject in
                newObject!["name"] = "Bergen"
                newObject!["population"] = "many"
            }
        }
        let error = #expect(throws: Realm.Error.self) { _ = try Realm(configuration: configuration) }
        #expect(error?.code == .wrongType)
        #expect(error?.message.contains("City.population") == true)
        let unchanged = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), schemaVersion: 1, objectTypes: [City.self]))
        #expect(unchanged.objects(City.self).first?.name == "Oslo")
        #expect(unchanged.objects(City.self).first?.population == 42)
    }

    @Test func deleteRealmIfMigrationNeeded() throws {
        let directory = TemporaryDirectory()
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), objectTypes: [PersonV0.self]))
            try realm.write { realm.add(PersonV0()) }
        }
        let realm = try Realm(configuration: Realm.Configuration(
            fileURL: directory.file(), deleteRealmIfMigrationNeeded: true, objectTypes: [PersonV1.self]))
        #expect(realm.objects(PersonV1.self).count == 0)
    }

    @Test func deletingRealmFiles() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file())
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Dog()) }
            #expect(throws: Realm.Error.self) { try Realm.deleteFiles(for: configuration) }
        }
        #expect(try Realm.deleteFiles(for: configuration))
        #expect(!FileManager.default.fileExists(atPath: directory.file().path))
    }

    @Test func writeCopy() throws {
        let directory = TemporaryDirectory()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file()))
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        try realm.writeCopy(toFile: directory.file("copy.realm"))
        let copy = try Realm(configuration: Realm.Configuration(fileURL: directory.file("copy.realm")))
        #expect(copy.objects(Dog.self).first?.name == "Rex")
    }

    /// Seed 002: "if this method is called from within a write transaction,
    /// the current data is written".
    @Test func writeCopyInsideAWriteHoldsTheUncommittedChanges() throws {
        let directory = TemporaryDirectory()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file()))
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        realm.beginWrite()
        realm.add(Dog(value: ["name": "Uncommitted", "age": 2]))
        realm.objects(Dog.self).filter("name == 'Rex'").first!.age = 10
        try realm.writeCopy(toFile: directory.file("copy.realm"))
        // The transaction goes on, and can still be cancelled.
        #expect(realm.isInWriteTransaction)
        realm.cancelWrite()
        #expect(realm.objects(Dog.self).count == 1)

        let copy = try Realm(configuration: Realm.Configuration(fileURL: directory.file("copy.realm")))
        #expect(copy.objects(Dog.self).sorted(byKeyPath: "name").map(\.name) == ["Rex", "Uncommitted"])
        #expect(copy.objects(Dog.self).filter("name == 'Rex'").first?.age == 10)
        // The copy is a Realm of its own: it takes writes.
        try copy.write { copy.add(Dog(value: ["name": "Copied", "age": 3])) }
        #expect(copy.objects(Dog.self).count == 3)
        #expect(realm.objects(Dog.self).count == 1)
    }

    @Test func limitsAreEnforced() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        realm.beginWrite()
        let error = #expect(throws: Realm.Error.self) {
            try realm.create(Person.self, value: ["name": String(repeating: "x", count: 16 * 1024 * 1024 + 1)], update: .error)
        }
        #expect(error?.message.contains("'Person.name'") == true)
        realm.create(Person.self, value: ["name": "fits"])
        try realm.commitWrite()
        #expect(realm.objects(Person.self).count == 1)
    }

    @Test func dynamicAccess() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(Person(value: ["name": "Jim", "dogs": [["name": "Rex", "age": 3]]])) }
        let people = realm.dynamicObjects("Person")
        #expect(people.count == 1)
        let person = try #require(people.first)
        #expect(person["name"] as? String == "Jim")
        let dogs = try #require(person["dogs"] as? List<DynamicObject>)
        #expect(dogs.first?["age"] as? Int == 3)
        try realm.write { person["name"] = "James" }
        #expect(realm.objects(Person.self).first?.name == "James")
        #expect(realm.objects(Person.self).first?.value(forKey: "name") as? String == "James")
    }

    @Test func asyncOpen() throws {
        let configuration = inMemoryConfiguration()
        let anchor = try Realm(configuration: configuration)  // keeps the in-memory data alive
        try anchor.write { anchor.add(Dog(value: ["name": "Rex", "age": 1])) }
        let done = DispatchSemaphore(value: 0)
        let count = Locked<Int?>(nil)
        let queue = DispatchQueue(label: "callback")
        Realm.asyncOpen(configuration: configuration, callbackQueue: queue) { result in
            count.value = try? result.get().objects(Dog.self).count
            done.signal()
        }
        done.wait()
        #expect(count.value == 1)
    }
}

final class PersonV0: Object {
    @Persisted var firstName = ""
    @Persisted var lastName = ""
    @Persisted var age = 0
    override class func className() -> String { "Person" }
}

final class PersonV1: Object {
    @Persisted var fullName = ""
    @Persisted var yearsSinceBirth = 0
    @Persisted var nickname = "none"
    override class func className() -> String { "Person" }
}

/// A value shared between threads under a lock.
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
