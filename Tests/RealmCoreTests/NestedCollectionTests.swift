import Foundation
import RealmCore
import Testing

/// Lists and dictionaries nested in mixed values: made in their place,
/// read and written through list and map handles, deleted with the value,
/// element or object that holds them, and plain rows for `sqlite3`.
@Suite struct NestedCollectionTests {
    static let schema = Schema([
        ObjectSchema(name: "Box", properties: [
            Property(name: "name", type: .string),
            Property(name: "any", type: .mixed, isOptional: true),
            Property(name: "anyList", type: .mixed, isOptional: true, isList: true),
            Property(name: "anyMap", type: .mixed, isOptional: true, isMap: true),
            Property(name: "anySet", type: .mixed, isOptional: true, isSet: true),
        ]),
        ObjectSchema(name: "Tag", properties: [Property(name: "label", type: .string)]),
    ])

    struct Fixture {
        let directory = TemporaryDirectory()
        let coordinator: Coordinator
        let transaction: Transaction
        let boxes: ClassHandle
        let tags: ClassHandle
        let box: ObjectKey

        init() throws {
            coordinator = try Coordinator.open(.file(directory.path(), schema: NestedCollectionTests.schema))
            transaction = try coordinator.makeTransaction()
            boxes = try transaction.classHandle(named: "Box")
            tags = try transaction.classHandle(named: "Tag")
            try transaction.beginWrite()
            box = try transaction.createObject(in: boxes, values: [.string("a"), .null])
        }

        /// How many nested collections, list elements and entries the file holds.
        func rows() throws -> [Int64] {
            try ["realm_nested_collections", "realm_nested_elements", "realm_nested_entries"].map { table in
                let statement = try transaction.queryStatement("SELECT count(*) FROM \(table)")
                defer { statement.reset() }
                return try statement.step() ? statement.int64(at: 0) : -1
            }
        }
    }

    @Test func aPropertyHoldsNestedListsAndDictionaries() throws {
        let f = try Fixture()
        let list = try f.transaction.setNestedCollection(.list, of: f.box, property: 1, in: f.boxes)
        try f.transaction.append(.int(1), to: list)
        let inner = try f.transaction.insertNestedCollection(.dictionary, at: 1, in: list)
        try f.transaction.setValue(.string("x"), forKey: "k", in: inner)
        try f.transaction.append(.string("last"), to: list)

        guard case .collection(let stored) = try f.transaction.value(of: f.box, property: 1, in: f.boxes) else {
            Issue.record("the property holds no collection"); return
        }
        #expect(stored.kind == .list)
        let found = try #require(try f.transaction.handle(of: stored))
        #expect(found.nested == list.nested && found.owner == f.box && found.property == 1)
        let values = try f.transaction.values(of: list)
        #expect(values.count == 3)
        #expect(values[0] == .int(1) && values[2] == .string("last"))
        guard case .collection(let dictionary) = values[1] else { Issue.record("no nested dictionary"); return }
        #expect(try f.transaction.value(forKey: "k", in: f.transaction.handle(of: dictionary)!) == .string("x"))
        try f.transaction.commitWrite()

        // Another connection reads the same, after the catalog change that
        // made the tables.
        let reader = try f.coordinator.makeTransaction()
        #expect(try reader.values(of: list).count == 3)
    }

    @Test func replacingRemovingOrDeletingDeletesTheTree() throws {
        let f = try Fixture()
        let outer = try f.transaction.setNestedCollection(.dictionary, of: f.box, property: 1, in: f.boxes)
        let inner = try f.transaction.setNestedCollection(.list, forKey: "inner", in: outer)
        try f.transaction.append(.int(1), to: inner)
        #expect(try f.rows() == [2, 1, 1])

        // Another value in the property: the whole tree goes.
        try f.transaction.setValue(.int(5), of: f.box, property: 1, in: f.boxes)
        #expect(try f.rows() == [0, 0, 0])
        #expect(try !f.transaction.nestedCollectionExists(inner))
        #expect(throws: RealmError.self) { try f.transaction.append(.int(2), to: inner) }

        // An element of a list of mixed values.
        let anyList = ListHandle(owningClass: f.boxes, owner: f.box, property: 2)
        let element = try f.transaction.insertNestedCollection(.list, at: 0, in: anyList)
        try f.transaction.append(.int(1), to: element)
        try f.transaction.replace(at: 0, with: .string("plain"), in: anyList)
        #expect(try f.rows() == [0, 0, 0])
        _ = try f.transaction.insertNestedCollection(.list, at: 0, in: anyList)
        try f.transaction.remove(at: 0, from: anyList)
        #expect(try f.rows() == [0, 0, 0])
        _ = try f.transaction.insertNestedCollection(.dictionary, at: 0, in: anyList)
        try f.transaction.removeAll(from: anyList)
        #expect(try f.rows() == [0, 0, 0])

        // A map value, removed, replaced and cleared.
        let anyMap = ListHandle(owningClass: f.boxes, owner: f.box, property: 3)
        _ = try f.transaction.setNestedCollection(.list, forKey: "a", in: anyMap)
        try f.transaction.removeValue(forKey: "a", from: anyMap)
        _ = try f.transaction.setNestedCollection(.list, forKey: "a", in: anyMap)
        _ = try f.transaction.setNestedCollection(.dictionary, forKey: "a", in: anyMap)
        #expect(try f.rows()[0] == 1)
        try f.transaction.removeAll(fromMap: anyMap)
        #expect(try f.rows() == [0, 0, 0])

        // The object.
        let again = try f.transaction.setNestedCollection(.list, of: f.box, property: 1, in: f.boxes)
        _ = try f.transaction.insertNestedCollection(.list, at: 0, in: again)
        _ = try f.transaction.insertNestedCollection(.dictionary, at: 0, in: anyList)
        try f.transaction.deleteObject(f.box, in: f.boxes)
        #expect(try f.rows() == [0, 0, 0])
    }

    @Test func movingWithinANestedListKeepsItsCollections() throws {
        let f = try Fixture()
        let list = try f.transaction.setNestedCollection(.list, of: f.box, property: 1, in: f.boxes)
        let inner = try f.transaction.insertNestedCollection(.list, at: 0, in: list)
        try f.transaction.append(.int(7), to: inner)
        try f.transaction.append(.int(1), to: list)
        try f.transaction.append(.int(2), to: list)
        try f.transaction.move(from: 0, to: 2, in: list)
        try f.transaction.swapAt(0, 2, in: list)
        #expect(try f.rows() == [2, 4, 0])
        #expect(try f.transaction.values(of: inner) == [.int(7)])
    }

    @Test func aDeletedObjectLeavesNilInNestedCollections() throws {
        let f = try Fixture()
        let tag = try f.transaction.createObject(in: f.tags, values: [.string("t")])
        let dictionary = try f.transaction.setNestedCollection(.dictionary, of: f.box, property: 1, in: f.boxes)
        let list = try f.transaction.setNestedCollection(.list, forKey: "list", in: dictionary)
        try f.transaction.append(.link(className: "Tag", key: tag), to: list)
        try f.transaction.setValue(.link(className: "Tag", key: tag), forKey: "tag", in: dictionary)
        try f.transaction.deleteObject(tag, in: f.tags)
        #expect(try f.transaction.values(of: list) == [.null])
        #expect(try f.transaction.value(forKey: "tag", in: dictionary) == .null)
        // Deleting an object looks for links to it by value, through an
        // index, not by scanning every element of every nested collection.
        for table in ["realm_nested_elements", "realm_nested_entries"] {
            let plan = try f.transaction.queryStatement("EXPLAIN QUERY PLAN UPDATE \(table) SET value = NULL WHERE value = ?")
            defer { plan.reset() }
            var details: [String] = []
            while try plan.step() { details.append(plan.string(at: 3)) }
            #expect(details.contains { $0.contains("USING INDEX \(table)_by_value") || $0.contains("USING COVERING INDEX \(table)_by_value") }, "\(details)")
        }
    }

    @Test func nestedCollectionsAreRefusedWhereTheyCannotBe() throws {
        let f = try Fixture()
        // Not a mixed property, a set, or written as a value.
        #expect(throws: RealmError.self) { try f.transaction.setNestedCollection(.list, of: f.box, property: 0, in: f.boxes) }
        let anySet = ListHandle(owningClass: f.boxes, owner: f.box, property: 4)
        #expect(throws: RealmError.self) { try f.transaction.setNestedCollection(.list, forKey: "a", in: anySet) }
        let list = try f.transaction.setNestedCollection(.list, of: f.box, property: 1, in: f.boxes)
        #expect(throws: RealmError.self) { try f.transaction.setValue(.collection(list.nested!), of: f.box, property: 1, in: f.boxes) }
        #expect(throws: RealmError.self) { try f.transaction.insert(.collection(list.nested!), intoSet: anySet) }
        // The wrong kind.
        #expect(throws: RealmError.self) { try f.transaction.setValue(.int(1), forKey: "a", in: list) }
        #expect(try f.rows()[0] == 1)
    }

    /// Realm's limit: collections nest at most 100 levels deep, counting
    /// an object's own collections as level 1 (a list property's nested
    /// collections start at 2).
    @Test func collectionsNestAtMostAHundredLevelsDeep() throws {
        let f = try Fixture()
        var deepest = try f.transaction.setNestedCollection(.list, of: f.box, property: 1, in: f.boxes)
        for _ in 2...NestedCollectionTests.maximumLevel { deepest = try f.transaction.insertNestedCollection(.list, at: 0, in: deepest) }
        let error = #expect(throws: RealmError.self) { try f.transaction.insertNestedCollection(.dictionary, at: 0, in: deepest) }
        #expect(error?.kind == .valueTooLarge && error?.message.contains("level 101") == true, "\(String(describing: error))")
        // The failed insertion left nothing behind; the level below takes more.
        #expect(try f.transaction.count(of: deepest) == 0)
        try f.transaction.append(.int(1), to: deepest)

        var inList = try f.transaction.insertNestedCollection(.list, at: 0, in: try f.transaction.list(2, of: f.box, in: f.boxes))
        for _ in 3...NestedCollectionTests.maximumLevel { inList = try f.transaction.insertNestedCollection(.list, at: 0, in: inList) }
        #expect(throws: RealmError.self) { try f.transaction.insertNestedCollection(.list, at: 0, in: inList) }
    }

    static let maximumLevel = 100

    @Test func removingAMixedPropertyInAMigrationDeletesItsCollections() throws {
        let f = try Fixture()
        _ = try f.transaction.setNestedCollection(.list, of: f.box, property: 1, in: f.boxes)
        var changed = Self.schema
        changed.upsert(ObjectSchema(name: "Box", properties: Self.schema["Box"]!.properties.filter { $0.name != "any" }))
        try f.transaction.applySchema(changed, schemaVersion: 1)
        #expect(try f.rows() == [0, 0, 0])
    }
}
