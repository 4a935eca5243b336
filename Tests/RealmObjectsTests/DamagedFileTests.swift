import Foundation
import RealmCore
import RealmObjects
import Testing

/// Damage that only reading finds never stops the program: the read answers
/// with no data (never the damaged bytes as another type), and the Realm's
/// next throwing call throws `fileCorrupt`. `Realm.verify` finds each kind.
@Suite struct DamagedFileTests {
    /// A file with two dogs, one owned by a person, and a task; closed.
    private func makeFile(_ directory: TemporaryDirectory) throws -> Realm.Configuration {
        let configuration = Realm.Configuration(fileURL: directory.file(), objectTypes: [Dog.self, Person.self, AllTypes.self])
        try autoreleasepool {
            let realm = try Realm(configuration: configuration)
            try realm.write {
                let person = realm.create(Person.self, value: ["name": "Ann"])
                let rex = realm.create(Dog.self, value: ["name": "Rex", "age": 3])
                rex.owner = person
                person.dogs.append(rex)
                realm.create(Dog.self, value: ["name": "Fido", "age": 5])
                realm.create(AllTypes.self, value: ["status": TaskStatus.inProgress.rawValue])
            }
        }
        return configuration
    }

    /// Runs SQL on the file, as damage from outside the library would.
    private func damage(_ configuration: Realm.Configuration, _ sql: (_ table: (String) throws -> String) throws -> String) throws {
        let connection = try Connection(path: configuration.fileURL!.path, readOnly: false)
        let statement = try connection.prepare("SELECT table_name FROM realm_classes WHERE name = ?")
        func table(_ className: String) throws -> String {
            statement.bind(className, at: 1)
            defer { statement.reset() }
            _ = try statement.step()
            return "\"" + statement.string(at: 0) + "\""
        }
        try connection.execute(try sql(table))
    }

    private func expectDamageReported(by realm: Realm, sourceLocation: SourceLocation = #_sourceLocation) {
        let error = #expect(throws: Realm.Error.self, sourceLocation: sourceLocation) {
            try realm.write { realm.create(Dog.self, value: ["name": "Late"]) }
        }
        #expect(error?.code == .fileCorrupt, "\(String(describing: error))", sourceLocation: sourceLocation)
        // Reported once: the Realm goes on.
        #expect(throws: Never.self, sourceLocation: sourceLocation) {
            try realm.write { realm.create(Dog.self, value: ["name": "Later"]) }
        }
    }

    @Test func aStringColumnHoldingABlobReadsAsNoStringAndTheNextWriteThrows() throws {
        let directory = TemporaryDirectory()
        let configuration = try makeFile(directory)
        try damage(configuration) { "UPDATE \(try $0("Dog")) SET name = x'00ff41' WHERE age = 3" }
        let realm = try Realm(configuration: configuration)
        let names = realm.objects(Dog.self).sorted(byKeyPath: "age").map(\.name)
        #expect(names == ["", "Fido"])
        expectDamageReported(by: realm)
        #expect(realm.objects(Dog.self).count == 3)
    }

    /// (Text that looks like a number is stored as one: the column's
    /// INTEGER affinity converts it, as SQLite documents.)
    @Test func textInAnIntColumnIsNotConvertedToANumber() throws {
        let directory = TemporaryDirectory()
        let configuration = try makeFile(directory)
        try damage(configuration) { "UPDATE \(try $0("Dog")) SET age = 'forty-one' WHERE name = 'Rex'" }
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(Dog.self).filter("name == 'Rex'").first?.age == 0)
        expectDamageReported(by: realm)
    }

    @Test func aMissingListTableReadsAsAnEmptyList() throws {
        let directory = TemporaryDirectory()
        let configuration = try makeFile(directory)
        try damage(configuration) { _ in "DROP TABLE \"list_Person.dogs\"" }
        let realm = try Realm(configuration: configuration)
        let person = try #require(realm.objects(Person.self).first)
        #expect(person.dogs.count == 0)
        #expect(Array(person.dogs).isEmpty)
        expectDamageReported(by: realm)
    }

    @Test func aMissingClassTableReadsAsNoObjects() throws {
        let directory = TemporaryDirectory()
        let configuration = try makeFile(directory)
        try damage(configuration) { "DROP TABLE \(try $0("Dog"))" }
        let realm = try Realm(configuration: configuration)
        let dogs = realm.objects(Dog.self)
        #expect(dogs.count == 0)
        #expect(dogs.first == nil)
        #expect(Array(dogs).isEmpty)
        #expect(dogs.filter("age > 1").count == 0)
        #expect(dogs.max(ofProperty: "age") as Int? == nil)
        // The damage is thrown by the next throwing call, here opening the
        // thread's Realm again.
        let error = #expect(throws: Realm.Error.self) { _ = try Realm(configuration: configuration) }
        #expect(error?.code == .fileCorrupt)
    }

    @Test func anEnumValueThatIsNoCaseReadsAsTheFirstCase() throws {
        let directory = TemporaryDirectory()
        let configuration = try makeFile(directory)
        try damage(configuration) { "UPDATE \(try $0("AllTypes")) SET status = 77" }
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(AllTypes.self).first?.status == .notStarted)
        expectDamageReported(by: realm)
    }

    @Test func aDanglingLinkReadsAsAnObjectWithNoValues() throws {
        let directory = TemporaryDirectory()
        let configuration = try makeFile(directory)
        try damage(configuration) { "UPDATE \(try $0("Dog")) SET owner = 999 WHERE name = 'Rex'" }
        let realm = try Realm(configuration: configuration)
        let rex = try #require(realm.objects(Dog.self).filter("name == 'Rex'").first)
        let owner = try #require(rex.owner)
        #expect(owner.name == "")
        expectDamageReported(by: realm)
    }

    /// A list's count (its last position plus one) and its rows disagree:
    /// every way of reading it gives the counted length, positions without
    /// a row read as objects without values, and nothing stops (an array
    /// made from the list trusted the count and stopped).
    @Test func aListWhosePositionsLeaveAGapKeepsItsCountedLength() throws {
        let directory = TemporaryDirectory()
        let configuration = try makeFile(directory)
        try damage(configuration) { _ in "UPDATE \"list_Person.dogs\" SET position = 3" }
        let realm = try Realm(configuration: configuration)
        let person = try #require(realm.objects(Person.self).first)
        #expect(person.dogs.count == 4)
        // A loop reads the rows there are, then the placeholders.
        let dogs = Array(person.dogs)
        #expect(dogs.map(\.name) == ["Rex", "", "", ""])
        #expect(person.dogs[1].name == "")
        #expect(person.dogs[3].name == "Rex")
        #expect(person.dogs.map(\.age) == [0, 0, 0, 3])
        expectDamageReported(by: realm)
    }

    /// A count no file of this size could hold (a damaged position) is
    /// damage, not a size to allocate: the list reads as empty.
    @Test func aCountLargerThanTheFileIsDamage() throws {
        let directory = TemporaryDirectory()
        let configuration = try makeFile(directory)
        try damage(configuration) { _ in "UPDATE \"list_Person.dogs\" SET position = 4000000000" }
        let realm = try Realm(configuration: configuration)
        let person = try #require(realm.objects(Person.self).first)
        #expect(person.dogs.count == 0)
        #expect(Array(person.dogs).isEmpty)
        expectDamageReported(by: realm)
    }

    /// Damage that beginning a write finds (its metadata gone) is thrown by
    /// `write(_:)`, not a stop: the file is the caller's to handle.
    @Test func damageFoundBeginningAWriteIsThrownByWrite() throws {
        let directory = TemporaryDirectory()
        let configuration = try makeFile(directory)
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(Dog.self).count == 2)
        try damage(configuration) { _ in "DELETE FROM realm_metadata" }
        let error = #expect(throws: Realm.Error.self) {
            try realm.write { realm.create(Dog.self, value: ["name": "Late"]) }
        }
        #expect(error?.code == .fileCorrupt, "\(String(describing: error))")
        #expect(!realm.isInWriteTransaction)
    }

    /// A deleted object is invalidated, not damage: reading through a list
    /// and a query after deletions reports nothing.
    @Test func deletedObjectsAreNotTakenForDamage() throws {
        let directory = TemporaryDirectory()
        let realm = try Realm(configuration: makeFile(directory))
        let rex = try #require(realm.objects(Dog.self).filter("name == 'Rex'").first)
        let owner = try #require(rex.owner)
        try realm.write { realm.delete(rex) }
        #expect(rex.isInvalidated)
        #expect(owner.dogs.isEmpty)
        #expect(realm.objects(Dog.self).map(\.name) == ["Fido"])
        #expect(try Realm.verificationProblems(configuration: realm.configuration).isEmpty)
        try realm.write { realm.create(Dog.self, value: ["name": "Next"]) }
    }

    @Test func verifyFindsNothingInASoundFile() throws {
        let directory = TemporaryDirectory()
        let configuration = try makeFile(directory)
        #expect(try Realm.verificationProblems(configuration: configuration).isEmpty)
        try Realm.verify(configuration: configuration)
        // Also while a Realm has it open, with commits in its -wal.
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.create(Dog.self, value: ["name": "New"]) }
        try Realm.verify(configuration: configuration)
    }

    @Test func verifyOfAMissingFileCreatesNothing() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file("missing.realm"))
        let error = #expect(throws: Realm.Error.self) { try Realm.verify(configuration: configuration) }
        #expect(error?.code == .fileNotFound)
        #expect(!FileManager.default.fileExists(atPath: directory.file("missing.realm").path))
    }

    @Test func verifyListsEveryKindOfProblem() throws {
        let directory = TemporaryDirectory()
        let configuration = try makeFile(directory)
        try damage(configuration) { table in
            """
            UPDATE \(try table("Dog")) SET name = x'3132' WHERE age = 3;
            UPDATE \(try table("Dog")) SET owner = 999;
            INSERT INTO "list_Person.dogs" (owner, position, value) VALUES (555, 0, 1);
            DROP TABLE \(try table("AllTypes"));
            """
        }
        let problems = try Realm.verificationProblems(configuration: configuration)
        #expect(problems.count == 4, "\(problems)")
        #expect(problems.contains { $0.contains("'Dog.name'") && $0.contains("another type than string") })
        #expect(problems.contains { $0.contains("'Dog.owner'") && $0.contains("do not exist") })
        #expect(problems.contains { $0.contains("'Person.dogs'") && $0.contains("belong to objects that do not exist") })
        #expect(problems.contains { $0.contains("'AllTypes'") && $0.contains("missing") })
        let error = #expect(throws: Realm.Error.self) { try Realm.verify(configuration: configuration) }
        #expect(error?.code == .fileCorrupt)
        #expect(error?.message.contains("4 problems") == true)
    }

    @Test func verifyRunsSQLitesIntegrityCheck() throws {
        let directory = TemporaryDirectory()
        let configuration = try makeFile(directory)
        // An index entry whose row is gone: only SQLite's check sees it.
        let connection = try Connection(path: configuration.fileURL!.path, readOnly: false)
        let indexes = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'list_%'")
        #expect(try indexes.step())
        let index = indexes.string(at: 0)
        indexes.reset()
        let rootPage = try #require(try connection.scalar("SELECT rootpage FROM sqlite_master WHERE name = '\(index)'"))
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        // Zero the index's root page.
        let handle = try FileHandle(forUpdating: configuration.fileURL!)
        let pageSize = 4096
        try handle.seek(toOffset: UInt64((Int(rootPage) - 1) * pageSize))
        handle.write(Data(count: pageSize))
        try handle.close()
        let problems = try Realm.verificationProblems(configuration: configuration)
        #expect(problems.contains { $0.hasPrefix("SQLite's integrity check") }, "\(problems)")
    }
}
