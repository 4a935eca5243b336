import BenchmarkSupport
import GRDB

// The record types, as GRDB's documentation recommends them: Codable
// structs adopting FetchableRecord and PersistableRecord, with a Columns
// enum for the query interface, and a migrator for the schema.

/// The main table: an integer primary key, an unindexed and an indexed
/// string, and an integer.
struct BenchRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "bench"

    var id: Int
    var stringCol: String
    var indexedString: String
    var intCol: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let stringCol = Column(CodingKeys.stringCol)
        static let intCol = Column(CodingKeys.intCol)
    }

    init(_ i: Int) {
        id = i
        stringCol = Dataset.stringCol(i)
        indexedString = Dataset.uniqueString(i)
        intCol = Dataset.intCol(i)
    }
}

/// The table the lookup workloads search.
struct LookupRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "lookup"

    var id: Int
    var indexedString: String
    var unindexedString: String
    var intCol: Int
}

/// Ten integer columns, for the fetch workload (GRDB's own
/// FetchRecordDecodableTests shape).
struct TenIntsRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "tenInts"

    var i0: Int
    var i1: Int
    var i2: Int
    var i3: Int
    var i4: Int
    var i5: Int
    var i6: Int
    var i7: Int
    var i8: Int
    var i9: Int
}

/// The owner of a to-many association ordered by position: how a GRDB
/// user models an ordered list.
struct ListOwnerRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "listOwner"
    static let items = hasMany(ListItemRecord.self).order(ListItemRecord.Columns.position)

    var id: Int

    var items: QueryInterfaceRequest<ListItemRecord> {
        request(for: Self.items)
    }
}

/// An element of the list: its owner, its position, its value.
struct ListItemRecord: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "listItem"

    var id: Int64?
    var listOwnerId: Int
    var position: Int
    var score: Int

    enum Columns {
        static let position = Column(CodingKeys.position)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// The schema, as a GRDB user writes it: one migration.
let migrator: DatabaseMigrator = {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
        try db.create(table: "bench") { t in
            t.primaryKey("id", .integer)
            t.column("stringCol", .text).notNull()
            t.column("indexedString", .text).notNull().indexed()
            t.column("intCol", .integer).notNull()
        }
        try db.create(table: "lookup") { t in
            t.primaryKey("id", .integer)
            t.column("indexedString", .text).notNull().indexed()
            t.column("unindexedString", .text).notNull()
            t.column("intCol", .integer).notNull()
        }
        try db.create(table: "tenInts") { t in
            for k in 0..<10 { t.column("i\(k)", .integer).notNull() }
        }
        try db.create(table: "listOwner") { t in
            t.primaryKey("id", .integer)
        }
        try db.create(table: "listItem") { t in
            t.autoIncrementedPrimaryKey("id")
            // Iterated in order: one index on (owner, position) serves both
            // the foreign key and the ORDER BY.
            t.belongsTo("listOwner", onDelete: .cascade, indexed: false).notNull()
            t.column("position", .integer).notNull()
            t.column("score", .integer).notNull()
        }
        try db.create(indexOn: "listItem", columns: ["listOwnerId", "position"])
    }
    return migrator
}()
