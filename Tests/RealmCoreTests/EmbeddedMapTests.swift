import Foundation
import RealmCore
import Testing

/// Maps of embedded objects: each value is made for its key and owned by
/// the map, so that replacing it, removing the key, clearing the map or
/// deleting the owner deletes it (and what it embeds).
@Suite struct EmbeddedMapTests {
    static let schema = Schema([
        ObjectSchema(name: "Person", properties: [
            Property(name: "name", type: .string),
            Property(name: "homes", type: .object, isOptional: true, isMap: true, objectClassName: "Address"),
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
        let people: ClassHandle
        let addresses: ClassHandle
        let geos: ClassHandle
        let ana: ObjectKey
        let homes: ListHandle

        init() throws {
            let coordinator = try Coordinator.open(.file(directory.path(), schema: EmbeddedMapTests.schema))
            transaction = try coordinator.makeTransaction()
            people = try transaction.classHandle(named: "Person")
            addresses = try transaction.classHandle(named: "Address")
            geos = try transaction.classHandle(named: "Geo")
            try transaction.beginWrite()
            ana = try transaction.createObject(in: people, values: [.string("Ana"), .null])
            homes = ListHandle(owningClass: people, owner: ana, property: 1)
        }

        /// Makes an address for `key`, with a geo inside.
        @discardableResult
        func home(_ key: String, _ street: String) throws -> ObjectKey {
            let address = try transaction.setEmbeddedObject(forKey: key, in: homes, values: [.string(street), .null])
            try transaction.createEmbeddedObject(in: addresses, owner: address, property: 1, values: [.double(1)])
            return address
        }

        func streets() throws -> [String: String] {
            var streets: [String: String] = [:]
            for (key, value) in try transaction.entries(of: homes) {
                guard case .object(let address) = value, case .string(let street) = try transaction.value(of: address, property: 0, in: addresses)
                else { streets[key] = "nil"; continue }
                streets[key] = street
            }
            return streets
        }

        func counts() throws -> (addresses: Int, geos: Int) {
            (try transaction.count(of: addresses), try transaction.count(of: geos))
        }
    }

    @Test func aValueIsMadeForItsKeyAndReplacingItDeletesTheOldOne() throws {
        let f = try Fixture()
        try f.home("summer", "Beach Rd")
        try f.home("winter", "Hill St")
        #expect(try f.streets() == ["summer": "Beach Rd", "winter": "Hill St"])
        try f.home("summer", "Dune Ave")
        #expect(try f.streets() == ["summer": "Dune Ave", "winter": "Hill St"])
        #expect(try f.counts() == (2, 2), "the replaced address and its geo are gone")
        try f.transaction.setValue(.null, forKey: "winter", in: f.homes)
        #expect(try f.streets() == ["summer": "Dune Ave", "winter": "nil"])
        #expect(try f.counts() == (1, 1))
    }

    @Test func removingAKeyClearingAndDeletingTheOwnerDeleteTheValues() throws {
        let f = try Fixture()
        try f.home("a", "A St")
        try f.home("b", "B St")
        try f.home("c", "C St")
        #expect(try f.transaction.removeValue(forKey: "a", from: f.homes))
        #expect(try f.counts() == (2, 2))
        try f.transaction.removeAll(fromMap: f.homes)
        #expect(try f.counts() == (0, 0))
        try f.home("d", "D St")
        try f.transaction.deleteObject(f.ana, in: f.people)
        #expect(try f.counts() == (0, 0))
        #expect(try f.transaction.verify().isEmpty)
    }

    @Test func anEmbeddedValueCannotBeLinkedAndADeletedOneLeavesNil() throws {
        let f = try Fixture()
        let address = try f.home("a", "A St")
        #expect(throws: RealmError.self) { try f.transaction.setValue(.object(address), forKey: "b", in: f.homes) }
        #expect(try f.streets() == ["a": "A St"], "the refused write changed nothing")
        try f.transaction.deleteObject(address, in: f.addresses)
        #expect(try f.streets() == ["a": "nil"])
        #expect(try f.counts() == (0, 0))
        // A map of values refuses an embedded object.
        #expect(throws: RealmError.self) { try f.transaction.setEmbeddedObject(forKey: "x", in: ListHandle(owningClass: f.people, owner: f.ana, property: 0)) }
    }

    @Test func deletingEveryOwnerDeletesEveryValue() throws {
        let f = try Fixture()
        try f.home("a", "A St")
        let bea = try f.transaction.createObject(in: f.people, values: [.string("Bea"), .null])
        try f.transaction.setEmbeddedObject(forKey: "x", in: ListHandle(owningClass: f.people, owner: bea, property: 1), values: [.string("X St"), .null])
        try f.transaction.setValue(.null, forKey: "empty", in: f.homes)
        try f.transaction.deleteAllObjects(in: f.people)
        #expect(try f.counts() == (0, 0))
        try f.transaction.commitWrite()
        #expect(try f.transaction.verify().isEmpty)
    }
}
