import Foundation
import RealmObjects
import Testing

// Seed 000 "Migrations" (the Person model before and after, local
// migrations, updating values, renaming properties); seed 001's same
// samples in Objective-C; seed 003 "Migrations" (its v0, v1, v2 Person
// models and the block that migrates from any of them, which the seed
// gives only in Objective-C: here in Realm Swift 3.x's spelling).
//
// Adaptation: each configuration lists its model classes in `objectTypes`.
// The versions of `Person` here are nested in namespaces (one test module
// holds them all), and the runtime cannot find a nested type by the name
// a file stores; an app's top-level classes migrate without `objectTypes`
// (MigrationOpeningTests, Docs/SeedSamples.md "Formerly not passing" 2).
//
// Each version of a model keeps the sample's class name ("Person") inside
// a namespace of its own. The samples that set
// `Realm.Configuration.defaultConfiguration` run in a child process (an
// exit test) whose current directory, and so default Realm file, is a
// temporary directory.

// A `typealias Dog = …` at the top of a test is surrounding code: it names
// the sample's class as the sample does.

/// "Suppose we have the following `Person` model".
enum MigrationV0 {
    class Person: Object {
        @Persisted var firstName = ""
        @Persisted var lastName = ""
        @Persisted var age = 0
    }
}

/// "…we simply change the object interface to the following".
enum MigrationV1 {
    class Person: Object {
        @Persisted var fullName = ""
        @Persisted var age = 0
    }
}

/// Seed 003's v2: "var email = "" // new property".
enum MigrationV2 {
    class Person: Object {
        @Persisted var fullName = ""
        @Persisted var email = ""
        @Persisted var age = 0
    }
}

/// The "Renaming properties" sample's Person before and after (surrounding
/// code: the page names the properties but does not declare the models).
enum RenameV0 {
    class Person: Object {
        @Persisted var name = ""
        @Persisted var yearsSinceBirth = 0
    }
}

enum RenameV1 {
    class Person: Object {
        @Persisted var name = ""
        @Persisted var age = 0
    }
}

/// Writes a `default.realm` in the current directory with the v0 model
/// (surrounding code: "if you had saved any data with the previous model
/// version").
func seedWriteVersion0DefaultRealm() {
    autoreleasepool {
        let realm = try! Realm(configuration: Realm.Configuration(objectTypes: [MigrationV0.Person.self]))
        try! realm.write {
            realm.create(MigrationV0.Person.self, value: ["firstName": "Ada", "lastName": "Lovelace", "age": 36])
            realm.create(MigrationV0.Person.self, value: ["firstName": "Alan", "lastName": "Turing", "age": 41])
        }
    }
}

@Suite struct SeedMigrationsTests {
    /// "When this occurs, an exception will be thrown when you try to open
    /// the existing file unless you run a migration." Then "The minimal
    /// necessary migration block": "Realm will automatically detect new
    /// properties and removed properties".
    @Test func theMinimalMigration() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let directory = TemporaryDirectory()
            seedCheck(FileManager.default.changeCurrentDirectoryPath(directory.url.path), "chdir")
            seedWriteVersion0DefaultRealm()
            // Without a migration the file does not open.
            seedCheck((try? Realm(configuration: Realm.Configuration(objectTypes: [MigrationV1.Person.self]))) == nil,
                      "opening a changed schema without a migration fails")

            // The sample (surrounding code: the model of this version).
            typealias Person = MigrationV1.Person
            // Inside your application(application:didFinishLaunchingWithOptions:)

            let config = Realm.Configuration(
                // Set the new schema version. This must be greater than the previously used
                // version (if you've never set a schema version before, the version is 0).
                schemaVersion: 1,

                // Set the block which will be called automatically when opening a Realm with
                // a schema version lower than the one set above
                migrationBlock: { migration, oldSchemaVersion in
                    // We haven't migrated anything yet, so oldSchemaVersion == 0
                    if (oldSchemaVersion < 1) {
                        // Nothing to do!
                        // Realm will automatically detect new properties and removed properties
                        // And will update the schema on disk automatically
                    }
                },
                // Linux: the classes to migrate are listed (Docs/DifferencesFromApplePlatforms.md).
                objectTypes: [Person.self])

            // Tell Realm to use this new configuration object for the default Realm
            Realm.Configuration.defaultConfiguration = config

            // Now that we've told Realm how to handle the schema change, opening the file
            // will automatically perform the migration
            let realm = try! Realm()

            let people = realm.objects(Person.self).sorted(byKeyPath: "age")
            seedCheck(people.map(\.age) == [36, 41], "ages survive: \(Array(people.map(\.age)))")
            seedCheck(people.map(\.fullName) == ["", ""], "the new property has its default value")
            seedCheck(realm.schema["Person"]?["firstName"] == nil, "the removed property is gone")
            seedCheck(realm.configuration.schemaVersion == 1, "schema version 1")
        }
        #expect(!seedStandardError(result).contains("seed check failed"), "\(seedStandardError(result))")
    }

    /// "Within the migration block we can call
    /// `Migration().enumerateObjects(ofType: _:_)` to enumerate each
    /// `Object` of a certain type… the existing `Object` instance is
    /// accessed via an `oldObject` variable and the updated instance is
    /// accessed via `newObject`".
    @Test func updatingValuesInAMigration() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let directory = TemporaryDirectory()
            seedCheck(FileManager.default.changeCurrentDirectoryPath(directory.url.path), "chdir")
            seedWriteVersion0DefaultRealm()
            typealias Person = MigrationV1.Person

            // Inside your application(application:didFinishLaunchingWithOptions:)

            Realm.Configuration.defaultConfiguration = Realm.Configuration(
                schemaVersion: 1,
                migrationBlock: { migration, oldSchemaVersion in
                    if (oldSchemaVersion < 1) {
                        // The enumerateObjects(ofType: _:_) method iterates
                        // over every Person object stored in the Realm file
                        migration.enumerateObjects(ofType: Person.className()) { oldObject, newObject in
                            // combine name fields into a single field
                            let firstName = oldObject!["firstName"] as! String
                            let lastName = oldObject!["lastName"] as! String
                            newObject!["fullName"] = "\(firstName) \(lastName)"
                        }
                    }
                },
                // Linux: the classes to migrate are listed (Docs/DifferencesFromApplePlatforms.md).
                objectTypes: [Person.self])

            // "Once the migration is successfully completed, the Realm and
            // all of its objects can be accessed as usual by your app."
            let realm = try! Realm()
            let people = realm.objects(Person.self).sorted(byKeyPath: "age")
            seedCheck(people.map(\.fullName) == ["Ada Lovelace", "Alan Turing"], "fullName: \(Array(people.map(\.fullName)))")
            seedCheck(people.map(\.age) == [36, 41], "ages survive")
        }
        #expect(!seedStandardError(result).contains("seed check failed"), "\(seedStandardError(result))")
    }

    /// "Renaming the property on a class as part of a migration is more
    /// efficient than copying values and preserves relationships".
    @Test func renamingAProperty() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let directory = TemporaryDirectory()
            seedCheck(FileManager.default.changeCurrentDirectoryPath(directory.url.path), "chdir")
            autoreleasepool {
                let realm = try! Realm(configuration: Realm.Configuration(objectTypes: [RenameV0.Person.self]))
                try! realm.write { realm.create(RenameV0.Person.self, value: ["name": "Ada", "yearsSinceBirth": 36]) }
            }
            typealias Person = RenameV1.Person

            // Inside your application(application:didFinishLaunchingWithOptions:)

            Realm.Configuration.defaultConfiguration = Realm.Configuration(
                schemaVersion: 1,
                migrationBlock: { migration, oldSchemaVersion in
                    // We haven't migrated anything yet, so oldSchemaVersion == 0
                    if (oldSchemaVersion < 1) {
                        // The renaming operation should be done outside of calls to `enumerateObjects(ofType`
                        migration.renameProperty(onType: Person.className(), from: "yearsSinceBirth", to: "age")
                    }
                },
                // Linux: the classes to migrate are listed (Docs/DifferencesFromApplePlatforms.md).
                objectTypes: [Person.self])

            let realm = try! Realm()
            let ada = realm.objects(Person.self).first
            seedCheck(ada?.name == "Ada", "the object survives")
            seedCheck(ada?.age == 36, "the renamed property keeps its value: \(String(describing: ada?.age))")
            seedCheck(realm.schema["Person"]?["yearsSinceBirth"] == nil, "the old name is gone")
        }
        #expect(!seedStandardError(result).contains("seed check failed"), "\(seedStandardError(result))")
    }

    /// Seed 003 "Adding more versions" and seed 000 "Linear migrations":
    /// "Structuring your migration blocks with non-nested
    /// `if (oldSchemaVersion < X)` calls ensures that they will see all
    /// necessary upgrades, no matter which schema version they start from."
    /// JP goes v0 → v1 → v2, Tim goes v0 → v2 at once; both end with the
    /// same data.
    @Test func linearMigrationsFromAnyVersion() throws {
        let directory = TemporaryDirectory()
        // Version 1 of the app shipped the block of "Performing a
        // Migration" (fullName only); version 2 ships the block of "Adding
        // more versions" (Objective-C in seed 003, in Swift here, with the
        // seed's nesting).
        let version1Block: MigrationBlock = { migration, oldSchemaVersion in
            if oldSchemaVersion < 1 {
                migration.enumerateObjects(ofType: "Person") { oldObject, newObject in
                    newObject!["fullName"] = "\(oldObject!["firstName"] as! String) \(oldObject!["lastName"] as! String)"
                }
            }
        }
        let version2Block: MigrationBlock = { migration, oldSchemaVersion in
            // We haven't migrated anything yet, so oldSchemaVersion == 0
            if oldSchemaVersion < 1 {
                // The enumerateObjects:block: method iterates
                // over every 'Person' object stored in the Realm file
                migration.enumerateObjects(ofType: "Person") { oldObject, newObject in
                    // Add the 'fullName' property only to Realms with a schema version of 0
                    if oldSchemaVersion < 1 {
                        newObject!["fullName"] = "\(oldObject!["firstName"] as! String) \(oldObject!["lastName"] as! String)"
                    }
                    // Add the 'email' property to Realms with a schema version of 0 or 1
                    if oldSchemaVersion < 2 {
                        newObject!["email"] = String()
                    }
                }
            }
        }
        func configuration(_ file: String, _ version: UInt64, _ type: Object.Type) -> Realm.Configuration {
            Realm.Configuration(fileURL: directory.file(file), schemaVersion: version,
                                migrationBlock: version == 1 ? version1Block : version2Block, objectTypes: [type])
        }
        for file in ["jp.realm", "tim.realm"] {
            try autoreleasepool {
                let realm = try Realm(configuration: configuration(file, 0, MigrationV0.Person.self))
                try realm.write {
                    realm.create(MigrationV0.Person.self, value: ["firstName": "Ada", "lastName": "Lovelace", "age": 36])
                }
            }
        }
        // JP: v0 → v1, then v1 → v2.
        try autoreleasepool {
            let v1 = try Realm(configuration: configuration("jp.realm", 1, MigrationV1.Person.self))
            #expect(v1.objects(MigrationV1.Person.self).first?.fullName == "Ada Lovelace")
        }
        let jp = try Realm(configuration: configuration("jp.realm", 2, MigrationV2.Person.self))
        // Tim: v0 → v2.
        let tim = try Realm(configuration: configuration("tim.realm", 2, MigrationV2.Person.self))
        for realm in [jp, tim] {
            let person = try #require(realm.objects(MigrationV2.Person.self).first)
            #expect(person.fullName == "Ada Lovelace")
            #expect(person.email == "")
            #expect(person.age == 36)
        }
    }
}
