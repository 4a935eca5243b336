import Foundation
import RealmCore
import RealmQuery
import Testing

/// Queries over a class keyed by its int primary key read the key where
/// the primary key is named, and agree with the Swift evaluator.
@Suite struct KeyedByPrimaryKeyQueryTests {
    static let schema = Schema([
        ObjectSchema(name: "Item", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "name", type: .string),
            Property(name: "score", type: .int),
            Property(name: "parent", type: .object, isOptional: true, objectClassName: "Item"),
            Property(name: "children", type: .object, isList: true, objectClassName: "Item"),
        ]),
        ObjectSchema(name: "Note", properties: [
            Property(name: "text", type: .string),
            Property(name: "item", type: .object, isOptional: true, objectClassName: "Item"),
        ]),
    ])

    /// Items created out of id order, negative ids included; every other
    /// one has a parent, and the roots list their children.
    static func populate(_ realm: TestRealm) throws {
        let ids: [Int64] = [5, -2, 9, 0, 3, -7, 12, 1]
        try realm.transaction.write {
            for (position, id) in ids.enumerated() {
                let parent: Value = position % 2 == 1 ? .object(ObjectKey(ids[position - 1])) : .null
                try realm.create("Item", ["id": .int(id), "name": .string("item\(id)"), "score": .int(id * 10 % 7), "parent": parent])
                if case .object(let owner) = parent {
                    try realm.append([.object(ObjectKey(id))], to: "children", of: owner, in: "Item")
                }
            }
            for id in [9, 3, -7] as [Int64] {
                try realm.create("Note", ["text": .string("about \(id)"), "item": .object(ObjectKey(id))])
            }
        }
    }

    @Test func predicatesOnThePrimaryKeyAgreeWithTheEvaluator() throws {
        let realm = try TestRealm(schema: Self.schema)
        try Self.populate(realm)
        #expect(realm.transaction.classesKeyedByPrimaryKey == ["Item"])
        #expect(try realm.bothPaths("Item", "id == 5") == [ObjectKey(5)])
        #expect(try realm.bothPaths("Item", "id IN {1, -2, 40}") == [ObjectKey(-2), ObjectKey(1)])
        #expect(try realm.bothPaths("Item", "id > 0 AND id <= 9") == [1, 3, 5, 9].map(ObjectKey.init))
        #expect(try realm.bothPaths("Item", "id != 0 AND score < 3").count == (try realm.bothPaths("Item", "score < 3 AND NOT id == 0")).count)
        #expect(try realm.bothPaths("Item", "parent.id == 5") == [ObjectKey(-2)])
        #expect(try realm.bothPaths("Item", "parent.id == nil").count == 4)
        #expect(try realm.bothPaths("Item", "ANY children.id < 0") == [ObjectKey(5), ObjectKey(3)].sorted { $0.rawValue < $1.rawValue })
        #expect(try realm.bothPaths("Item", "SUBQUERY(children, $c, $c.id >= 1).@count > 0") == [ObjectKey(12)])
        #expect(try realm.bothPaths("Item", "children.@max.id == 0") == [ObjectKey(9)])
        #expect(try realm.bothPaths("Note", "item.id < 5").count == 2)
        #expect(try realm.bothPaths("Item", "id == %@", [.value(.double(3.0))]) == [ObjectKey(3)])
        #expect(try realm.bothPaths("Item", "id == 3.5").isEmpty)
    }

    @Test func sortsDistinctAndAggregatesReadTheKey() throws {
        let realm = try TestRealm(schema: Self.schema)
        try Self.populate(realm)
        let descending = try realm.keys("Item", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: "id", ascending: false)])
        #expect(descending == [12, 9, 5, 3, 1, 0, -2, -7].map(ObjectKey.init))
        let byParent = try realm.keys("Note", "TRUEPREDICATE", sort: [SortDescriptor(keyPath: "item.id")])
        #expect(try byParent.map { try realm.value("text", of: $0, in: "Note") } == [.string("about -7"), .string("about 3"), .string("about 9")])
        #expect(try realm.keys("Item", "TRUEPREDICATE", distinct: ["id"]).count == 8)
        let all = try realm.query("Item", "TRUEPREDICATE")
        #expect(try all.aggregate(.max, keyPath: "id", in: realm.transaction) == .int(12))
        #expect(try all.aggregate(.min, keyPath: "id", in: realm.transaction) == .int(-7))
        #expect(try all.aggregate(.sum, keyPath: "id", in: realm.transaction) == .int(21))
    }

    @Test func thePrimaryKeyCompilesToTheKey() throws {
        let realm = try TestRealm(schema: Self.schema)
        let keyed = realm.transaction.classesKeyedByPrimaryKey
        let equality = try realm.query("Item", "id == 5").compiledSQL(schema: realm.schema, keyedByPrimaryKey: keyed)
        #expect(equality.sql.contains("_key = ?") && !equality.sql.contains("\"id\""), "\(equality.sql)")
        // Through a link, the link column itself: no join.
        let linked = try realm.query("Note", "item.id == 5").compiledSQL(schema: realm.schema, keyedByPrimaryKey: keyed)
        #expect(!linked.sql.contains("JOIN") && linked.sql.contains("\"item\" = ?"), "\(linked.sql)")
        // Classic layouts (format 1 files) still name the column.
        let classic = try realm.query("Item", "id == 5").compiledSQL(schema: realm.schema)
        #expect(classic.sql.contains("\"id\" = ?"), "\(classic.sql)")
    }

    /// An object deleted and created again with the same primary key has
    /// the same key: maintained matches must not take it for the old one.
    @Test func maintainedMatchesSeeARecreatedObject() throws {
        let realm = try TestRealm(schema: Self.schema)
        try Self.populate(realm)
        let handle = try realm.transaction.classHandle(named: "Item")
        let query = try realm.query("Item", "score >= 0", sort: [SortDescriptor(keyPath: "name")])
        var matches = try #require(try MaintainedMatches(query: query, in: realm.transaction))
        for split in [false, true] {
            let version = try realm.transaction.version
            if split {
                try realm.transaction.write { try realm.transaction.deleteObject(ObjectKey(3), in: handle) }
                try realm.transaction.write { _ = try realm.create("Item", ["id": .int(3), "name": .string("a new three"), "score": .int(1)]) }
            } else {
                try realm.transaction.write {
                    try realm.transaction.deleteObject(ObjectKey(3), in: handle)
                    _ = try realm.create("Item", ["id": .int(3), "name": .string("another three"), "score": .int(1)])
                }
            }
            let changeSets = try #require(try realm.transaction.changeSets(after: version))
            if try matches.update(after: changeSets, in: realm.transaction) == nil {
                matches = try #require(try MaintainedMatches(query: query, in: realm.transaction))
            }
            #expect(matches.keys == (try query.objectKeys(in: realm.transaction)))
            #expect(matches.keys.first == ObjectKey(3), "the new object sorts first by name")
        }
    }
}
