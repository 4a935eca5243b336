import Foundation
@testable import RealmCore
import Testing

/// Classes with a required int primary key keep it as their objects' key:
/// no column and no index of its own. Links, lists, change sets and schema
/// changes must all work with keys that are any Int64, and with a key that
/// comes back after its object was deleted.
@Suite struct KeyedByPrimaryKeyTests {
    static let item = ObjectSchema(name: "Item", properties: [
        Property(name: "id", type: .int, isPrimaryKey: true),
        Property(name: "name", type: .string),
        Property(name: "parent", type: .object, isOptional: true, objectClassName: "Item"),
        Property(name: "children", type: .object, isList: true, objectClassName: "Item"),
    ])
    static let others = [
        ObjectSchema(name: "Tag", properties: [
            Property(name: "code", type: .string, isPrimaryKey: true),
            Property(name: "item", type: .object, isOptional: true, objectClassName: "Item"),
        ]),
        ObjectSchema(name: "Counter", properties: [
            Property(name: "id", type: .int, isOptional: true, isPrimaryKey: true),
        ]),
    ]
    static let schema = Schema([item] + others)

    static func open(_ directory: TemporaryDirectory, schema: Schema = schema, version: UInt64 = 0,
                     migration: (@Sendable (MigrationContext) throws -> Void)? = nil) throws -> Transaction {
        let configuration = Coordinator.Configuration(
            location: .file(directory.path()), schema: schema, schemaVersion: version, migration: migration)
        return try Coordinator.open(configuration).makeTransaction()
    }

    /// The SQL SQLite stores for a table or index, nil when there is none.
    static func storedSQL(_ directory: TemporaryDirectory, _ name: String) throws -> String? {
        let connection = try Connection(path: directory.path(), readOnly: true)
        let statement = try connection.prepare("SELECT sql FROM sqlite_schema WHERE name = ?")
        statement.bind(name, at: 1)
        defer { statement.reset() }
        return try statement.step() ? statement.string(at: 0) : nil
    }

    func item(_ id: Int64, _ name: String, parent: ObjectKey? = nil) -> [Value] {
        [.int(id), .string(name), parent.map { .object($0) } ?? .null]
    }

    /// A file with items 7 ("seven") and 3 ("three", whose parent is 7).
    func makeSevenAndThree(in directory: TemporaryDirectory) throws {
        let transaction = try Self.open(directory)
        let items = try transaction.classHandle(named: "Item")
        try transaction.write {
            try transaction.createObject(in: items, values: item(7, "seven"))
            try transaction.createObject(in: items, values: item(3, "three", parent: ObjectKey(7)))
        }
    }

    @Test func onlyRequiredIntPrimaryKeysKeyTheirObjects() throws {
        let directory = TemporaryDirectory()
        let transaction = try Self.open(directory)
        #expect(transaction.classesKeyedByPrimaryKey == ["Item"])
        let table = try #require(try Self.storedSQL(directory, "class_Item"))
        #expect(!table.contains("\"id\""), "the primary key is the rowid: \(table)")
        #expect(try Self.storedSQL(directory, "index_class_Item.id") == nil)
        // A string or optional primary key keeps its column and unique index.
        #expect(try Self.storedSQL(directory, "index_class_Tag.code")?.contains("UNIQUE") == true)
        #expect(try Self.storedSQL(directory, "index_class_Counter.id")?.contains("UNIQUE") == true)
    }

    @Test func keysAreThePrimaryKeysOverTheWholeInt64Range() throws {
        let directory = TemporaryDirectory()
        let transaction = try Self.open(directory)
        let items = try transaction.classHandle(named: "Item")
        let ids: [Int64] = [7, 0, -3, .max, .min, 8]
        try transaction.write {
            for id in ids {
                let key = try transaction.createObject(in: items, values: item(id, "item \(id)"))
                #expect(key == ObjectKey(id))
            }
        }
        #expect(try transaction.objectKeys(in: items) == ids.sorted().map(ObjectKey.init))
        for id in ids {
            #expect(try transaction.object(withPrimaryKey: .int(id), in: items) == ObjectKey(id))
            #expect(try transaction.value(of: ObjectKey(id), property: 0, in: items) == .int(id))
            #expect(try transaction.values(of: ObjectKey(id), in: items)[1] == .string("item \(id)"))
        }
        #expect(try transaction.object(withPrimaryKey: .int(9), in: items) == nil)

        // The change set, and the history it is stored in, hold every key.
        let changes = try #require(try transaction.changeSets(after: transaction.version - 1)?.last?.classes["Item"])
        #expect(Set(changes.insertions) == Set(ids.map(ObjectKey.init)))
        let decoded = try #require(ChangeSetEncoding.decode(ChangeSetEncoding.encode(
            ChangeSet(version: 2, classes: ["Item": changes]))))
        #expect(decoded.classes["Item"] == changes)
    }

    @Test func aTakenPrimaryKeyIsRefusedAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        let transaction = try Self.open(directory)
        let items = try transaction.classHandle(named: "Item")
        try transaction.write { try transaction.createObject(in: items, values: item(1, "first")) }
        try transaction.beginWrite()
        let error = #expect(throws: RealmError.self) { try transaction.createObject(in: items, values: item(1, "second")) }
        #expect(error?.kind == .duplicatePrimaryKey)
        #expect(error?.message.contains("Item") == true)
        // The write goes on.
        try transaction.createObject(in: items, values: item(2, "second"))
        try transaction.commitWrite()
        #expect(try transaction.objectKeys(in: items) == [ObjectKey(1), ObjectKey(2)])
        #expect(try transaction.values(of: ObjectKey(1), in: items)[1] == .string("first"))
    }

    @Test func primaryKeysCannotChangeOutsideAMigration() throws {
        let directory = TemporaryDirectory()
        let transaction = try Self.open(directory)
        let items = try transaction.classHandle(named: "Item")
        try transaction.write { try transaction.createObject(in: items, values: item(1, "first")) }
        try transaction.beginWrite()
        let error = #expect(throws: RealmError.self) { try transaction.setValue(.int(2), of: ObjectKey(1), property: 0, in: items) }
        #expect(error?.message.contains("cannot be changed") == true)
        // Setting the same value is allowed, as for other primary keys.
        try transaction.setValue(.int(1), of: ObjectKey(1), property: 0, in: items)
        transaction.cancelWrite()
    }

    @Test func aDeletedObjectsPrimaryKeyCanBeUsedAgain() throws {
        let directory = TemporaryDirectory()
        let transaction = try Self.open(directory)
        let items = try transaction.classHandle(named: "Item")
        let tags = try transaction.classHandle(named: "Tag")
        try transaction.write {
            try transaction.createObject(in: items, values: item(5, "old"))
            try transaction.createObject(in: tags, values: [.string("a"), .object(ObjectKey(5))])
        }
        try transaction.write {
            try transaction.deleteObject(ObjectKey(5), in: items)
            try transaction.createObject(in: items, values: item(5, "new"))
        }
        let changes = try #require(try transaction.changeSets(after: transaction.version - 1)?.last?.classes["Item"])
        // Recorded as what happened: the old object went, a new one came.
        #expect(changes.deletions.contains(ObjectKey(5)))
        #expect(changes.insertions.contains(ObjectKey(5)))
        #expect(try transaction.values(of: ObjectKey(5), in: items)[1] == .string("new"))
        // The link to the deleted object was cleared, and stays cleared.
        let tag = try #require(try transaction.object(withPrimaryKey: .string("a"), in: tags))
        #expect(try transaction.value(of: tag, property: 1, in: tags) == .null)
    }

    @Test func linksAndListsHoldPrimaryKeys() throws {
        let directory = TemporaryDirectory()
        let transaction = try Self.open(directory)
        let items = try transaction.classHandle(named: "Item")
        try transaction.write {
            try transaction.createObject(in: items, values: item(-1, "root"))
            try transaction.createObject(in: items, values: item(10, "child", parent: ObjectKey(-1)))
            let children = try transaction.list(3, of: ObjectKey(-1), in: items)
            try transaction.append(.object(ObjectKey(10)), to: children)
        }
        #expect(try transaction.value(of: ObjectKey(10), property: 2, in: items) == .object(ObjectKey(-1)))
        #expect(try transaction.values(of: transaction.list(3, of: ObjectKey(-1), in: items)) == [.object(ObjectKey(10))])
        try transaction.write { try transaction.deleteObject(ObjectKey(-1), in: items) }
        #expect(try transaction.value(of: ObjectKey(10), property: 2, in: items) == .null)
    }

    /// A migration that changes primary-key values first gives the class a
    /// separate key, so that links and lists, which hold keys, stay right.
    @Test func changingPrimaryKeysInAMigrationKeepsObjectKeys() throws {
        let directory = TemporaryDirectory()
        do {
            let transaction = try Self.open(directory)
            let items = try transaction.classHandle(named: "Item")
            try transaction.write {
                try transaction.createObject(in: items, values: item(1, "root"))
                try transaction.createObject(in: items, values: item(2, "child", parent: ObjectKey(1)))
                try transaction.append(.object(ObjectKey(2)), to: transaction.list(3, of: ObjectKey(1), in: items))
            }
        }
        // A schema change, for the migration to run.
        var changed = Self.item
        changed.properties.append(Property(name: "note", type: .string))
        let transaction = try Self.open(directory, schema: Schema([changed] + Self.others), version: 1) { migration in
            let items = try migration.transaction.classHandle(named: "Item")
            // Swapping the two ids: the second write would collide with a
            // unique key at once, so go through a free value.
            try migration.transaction.setValue(.int(100), of: ObjectKey(1), property: 0, in: items)
            try migration.transaction.setValue(.int(1), of: ObjectKey(2), property: 0, in: items)
            try migration.transaction.setValue(.int(2), of: ObjectKey(1), property: 0, in: items)
        }
        let items = try transaction.classHandle(named: "Item")
        #expect(transaction.classesKeyedByPrimaryKey.isEmpty)
        #expect(try Self.storedSQL(directory, "index_class_Item.id")?.contains("UNIQUE") == true)
        let root = try #require(try transaction.object(withPrimaryKey: .int(2), in: items))
        let child = try #require(try transaction.object(withPrimaryKey: .int(1), in: items))
        #expect(root == ObjectKey(1) && child == ObjectKey(2))
        #expect(try transaction.values(of: root, in: items)[1] == .string("root"))
        #expect(try transaction.value(of: child, property: 2, in: items) == .object(root))
        #expect(try transaction.values(of: transaction.list(3, of: root, in: items)) == [.object(child)])
        // New objects get keys past every existing one.
        try transaction.write {
            let key = try transaction.createObject(in: items, values: item(50, "new"))
            #expect(key == ObjectKey(3))
        }
    }

    @Test func schemaChangesToThePrimaryKeyKeepObjectKeys() throws {
        let directory = TemporaryDirectory()
        try makeSevenAndThree(in: directory)
        // The primary key moves to `name`; `id` stays as a plain property.
        var changed = Self.item
        changed.properties[0] = Property(name: "id", type: .int)
        changed.properties[1] = Property(name: "name", type: .string, isPrimaryKey: true)
        let transaction = try Self.open(directory, schema: Schema([changed] + Self.others), version: 1) { _ in }
        let items = try transaction.classHandle(named: "Item")
        #expect(transaction.classesKeyedByPrimaryKey.isEmpty)
        let three = try #require(try transaction.object(withPrimaryKey: .string("three"), in: items))
        #expect(three == ObjectKey(3))
        #expect(try transaction.values(of: three, in: items)[0] == .int(3))
        #expect(try transaction.value(of: three, property: 2, in: items) == .object(ObjectKey(7)))
        #expect(try Self.storedSQL(directory, "index_class_Item.id") == nil)
    }

    /// A new primary key's values all start at zero; its uniqueness is
    /// checked once the migration has set them.
    @Test func renamingThePrimaryKeyInAMigration() throws {
        let directory = TemporaryDirectory()
        try makeSevenAndThree(in: directory)
        var renamed = Self.item
        renamed.properties[0] = Property(name: "identifier", type: .int, isPrimaryKey: true)
        let transaction = try Self.open(directory, schema: Schema([renamed] + Self.others), version: 1) { migration in
            let oldItems = try migration.oldTransaction.classHandle(named: "Item")
            let newItems = try migration.transaction.classHandle(named: "Item")
            for key in try migration.oldTransaction.objectKeys(in: oldItems) {
                let id = try migration.oldTransaction.value(of: key, property: 0, in: oldItems)
                try migration.transaction.setValue(id, of: key, property: 0, in: newItems)
            }
        }
        let items = try transaction.classHandle(named: "Item")
        let three = try #require(try transaction.object(withPrimaryKey: .int(3), in: items))
        #expect(try transaction.value(of: three, property: 2, in: items) == .object(try #require(try transaction.object(withPrimaryKey: .int(7), in: items))))
        #expect(try Self.storedSQL(directory, "index_class_Item.identifier")?.contains("UNIQUE") == true)
    }

    @Test func aMigrationThatLeavesDuplicatePrimaryKeysChangesNothing() throws {
        let directory = TemporaryDirectory()
        let plain = ObjectSchema(name: "Plain", properties: [Property(name: "name", type: .string)])
        do {
            let transaction = try Self.open(directory, schema: Schema([plain]))
            let plains = try transaction.classHandle(named: "Plain")
            try transaction.write {
                for name in ["a", "b", "c"] { try transaction.createObject(in: plains, values: [.string(name)]) }
            }
        }
        var keyed = plain
        keyed.properties.append(Property(name: "code", type: .int, isPrimaryKey: true))
        // Without setting the codes, all three are 0.
        let error = #expect(throws: RealmError.self) { _ = try Self.open(directory, schema: Schema([keyed]), version: 1) { _ in } }
        #expect(error?.kind == .duplicatePrimaryKey)
        #expect(error?.message.contains("'Plain.code'") == true)
        #expect(try Self.open(directory, schema: Schema([plain])).schemaVersion == 0)

        // Setting distinct codes makes the migration succeed.
        let transaction = try Self.open(directory, schema: Schema([keyed]), version: 1) { migration in
            let plains = try migration.transaction.classHandle(named: "Plain")
            for (index, key) in try migration.transaction.objectKeys(in: plains).enumerated() {
                try migration.transaction.setValue(.int(Int64(index * 10)), of: key, property: 1, in: plains)
            }
        }
        let plains = try transaction.classHandle(named: "Plain")
        #expect(try transaction.object(withPrimaryKey: .int(20), in: plains) != nil)
        #expect(try Self.storedSQL(directory, "index_class_Plain.code")?.contains("UNIQUE") == true)
    }

    @Test func removingThePrimaryKeyPropertyKeepsObjects() throws {
        let directory = TemporaryDirectory()
        do {
            let transaction = try Self.open(directory)
            let items = try transaction.classHandle(named: "Item")
            try transaction.write { try transaction.createObject(in: items, values: item(42, "answer")) }
        }
        var changed = Self.item
        changed.properties.remove(at: 0)
        let transaction = try Self.open(directory, schema: Schema([changed] + Self.others), version: 1) { _ in }
        let items = try transaction.classHandle(named: "Item")
        #expect(try transaction.objectKeys(in: items) == [ObjectKey(42)])
        #expect(try transaction.values(of: ObjectKey(42), in: items)[0] == .string("answer"))
    }

    /// Files of format 1 have no place to record the layout: their classes,
    /// new ones included, keep a separate key.
    @Test func formatOneFilesKeepSeparateKeys() throws {
        let directory = TemporaryDirectory()
        _ = try Self.open(directory, schema: Schema([]))
        let connection = try Connection(path: directory.path(), readOnly: false)
        try connection.execute("""
            ALTER TABLE realm_classes DROP COLUMN keyed_by_primary_key;
            UPDATE realm_metadata SET format_version = 1;
            """)
        let transaction = try Self.open(directory)
        #expect(transaction.classesKeyedByPrimaryKey.isEmpty)
        #expect(try Self.storedSQL(directory, "class_Item")?.contains("\"id\"") == true)
        let items = try transaction.classHandle(named: "Item")
        let keys = try transaction.write {
            [try transaction.createObject(in: items, values: item(40, "a")), try transaction.createObject(in: items, values: item(30, "b"))]
        }
        #expect(keys == [ObjectKey(1), ObjectKey(2)])
        #expect(try transaction.object(withPrimaryKey: .int(30), in: items) == ObjectKey(2))
    }

    @Test func keySetsHoldTheExtremes() {
        var keys = KeySet([ObjectKey(.max), ObjectKey(.min), ObjectKey(.max - 1), ObjectKey(.min + 1), ObjectKey(0)])
        #expect(keys.ranges == [Int64.min...(Int64.min + 1), 0...0, (Int64.max - 1)...Int64.max])
        keys.insert(ObjectKey(.max))
        keys.insert(ObjectKey(-1))
        #expect(keys.ranges == [Int64.min...(Int64.min + 1), -1...0, (Int64.max - 1)...Int64.max])
        let removedMinimum = keys.remove(ObjectKey(.min))
        let removedMaximum = keys.remove(ObjectKey(.max))
        #expect(removedMinimum && removedMaximum)
        #expect(keys.ranges == [(Int64.min + 1)...(Int64.min + 1), -1...0, (Int64.max - 1)...(Int64.max - 1)])
        #expect(keys.contains(ObjectKey(.min + 1)) && !keys.contains(ObjectKey(.min)))
    }

    @Test func keySetIntersectionsAndUnionsWorkOnRanges() {
        let inserted = KeySet((1...10).map(ObjectKey.init) + (20...30).map(ObjectKey.init) + [ObjectKey(.max)])
        let deleted = KeySet((5...22).map(ObjectKey.init) + [ObjectKey(-3), ObjectKey(.max)])
        let both = inserted.intersection(deleted)
        #expect(both.ranges == [5...10, 20...22, Int64.max...Int64.max])
        #expect(Set(both) == Set(inserted).intersection(Set(deleted)))
        #expect(KeySet().intersection(deleted).isEmpty && deleted.intersection(KeySet()).isEmpty)

        var union = KeySet()
        union.formUnion(both)
        #expect(union == both)
        union.formUnion(KeySet([ObjectKey(11), ObjectKey(-3)]))
        #expect(union.ranges == [-3...(-3), 5...11, 20...22, Int64.max...Int64.max])
    }
}
