import Foundation
import RealmCore
import Testing

/// Realm's deletion semantics: links become nil, lists drop the object,
/// embedded objects go with their parent.
@Suite struct DeletionTests {
    static let schema = Schema([
        TestSchema.dog,
        ObjectSchema(name: "Person", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string),
            Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
            Property(name: "nicknames", type: .string, isOptional: true, isList: true),
            Property(name: "address", type: .object, isOptional: true, objectClassName: "Address"),
            Property(name: "pastAddresses", type: .object, isList: true, objectClassName: "Address"),
        ]),
        ObjectSchema(name: "Address", properties: [
            Property(name: "street", type: .string),
            Property(name: "geo", type: .object, isOptional: true, objectClassName: "Geo"),
        ], isEmbedded: true),
        ObjectSchema(name: "Geo", properties: [Property(name: "lat", type: .double)], isEmbedded: true),
    ])

    struct Fixture {
        let directory = TemporaryDirectory()
        let transaction: Transaction
        let dogs: ClassHandle
        let people: ClassHandle
        let addresses: ClassHandle
        let geos: ClassHandle

        init() throws {
            let coordinator = try Coordinator.open(.file(directory.path(), schema: DeletionTests.schema))
            transaction = try coordinator.makeTransaction()
            dogs = try transaction.classHandle(named: "Dog")
            people = try transaction.classHandle(named: "Person")
            addresses = try transaction.classHandle(named: "Address")
            geos = try transaction.classHandle(named: "Geo")
        }
    }

    /// A key is never handed out twice, even after its object was deleted
    /// and the file closed: each write below runs on a coordinator opened
    /// afresh, as in a new process.
    @Test func keysOfDeletedObjectsAreNeverHandedOutAgain() throws {
        let directory = TemporaryDirectory()
        func write(_ body: (Transaction, ClassHandle) throws -> [ObjectKey]) throws -> [ObjectKey] {
            let transaction = try Coordinator.open(.file(directory.path(), schema: DeletionTests.schema)).makeTransaction()
            let dogs = try transaction.classHandle(named: "Dog")
            try transaction.beginWrite()
            let keys = try body(transaction, dogs)
            try transaction.commitWrite()
            return keys
        }
        func addDog(_ transaction: Transaction, _ dogs: ClassHandle) throws -> ObjectKey {
            try transaction.createObject(in: dogs, values: [.string("Rex"), .int(1), .null])
        }
        let first = try write { transaction, dogs in try (0..<3).map { _ in try addDog(transaction, dogs) } }
        #expect(first == [ObjectKey(1), ObjectKey(2), ObjectKey(3)])
        // The newest object deleted in a write of its own.
        _ = try write { transaction, dogs in try transaction.deleteObject(first[2], in: dogs); return [] }
        #expect(try write { transaction, dogs in [try addDog(transaction, dogs)] } == [ObjectKey(4)])
        // Added and deleted in one write.
        _ = try write { transaction, dogs in
            let key = try addDog(transaction, dogs)
            try transaction.deleteObject(key, in: dogs)
            return [key]
        }
        #expect(try write { transaction, dogs in [try addDog(transaction, dogs)] } == [ObjectKey(6)])
        // Every object deleted at once.
        _ = try write { transaction, dogs in try transaction.deleteAllObjects(in: dogs); return [] }
        #expect(try write { transaction, dogs in [try addDog(transaction, dogs)] } == [ObjectKey(7)])
        _ = try write { transaction, _ in try transaction.deleteAll(); return [] }
        #expect(try write { transaction, dogs in [try addDog(transaction, dogs)] } == [ObjectKey(8)])
    }

    @Test func deletingAnObjectNullifiesLinksAndRemovesItFromLists() throws {
        let fixture = try Fixture()
        let transaction = fixture.transaction
        try transaction.beginWrite()
        let tim = try transaction.createObject(in: fixture.people, values: [.int(1), .string("Tim")])
        let ann = try transaction.createObject(in: fixture.people, values: [.int(2), .string("Ann")])
        let rex = try transaction.createObject(in: fixture.dogs, values: [.string("Rex"), .int(1), .object(tim)])
        let fido = try transaction.createObject(in: fixture.dogs, values: [.string("Fido"), .int(2), .object(tim)])
        let timsDogs = try transaction.list(2, of: tim, in: fixture.people)
        let annsDogs = try transaction.list(2, of: ann, in: fixture.people)
        for dog in [rex, fido, rex] { try transaction.append(.object(dog), to: timsDogs) }
        try transaction.append(.object(rex), to: annsDogs)
        try transaction.commitWrite()

        try transaction.beginWrite()
        try transaction.deleteObject(tim, in: fixture.people)
        try transaction.deleteObject(rex, in: fixture.dogs)
        let changes = try transaction.commitWrite()

        #expect(try transaction.value(of: fido, property: 2, in: fixture.dogs) == .null)
        #expect(try transaction.values(of: annsDogs) == [])
        #expect(try transaction.objectExists(rex, in: fixture.dogs) == false)
        #expect(changes.classes["Person"]?.deletions.contains(tim) == true)
        #expect(changes.classes["Dog"]?.modifications[fido]?.contains(2) == true)
        let annsChange = try #require(changes.lists[ListIdentifier(className: "Person", propertyIndex: 2, owner: ann)])
        #expect(annsChange.deletions == [0])

        let missing = #expect(throws: RealmError.self) {
            try transaction.write { try transaction.deleteObject(rex, in: fixture.dogs) }
        }
        #expect(missing?.kind == .objectNotFound)
    }

    @Test func embeddedObjectsAreDeletedWithTheirParentAndWhenReplaced() throws {
        let fixture = try Fixture()
        let transaction = fixture.transaction
        try transaction.beginWrite()
        let tim = try transaction.createObject(in: fixture.people, values: [.int(1), .string("Tim")])
        let home = try transaction.createEmbeddedObject(in: fixture.people, owner: tim, property: 4, values: [.string("Main St")])
        let homeGeo = try transaction.createEmbeddedObject(in: fixture.addresses, owner: home, property: 1, values: [.double(51.5)])
        let past = try transaction.list(5, of: tim, in: fixture.people)
        let old1 = try transaction.appendEmbeddedObject(to: past, values: [.string("Old Rd")])
        let old2 = try transaction.appendEmbeddedObject(to: past, values: [.string("Older Ave")])
        try transaction.commitWrite()
        #expect(try transaction.count(of: fixture.addresses) == 3)
        #expect(try transaction.count(of: fixture.geos) == 1)

        // Replacing an embedded object deletes the old one (and its own
        // embedded objects).
        try transaction.beginWrite()
        let newHome = try transaction.createEmbeddedObject(in: fixture.people, owner: tim, property: 4, values: [.string("High St")])
        #expect(try transaction.objectExists(home, in: fixture.addresses) == false)
        #expect(try transaction.objectExists(homeGeo, in: fixture.geos) == false)
        // Removing from a list of embedded objects deletes the object.
        try transaction.remove(at: 0, from: past)
        #expect(try transaction.objectExists(old1, in: fixture.addresses) == false)
        try transaction.commitWrite()

        // Deleting the parent cascades.
        try transaction.write { try transaction.deleteObject(tim, in: fixture.people) }
        #expect(try transaction.objectExists(newHome, in: fixture.addresses) == false)
        #expect(try transaction.objectExists(old2, in: fixture.addresses) == false)
        #expect(try transaction.count(of: fixture.addresses) == 0)

        // Embedded objects cannot be created or linked on their own.
        try transaction.beginWrite()
        let standalone = #expect(throws: RealmError.self) {
            try transaction.createObject(in: fixture.addresses, values: [.string("Nowhere")])
        }
        #expect(standalone?.message.contains("embedded class 'Address'") == true)
        transaction.cancelWrite()
    }

    @Test func deleteAllObjectsIsOneFactAndKeepsLinksConsistent() throws {
        let fixture = try Fixture()
        let transaction = fixture.transaction
        try transaction.beginWrite()
        let tim = try transaction.createObject(in: fixture.people, values: [.int(1), .string("Tim")])
        for index in 0..<100 {
            let dog = try transaction.createObject(in: fixture.dogs, values: [.string("dog\(index)"), .int(Int64(index)), .object(tim)])
            try transaction.append(.object(dog), to: transaction.list(2, of: tim, in: fixture.people))
        }
        try transaction.commitWrite()

        try transaction.beginWrite()
        try transaction.deleteAllObjects(in: fixture.dogs)
        let changes = try transaction.commitWrite()
        let dogChanges = try #require(changes.classes["Dog"])
        #expect(dogChanges.deletedAll)
        #expect(dogChanges.deletions.isEmpty)
        #expect(try transaction.count(of: fixture.dogs) == 0)
        #expect(try transaction.count(of: transaction.list(2, of: tim, in: fixture.people)) == 0)
        #expect(changes.lists[ListIdentifier(className: "Person", propertyIndex: 2, owner: tim)]?.deletions.count == 100)
    }

    @Test func deleteAllEmptiesEveryClass() throws {
        let fixture = try Fixture()
        let transaction = fixture.transaction
        try transaction.write {
            let tim = try transaction.createObject(in: fixture.people, values: [.int(1), .string("Tim")])
            try transaction.createEmbeddedObject(in: fixture.people, owner: tim, property: 4, values: [.string("Main St")])
            try transaction.append(.string("T"), to: transaction.list(3, of: tim, in: fixture.people))
            try transaction.createObject(in: fixture.dogs, values: [.string("Rex"), .int(1), .object(tim)])
        }
        try transaction.write { try transaction.deleteAll() }
        for handle in [fixture.dogs, fixture.people, fixture.addresses, fixture.geos] {
            #expect(try transaction.count(of: handle) == 0)
        }
        // A new object does not inherit old list rows.
        let again = try transaction.write { try transaction.createObject(in: fixture.people, values: [.int(1), .string("Tim")]) }
        #expect(try transaction.count(of: transaction.list(3, of: again, in: fixture.people)) == 0)
    }

    @Test func primaryKeysAreUniqueAndFindable() throws {
        let fixture = try Fixture()
        let transaction = fixture.transaction
        try transaction.beginWrite()
        let tim = try transaction.createObject(in: fixture.people, values: [.int(1), .string("Tim")])
        let duplicate = #expect(throws: RealmError.self) {
            try transaction.createObject(in: fixture.people, values: [.int(1), .string("Other Tim")])
        }
        #expect(duplicate?.kind == .duplicatePrimaryKey)
        #expect(duplicate?.message.contains("'Person'") == true)
        #expect(duplicate?.message.contains("1") == true)
        // The transaction is still usable.
        let ann = try transaction.createObject(in: fixture.people, values: [.int(2), .string("Ann")])
        try transaction.commitWrite()
        #expect(try transaction.object(withPrimaryKey: .int(1), in: fixture.people) == tim)
        #expect(try transaction.object(withPrimaryKey: .int(2), in: fixture.people) == ann)
        #expect(try transaction.object(withPrimaryKey: .int(3), in: fixture.people) == nil)

        try transaction.beginWrite()
        let change = #expect(throws: RealmError.self) {
            try transaction.setValue(.int(5), of: tim, property: 0, in: fixture.people)
        }
        #expect(change?.message.contains("cannot be changed") == true)
        transaction.cancelWrite()
    }

    @Test func optionalPrimaryKeysAllowOneNil() throws {
        let directory = TemporaryDirectory()
        let schema = Schema([ObjectSchema(name: "Tag", properties: [Property(name: "id", type: .string, isOptional: true, isPrimaryKey: true)])])
        let coordinator = try Coordinator.open(.file(directory.path(), schema: schema))
        let transaction = try coordinator.makeTransaction()
        let tags = try transaction.classHandle(named: "Tag")
        try transaction.beginWrite()
        let untagged = try transaction.createObject(in: tags, values: [.null])
        #expect(throws: RealmError.self) { try transaction.createObject(in: tags, values: [.null]) }
        try transaction.commitWrite()
        #expect(try transaction.object(withPrimaryKey: .null, in: tags) == untagged)
    }

    /// Objects of a class with no relationships go in one statement, with
    /// one deletion record each, all or none.
    @Test func objectsOfAStandaloneClassAreDeletedTogether() throws {
        let schema = Schema([ObjectSchema(name: "Item", properties: [Property(name: "value", type: .int)])])
        let directory = TemporaryDirectory()
        let transaction = try Coordinator.open(.file(directory.path(), schema: schema)).makeTransaction()
        let items = try transaction.classHandle(named: "Item")
        var keys: [ObjectKey] = []
        try transaction.write {
            for index in 0..<1_000 { keys.append(try transaction.createObject(in: items, values: [.int(Int64(index))])) }
        }
        let doomed = keys.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)

        // One missing key: nothing is deleted, and the error names it.
        try transaction.beginWrite()
        let missing = ObjectKey(1_000_000)
        #expect(throws: RealmError.self) { try transaction.deleteObjects(doomed + [missing], in: items) }
        #expect(try transaction.count(of: items) == 1_000)
        do {
            try transaction.deleteObjects([doomed[0], missing], in: items)
        } catch {
            #expect(error.kind == .objectNotFound)
            #expect(error.message.contains("1000000"))
        }

        // Duplicates count once.
        try transaction.deleteObjects(doomed + doomed.prefix(5), in: items)
        let changes = try transaction.commitWrite()
        #expect(try transaction.count(of: items) == 1_000 - doomed.count)
        #expect(try transaction.objectExists(doomed[1], in: items) == false)
        #expect(try transaction.objectExists(keys[1], in: items))
        let recorded = try #require(changes.classes["Item"])
        #expect(recorded.deletions.count == doomed.count)
        #expect(!recorded.deletedAll)
    }
}
