import Foundation
import RealmObjects
import Testing

// The seed samples no other Seed file ports: seed 000 "Current limitations:
// Initializing Swift properties using Realm APIs", the FAQ's standalone
// copies, "Operating with low memory constraints"; seed 002's
// `performMigration(for:)` and `refresh()`'s result.

/// The "Initializing Swift properties using Realm APIs" sample.
class SomeSwiftType {
    let persons = try! Realm().objects(Person.self)
    // ...
}

/// The sample's second remedy: "Define your properties using Swift's
/// `lazy` keyword" (surrounding code).
class SomeLazySwiftType {
    lazy var persons = try! Realm().objects(Person.self)
}

@Suite struct SeedGuideExtrasTests {
    /// "you may run into problems if such initialization code is called
    /// before you have completed setting up your Realm configurations":
    /// the property reads the default Realm of the moment the instance was
    /// made; a `lazy` one, the default Realm of its first use.
    @Test func initializingSwiftPropertiesUsingRealmAPIs() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let directory = TemporaryDirectory()
            seedCheck(FileManager.default.changeCurrentDirectoryPath(directory.url.path), "chdir")

            let early = SomeSwiftType()
            let lazy = SomeLazySwiftType()
            // The app sets up its configuration afterwards.
            Realm.Configuration.defaultConfiguration = Realm.Configuration(inMemoryIdentifier: "configured")
            let configured = try! Realm()
            try! configured.write { configured.add(Person(value: ["name": "Jane"])) }

            seedCheck(early.persons.realm?.configuration.fileURL?.lastPathComponent == "default.realm",
                      "the eager property opened default.realm before the app configured Realm")
            seedCheck(early.persons.isEmpty, "and does not see the configured Realm's data")
            seedCheck(lazy.persons.realm?.configuration.inMemoryIdentifier == "configured",
                      "the lazy property opens the configured Realm")
            seedCheck(lazy.persons.count == 1, "and sees its data")
        }
        #expect(!seedStandardError(result).contains("seed check failed"), "\(seedStandardError(result))")
    }

    /// FAQ: "We support making 'in-memory copies' of Realm objects by
    /// exposing an initializer that creates a standalone object via KVC
    /// copying of a persisted object's properties."
    @Test func standaloneCopiesOfPersistedObjects() throws {
        // Surrounding code: the page's MyModel ("Custom initializers for
        // Object subclasses", SeedLimitsTests) and a persisted instance.
        typealias MyModel = SeedMyModelWithInit
        let realm = try Realm(configuration: inMemoryConfiguration())
        let persistedModelObject = MyModel(myValue: "stored")
        try realm.write { realm.add(persistedModelObject) }

        let standaloneModelObject = MyModel(value: persistedModelObject)

        #expect(standaloneModelObject.realm == nil)
        #expect(standaloneModelObject.myValue == "stored")
        // A plain object: it changes outside a write, and the stored one does not.
        standaloneModelObject.myValue = "changed"
        #expect(persistedModelObject.myValue == "stored")
        #expect(realm.objects(MyModel.self).count == 1)
    }

    /// "Operating with low memory constraints": "specify the classes to be
    /// managed by a Realm explicitly".
    @Test func lowMemoryClassList() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let directory = TemporaryDirectory()
            seedCheck(FileManager.default.changeCurrentDirectoryPath(directory.url.path), "chdir")

            let config = Realm.Configuration(objectTypes: [Dog.self, Person.self])
            let realm = try! Realm(configuration: config)

            seedCheck(Set(realm.schema.classNames) == ["Dog", "Person"], "schema: \(realm.schema.classNames)")
            try! realm.write { realm.add(Person(value: ["name": "Jim", "dogs": [["name": "Rex"]]])) }
            seedCheck(realm.objects(Dog.self).first?.owners.first?.name == "Jim", "the listed classes work")
        }
        #expect(!seedStandardError(result).contains("seed check failed"), "\(seedStandardError(result))")
    }

    /// Seed 002, `performMigration(for:)`: "Performs the given Realm
    /// configuration's migration block on a Realm at the given path…
    /// You can choose to call this method to control exactly when and how
    /// migrations are performed."
    @Test func performMigrationRunsTheBlockBeforeOpening() throws {
        let directory = TemporaryDirectory()
        let url = directory.file()
        try autoreleasepool {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [MigrationV0.Person.self]))
            try realm.write {
                realm.create(MigrationV0.Person.self, value: ["firstName": "Ada", "lastName": "Lovelace", "age": 36])
            }
        }
        let calls = Locked<[UInt64]>([])
        let configuration = Realm.Configuration(fileURL: url, schemaVersion: 1, migrationBlock: { migration, oldSchemaVersion in
            calls.value.append(oldSchemaVersion)
            migration.enumerateObjects(ofType: "Person") { oldObject, newObject in
                newObject!["fullName"] = "\(oldObject!["firstName"] as! String) \(oldObject!["lastName"] as! String)"
            }
        }, objectTypes: [MigrationV1.Person.self])

        try Realm.performMigration(for: configuration)
        #expect(calls.value == [0])

        // "This method is called automatically when opening a Realm for the
        // first time": the file is already migrated, so it is not run again.
        let realm = try Realm(configuration: configuration)
        #expect(calls.value == [0])
        #expect(realm.objects(MigrationV1.Person.self).first?.fullName == "Ada Lovelace")
    }

    /// Seed 002, `refresh()`: "Return Value: Whether there were any updates
    /// for the Realm."; `autorefresh`: "Defaults to true."
    @Test func refreshReportsWhetherThereWereUpdates() throws {
        let configuration = inMemoryConfiguration()
        let realm = try Realm(configuration: configuration)
        #expect(realm.autorefresh)
        let dogs = realm.objects(Dog.self)
        #expect(dogs.isEmpty)
        #expect(realm.refresh() == false)

        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            try! realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        }
        #expect(dogs.isEmpty)
        #expect(realm.refresh() == true)
        #expect(dogs.count == 1)
    }
}
