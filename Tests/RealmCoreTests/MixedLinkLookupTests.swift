import Foundation
import RealmCore
import Testing

/// `mixedLinks(to:ofClass:from:property:)`: where mixed values link to an
/// object, found by the values' index rather than by reading every object.
@Suite struct MixedLinkLookupTests {
    static let schema = Schema([
        ObjectSchema(name: "Holder", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "any", type: .mixed, isOptional: true),
            Property(name: "anyList", type: .mixed, isOptional: true, isList: true),
            Property(name: "bag", type: .mixed, isOptional: true, isSet: true),
            Property(name: "name", type: .string),
        ]),
        ObjectSchema(name: "Dog", properties: [Property(name: "name", type: .string)]),
    ])

    @Test func findsPropertiesAndListRowsThatLinkToAnObject() throws {
        let directory = TemporaryDirectory()
        let transaction = try Coordinator.open(.file(directory.path(), schema: Self.schema)).makeTransaction()
        let (holders, dogs) = (try transaction.classHandle(named: "Holder"), try transaction.classHandle(named: "Dog"))
        let (any, anyList, bag, name) = (1, 2, 3, 4)
        try transaction.beginWrite()
        let rex = try transaction.createObject(in: dogs, values: [.string("Rex")])
        let fido = try transaction.createObject(in: dogs, values: [.string("Fido")])
        let first = try transaction.createObject(in: holders, values: [.int(1)])
        let second = try transaction.createObject(in: holders, values: [.int(2)])
        let link = Value.link(className: "Dog", key: rex)
        try transaction.setValue(link, of: second, property: any, in: holders)
        try transaction.setValue(.link(className: "Dog", key: fido), of: first, property: any, in: holders)
        let list = try transaction.list(anyList, of: first, in: holders)
        for value in [link, .int(Int64(rex.rawValue)), .link(className: "Dog", key: fido), link] { try transaction.append(value, to: list) }
        try transaction.insert(link, intoSet: ListHandle(owningClass: holders, owner: second, property: bag))
        try transaction.commitWrite()

        let properties = try transaction.mixedLinks(to: rex, ofClass: "Dog", from: holders, property: any)
        #expect(properties.map(\.owner) == [second] && properties.allSatisfy { $0.row == nil })
        let rows = try transaction.mixedLinks(to: rex, ofClass: "Dog", from: holders, property: anyList)
        #expect(rows.map(\.owner) == [first, first] && rows.map(\.row) == [0, 3], "the number with the same key is no link")
        #expect(try transaction.mixedLinks(to: rex, ofClass: "Holder", from: holders, property: anyList).isEmpty, "another class's key")
        #expect(try transaction.mixedLinks(to: rex, ofClass: "Dog", from: holders, property: bag).isEmpty, "sets are not looked in")
        #expect(throws: RealmError.self) { try transaction.mixedLinks(to: rex, ofClass: "Dog", from: holders, property: name) }

        try transaction.beginWrite()
        try transaction.deleteObject(rex, in: dogs)
        try transaction.commitWrite()
        #expect(try transaction.mixedLinks(to: rex, ofClass: "Dog", from: holders, property: any).isEmpty)
        #expect(try transaction.mixedLinks(to: rex, ofClass: "Dog", from: holders, property: anyList).isEmpty)
        #expect(try transaction.values(of: list) == [.null, .int(Int64(rex.rawValue)), .link(className: "Dog", key: fido), .null])
    }

    @Test func findsTheElementsOfNestedListsThatLinkToAnObject() throws {
        let directory = TemporaryDirectory()
        let transaction = try Coordinator.open(.file(directory.path(), schema: Self.schema)).makeTransaction()
        let (holders, dogs) = (try transaction.classHandle(named: "Holder"), try transaction.classHandle(named: "Dog"))
        #expect(try transaction.nestedListLinks(to: ObjectKey(1), ofClass: "Dog").isEmpty, "a file without nested collections")
        try transaction.beginWrite()
        let rex = try transaction.createObject(in: dogs, values: [.string("Rex")])
        let holder = try transaction.createObject(in: holders, values: [.int(1)])
        let link = Value.link(className: "Dog", key: rex)
        let outer = try transaction.setNestedCollection(.list, of: holder, property: 1, in: holders)
        try transaction.append(.int(0), to: outer)
        try transaction.append(link, to: outer)
        let inner = try transaction.insertNestedCollection(.list, at: 0, in: outer)
        try transaction.append(link, to: inner)
        try transaction.setValue(link, forKey: "k", in: try transaction.insertNestedCollection(.dictionary, at: 0, in: outer))
        try transaction.commitWrite()

        let found = try transaction.nestedListLinks(to: rex, ofClass: "Dog")
        #expect(Set(found.map { "\($0.list.nested!.key):\($0.row)" }) == ["\(outer.nested!.key):3", "\(inner.nested!.key):0"],
                "the dictionary's value is not looked at")
        #expect(found.allSatisfy { $0.list.owner == holder && $0.list.property == 1 })
        #expect(try transaction.nestedListLinks(to: rex, ofClass: "Holder").isEmpty)
    }
}
