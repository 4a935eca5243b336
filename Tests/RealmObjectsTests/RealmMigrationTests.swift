import Foundation
import RealmObjects
import Testing

/// realm-swift's `MigrationTests` that concern when the block runs and what
/// `enumerateObjects` visits, ported to this API.
@Suite struct RealmMigrationTests {
    /// Opens the file at `url` with `schemaVersion` and a block that
    /// records that it ran (after calling `body`); returns whether it ran.
    @discardableResult
    private func migrate(_ url: URL, to schemaVersion: UInt64, objectTypes: [Object.Type]? = nil,
                         _ body: @escaping @Sendable (Migration, UInt64) -> Void = { _, _ in }) throws -> Bool {
        let ran = Locked(false)
        var configuration = Realm.Configuration(fileURL: url, schemaVersion: schemaVersion, migrationBlock: { migration, old in
            body(migration, old)
            ran.value = true
        })
        configuration.objectTypes = objectTypes
        try Realm.performMigration(for: configuration)
        return ran.value
    }

    /// testSetSchemaVersion, testMigrateRealm: a file opened once, without
    /// classes, is migrated when its version goes up; not again at the same
    /// version; again at the next.
    @Test func theBlockRunsForAFileWithoutClassesOpenedBefore() throws {
        let directory = TemporaryDirectory()
        let url = directory.file()
        try autoreleasepool { _ = try Realm(configuration: Realm.Configuration(fileURL: url)) }
        #expect(try schemaVersionAtURL(url) == 0)
        #expect(try migrate(url, to: 1))
        #expect(try schemaVersionAtURL(url) == 1)
        #expect(try !migrate(url, to: 1))
        try autoreleasepool {
            let ran = Locked(false)
            let configuration = Realm.Configuration(fileURL: url, schemaVersion: 2, migrationBlock: { _, old in
                #expect(old == 1)
                ran.value = true
            })
            _ = try Realm(configuration: configuration)
            #expect(ran.value)
        }
    }

    /// A file that does not exist yet is not migrated, as the seeds say.
    @Test func theBlockDoesNotRunForANewFile() throws {
        let directory = TemporaryDirectory()
        #expect(try !migrate(directory.file(), to: 3))
        #expect(try schemaVersionAtURL(directory.file()) == 3)
    }

    private func fileWithDogs(_ url: URL, names: [String]) throws {
        try autoreleasepool {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [Dog.self, Person.self]))
            try realm.write {
                for name in names { realm.create(Dog.self, value: ["name": name]) }
            }
        }
    }

    /// testEnumerateObjectsAfterDeleteObjects and ...DeleteInsertObjects:
    /// objects deleted in the migration are skipped, and objects it created
    /// are not enumerated.
    @Test func enumerationSkipsObjectsDeletedOrCreatedInTheMigration() throws {
        let directory = TemporaryDirectory()
        try fileWithDogs(directory.file(), names: ["1", "2", "3"])
        let counts = Locked<[Int]>([])
        try migrate(directory.file(), to: 1, objectTypes: [Dog.self, Person.self]) { migration, _ in
            migration.enumerateObjects(ofType: "Dog") { old, new in
                #expect(new!["name"] as? String == old!["name"] as? String)
                if old!["name"] as? String == "2" {
                    migration.delete(new!)
                    migration.create("Dog", value: ["name": "A"])
                }
            }
            var count = 0
            migration.enumerateObjects(ofType: "Dog") { old, new in
                #expect(new!["name"] as? String == old!["name"] as? String)
                count += 1
            }
            counts.value.append(count)
            migration.enumerateObjects(ofType: "Dog") { _, new in migration.delete(new!) }
            count = 0
            migration.enumerateObjects(ofType: "Dog") { _, _ in count += 1 }
            counts.value.append(count)
        }
        #expect(counts.value == [2, 0])
    }

    /// testEnumerateObjectsAfterDeleteData.
    @Test func enumerationFindsNothingAfterDeleteData() throws {
        let directory = TemporaryDirectory()
        try fileWithDogs(directory.file(), names: ["1", "2", "3"])
        let counts = Locked<[Int]>([])
        try migrate(directory.file(), to: 1, objectTypes: [Dog.self, Person.self]) { migration, _ in
            var count = 0
            migration.enumerateObjects(ofType: "Dog") { _, _ in count += 1 }
            counts.value.append(count)
            migration.deleteData(forType: "Dog")
            migration.create("Dog", value: ["name": "A"])
            count = 0
            migration.enumerateObjects(ofType: "Dog") { _, _ in count += 1 }
            counts.value.append(count)
        }
        #expect(counts.value == [3, 0])
    }

    /// testEnumerate: a class the old file has, without objects, enumerates
    /// nothing even when the migration creates some.
    @Test func anEmptyOldClassEnumeratesNothing() throws {
        let directory = TemporaryDirectory()
        try fileWithDogs(directory.file(), names: [])
        let count = Locked(0)
        try migrate(directory.file(), to: 1, objectTypes: [Dog.self, Person.self]) { migration, _ in
            migration.create("Dog", value: ["name": "new"])
            migration.enumerateObjects(ofType: "Dog") { _, _ in count.value += 1 }
            migration.enumerateObjects(ofType: "NoSuchClass") { _, _ in count.value += 1 }
        }
        #expect(count.value == 0)
    }

    /// testEnumerate, testMigrationObject: a list property read by name is
    /// a `List<DynamicObject>` (Realm's `List<MigrationObject>`), old and
    /// new, and the new one can be changed through it.
    @Test func aListReadByNameIsAListOfDynamicObjects() throws {
        let directory = TemporaryDirectory()
        try autoreleasepool {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), objectTypes: [Dog.self, Person.self]))
            try realm.write {
                let ann = realm.create(Person.self, value: ["name": "Ann"])
                ann.dogs.append(realm.create(Dog.self, value: ["name": "Rex"]))
            }
        }
        let lists = Locked<[Int]>([])
        try migrate(directory.file(), to: 1, objectTypes: [Dog.self, Person.self]) { migration, _ in
            migration.enumerateObjects(ofType: "Person") { old, new in
                let oldDogs = old!["dogs"] as? List<DynamicObject>
                let newDogs = new!["dogs"] as? List<DynamicObject>
                lists.value = [oldDogs?.count ?? -1, newDogs?.count ?? -1]
                #expect(oldDogs?[0]["name"] as? String == "Rex")
                newDogs?.append(migration.create("Dog", value: ["name": "Fido"]))
                lists.value.append(newDogs?.count ?? -1)
            }
        }
        #expect(lists.value == [1, 1, 2])
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), schemaVersion: 1, objectTypes: [Dog.self, Person.self]))
        #expect(realm.objects(Person.self).first?.dogs.map(\.name) == ["Rex", "Fido"])
    }
}
