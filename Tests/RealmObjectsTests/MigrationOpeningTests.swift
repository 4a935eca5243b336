import Foundation
import RealmCore
import RealmObjects
import Testing

/// The model of the migration tests below, in its version 1; version 0 is
/// written to the file through RealmCore with this type's name, as an
/// earlier build of the same program would have.
final class MigratingPerson: Object {
    @Persisted var fullName = ""
    @Persisted var age = 0
}

/// When migrations run: on open, for a file with classes whose version is
/// lower; never for a new file; and without `objectTypes` too.
@Suite struct MigrationOpeningTests {
    /// Writes version 0 of MigratingPerson (first and last names) with two
    /// objects.
    private func writeVersionZero(_ url: URL) throws {
        let schema = Schema([ObjectSchema(name: "MigratingPerson", properties: [
            Property(name: "firstName", type: .string),
            Property(name: "lastName", type: .string),
            Property(name: "age", type: .int),
        ], swiftTypeName: String(reflecting: MigratingPerson.self))])
        let coordinator = try Coordinator.open(.file(url.path, schema: schema))
        let transaction = try coordinator.makeTransaction()
        let people = try transaction.classHandle(named: "MigratingPerson")
        try transaction.write {
            try transaction.createObject(in: people, values: [.string("Ada"), .string("Lovelace"), .int(36)])
            try transaction.createObject(in: people, values: [.string("Alan"), .string("Turing"), .int(41)])
        }
    }

    /// Seed 000 "Migrations", as written there: no `objectTypes`, the block
    /// in the default-style configuration, and the class used afterwards.
    @Test func aMigrationWithoutObjectTypesRunsWhenTheFileOpens() throws {
        let directory = TemporaryDirectory()
        let url = directory.file()
        try writeVersionZero(url)
        let calls = Locked(0)
        let config = Realm.Configuration(
            fileURL: url,
            schemaVersion: 1,
            migrationBlock: { migration, oldSchemaVersion in
                calls.value += 1
                if oldSchemaVersion < 1 {
                    migration.enumerateObjects(ofType: MigratingPerson.className()) { oldObject, newObject in
                        let firstName = oldObject!["firstName"] as! String
                        let lastName = oldObject!["lastName"] as! String
                        newObject!["fullName"] = "\(firstName) \(lastName)"
                    }
                }
            })
        let realm = try Realm(configuration: config)
        #expect(calls.value == 1)
        #expect(realm.objects(MigratingPerson.self).map(\.fullName).sorted() == ["Ada Lovelace", "Alan Turing"])
        #expect(realm.objects(MigratingPerson.self).map(\.age).sorted() == [36, 41])
        #expect(try schemaVersionAtURL(url) == 1)
    }

    @Test func noMigrationBlockRunsForANewFile() throws {
        let directory = TemporaryDirectory()
        let calls = Locked(0)
        let config = Realm.Configuration(fileURL: directory.file(), schemaVersion: 5, migrationBlock: { _, _ in calls.value += 1 },
                                         objectTypes: [Dog.self, Person.self])
        let realm = try Realm(configuration: config)
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        #expect(calls.value == 0)
        #expect(try schemaVersionAtURL(directory.file()) == 5)
    }

    @Test func schemaVersionAtURLReadsWithoutOpening() throws {
        let directory = TemporaryDirectory()
        let url = directory.file()
        // Realm 3.13's own test (`testSchemaVersionAtURL`) expects `fail`
        // before the file is made.
        let missing = #expect(throws: Realm.Error.self) { _ = try schemaVersionAtURL(url) }
        #expect(missing?.code == .fail)

        try writeVersionZero(url)
        #expect(try schemaVersionAtURL(url) == 0)
        #expect(try Realm.schemaVersion(at: url) == 0)

        let text = directory.file("notes.realm")
        try Data("not a Realm, just some text that is long enough".utf8).write(to: text)
        let notARealm = #expect(throws: Realm.Error.self) { _ = try schemaVersionAtURL(text) }
        #expect(notARealm?.code == .fileAccess)
    }
}

/// The migration API as Realm Swift's tests use it: delete, deleteData, a
/// class removed from the schema, and a default for an added property.
@Suite struct MigrationBehaviourTests {
    /// Version 0: MigratingPerson as above, and a class "Retired" that the
    /// model no longer has.
    private func writeVersionZero(_ url: URL) throws {
        let schema = Schema([
            ObjectSchema(name: "MigratingPerson", properties: [
                Property(name: "firstName", type: .string),
                Property(name: "lastName", type: .string),
                Property(name: "age", type: .int),
            ], swiftTypeName: String(reflecting: MigratingPerson.self)),
            ObjectSchema(name: "Retired", properties: [Property(name: "note", type: .string)]),
        ])
        let coordinator = try Coordinator.open(.file(url.path, schema: schema))
        let transaction = try coordinator.makeTransaction()
        let people = try transaction.classHandle(named: "MigratingPerson")
        let retired = try transaction.classHandle(named: "Retired")
        try transaction.write {
            try transaction.createObject(in: people, values: [.string("Ada"), .string("Lovelace"), .int(36)])
            try transaction.createObject(in: people, values: [.string("Alan"), .string("Turing"), .int(41)])
            try transaction.createObject(in: retired, values: [.string("old")])
        }
    }

    @Test func deleteDeleteDataAndRemovedClasses() throws {
        let directory = TemporaryDirectory()
        let url = directory.file()
        try writeVersionZero(url)
        let notes = Locked<[String]>([])
        let config = Realm.Configuration(fileURL: url, schemaVersion: 1, migrationBlock: { migration, _ in
            // A class the new schema lacks: old objects, no new ones.
            migration.enumerateObjects(ofType: "Retired") { oldObject, newObject in
                notes.value.append("\(oldObject!["note"] as! String) \(newObject == nil)")
            }
            migration.enumerateObjects(ofType: "MigratingPerson") { oldObject, newObject in
                if oldObject!["firstName"] as! String == "Alan" {
                    migration.delete(newObject!)
                } else {
                    newObject!["fullName"] = "Ada Lovelace"
                }
            }
            notes.value.append("deleteData \(migration.deleteData(forType: "Retired"))")
            notes.value.append("deleteData missing \(migration.deleteData(forType: "Missing"))")
        }, objectTypes: [MigratingPerson.self])
        let realm = try Realm(configuration: config)
        #expect(notes.value == ["old true", "deleteData true", "deleteData missing false"])
        #expect(realm.objects(MigratingPerson.self).map(\.fullName) == ["Ada Lovelace"])
        // deleteData removed the class from the file, as Realm does.
        #expect(realm.dynamicObjects("MigratingPerson").count == 1)
        let reopened = try Realm(configuration: Realm.Configuration(fileURL: url, schemaVersion: 1))
        #expect(!reopened.schema.classNames.contains("Retired"))
    }
}
