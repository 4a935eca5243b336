import Foundation
import RealmCore
import RealmQuery
import Testing

/// Queries over the elements of a list (in list order, duplicates kept) and
/// over linking objects (once per link), as `List` and `LinkingObjects`
/// filter, sort and aggregate them.
@Suite struct SourceTests {
    let realm: TestRealm
    let keys: Zoo.Keys

    init() throws {
        realm = try TestRealm(schema: Zoo.schema)
        keys = try Zoo.populate(realm)
    }

    private var acmeEmployees: Query.Source {
        .list(ownerClass: "Company", property: "employees", owner: keys.companies["Acme"]!)
    }

    private func people(_ format: String = "TRUEPREDICATE", source: Query.Source, sort: [SortDescriptor] = [],
                        distinct: [String] = [], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String] {
        try realm.bothPaths(realm.query("Person", format, sort: sort, distinct: distinct, source: source), sourceLocation: sourceLocation)
            .names(in: keys.people)
    }

    @Test func listElementsInListOrder() throws {
        #expect(try people(source: acmeEmployees) == ["Jack", "Jane", "Lisa", "Joe", "Émile", "Jack"])
        #expect(try people("age > 30", source: acmeEmployees) == ["Jack", "Lisa", "Émile", "Jack"])
        #expect(try people("name BEGINSWITH[d] 'E'", source: acmeEmployees) == ["Émile"])
        #expect(try people(source: acmeEmployees, sort: [SortDescriptor(keyPath: "name")]) == ["Jack", "Jack", "Jane", "Joe", "Lisa", "Émile"])
        #expect(try people(source: acmeEmployees, sort: [SortDescriptor(keyPath: "age", ascending: false)]) == ["Émile", "Lisa", "Jack", "Jack", "Jane", "Joe"])
        #expect(try people(source: acmeEmployees, distinct: ["name"]) == ["Jack", "Jane", "Lisa", "Joe", "Émile"])
        #expect(try people("ANY dogs.color == 'tan'", source: acmeEmployees) == ["Jack", "Lisa", "Jack"])
        #expect(try people(source: .list(ownerClass: "Company", property: "employees", owner: keys.companies["Initech"]!)).isEmpty)
        let query = try realm.query("Person", "age > 30", source: acmeEmployees)
        #expect(try query.count(in: realm.transaction) == 4)
        #expect(try query.aggregate(.sum, keyPath: "age", in: realm.transaction) == .int(32 + 45 + 51 + 32))
        #expect(try query.aggregate(.min, keyPath: "dog.age", in: realm.transaction) == .int(3))
    }

    @Test func listOrderFollowsMoves() throws {
        let jack = keys.people["Jack"]!
        let dogs = Query.Source.list(ownerClass: "Person", property: "dogs", owner: jack)
        #expect(try realm.bothPaths(realm.query("Dog", "TRUEPREDICATE", source: dogs)).names(in: keys.dogs) == ["Bella", "Rex"])
        try realm.transaction.write {
            let handle = try realm.transaction.classHandle(named: "Person")
            let list = try realm.transaction.list(realm.transaction.propertyIndex(named: "dogs", in: handle), of: jack, in: handle)
            try realm.transaction.insert(.object(keys.dogs["Hachi"]!), at: 0, in: list)
            try realm.transaction.move(from: 2, to: 1, in: list)
        }
        #expect(try realm.bothPaths(realm.query("Dog", "TRUEPREDICATE", source: dogs)).names(in: keys.dogs) == ["Hachi", "Rex", "Bella"])
        #expect(try realm.bothPaths(realm.query("Dog", "age > 4", source: dogs)).names(in: keys.dogs) == ["Hachi", "Rex"])
    }

    @Test func linkingObjects() throws {
        let owners = { (dog: String) in Query.Source.linkingObjects(sourceProperty: "dogs", target: self.keys.dogs[dog]!) }
        #expect(try people(source: owners("Bella")) == ["Jack"])
        #expect(try people(source: owners("Rex")) == ["Jack", "Émile"])
        #expect(try people("age > 40", source: owners("Rex")) == ["Émile"])
        #expect(try people(source: owners("Buster")).isEmpty)
        // Once per link: Acme lists Jack twice.
        let employers = Query.Source.linkingObjects(sourceProperty: "employees", target: keys.people["Jack"]!)
        #expect(try realm.bothPaths(realm.query("Company", "TRUEPREDICATE", source: employers)).names(in: keys.companies) == ["Acme", "Acme"])
        let owned = Query.Source.linkingObjects(sourceProperty: "owner", target: keys.people["Jack"]!)
        #expect(try realm.bothPaths(realm.query("Dog", "TRUEPREDICATE", source: owned)).names(in: keys.dogs) == ["Bella", "Rex"])
        let sorted = try realm.query("Dog", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: "age", ascending: false)], source: owned)
        #expect(try sorted.objectKeys(in: realm.transaction).names(in: keys.dogs) == ["Rex", "Bella"])
        #expect(try sorted.aggregate(.average, keyPath: "age", in: realm.transaction) == .double(4))
        #expect(try realm.query("Dog", "name CONTAINS[d] 'e'", source: owned).count(in: realm.transaction) == 2)
    }

    @Test func embeddedObjectsThroughTheirParent() throws {
        let schema = Schema([
            ObjectSchema(name: "Parent", properties: [
                Property(name: "name", type: .string),
                Property(name: "children", type: .object, isList: true, objectClassName: "Child"),
                Property(name: "favorite", type: .object, isOptional: true, objectClassName: "Child"),
            ]),
            ObjectSchema(name: "Child", properties: [Property(name: "name", type: .string), Property(name: "age", type: .int)],
                         isEmbedded: true),
        ])
        let realm = try TestRealm(schema: schema)
        let parent = try realm.transaction.write { () throws -> ObjectKey in
            let parent = try realm.create("Parent", ["name": .string("Ann")])
            let handle = try realm.transaction.classHandle(named: "Parent")
            let list = try realm.transaction.list(1, of: parent, in: handle)
            for (name, age) in [("Émile", 7), ("Zoé", 3), ("Max", 12)] {
                try realm.transaction.appendEmbeddedObject(to: list, values: [.string(name), .int(Int64(age))])
            }
            try realm.transaction.createEmbeddedObject(in: handle, owner: parent, property: 2, values: [.string("Zoé"), .int(3)])
            return parent
        }
        let children = Query.Source.list(ownerClass: "Parent", property: "children", owner: parent)
        #expect(try realm.names("Child", "age > 5", source: children) == ["Émile", "Max"])
        #expect(try realm.names("Child", "name ENDSWITH[d] 'e'", source: children) == ["Émile", "Zoé"])
        #expect(try realm.names("Child", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: "age")], source: children) == ["Zoé", "Émile", "Max"])
        try realm.bothPaths(realm.query("Child", "name ENDSWITH[d] 'e'", source: children))
        #expect(try realm.names("Parent", "ANY children.age > 10 AND favorite.name ==[cd] 'ZOE'") == ["Ann"])
        #expect(try realm.names("Parent", "children.@avg.age > 7") == ["Ann"])
    }
}
