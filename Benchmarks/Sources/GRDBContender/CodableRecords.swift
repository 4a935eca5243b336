import BenchmarkSupport
import GRDB

// The record types of the `grdb-codable` contender, as GRDB's
// documentation introduces them: Codable structs adopting FetchableRecord
// and PersistableRecord, with a Columns enum for the query interface.

/// The main table: an integer primary key, an unindexed and an indexed
/// string, and an integer.
struct CodableBenchRecord: Codable, FetchableRecord, PersistableRecord {
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
struct CodableLookupRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "lookup"

    var id: Int
    var indexedString: String
    var unindexedString: String
    var intCol: Int
}

/// Ten integer columns, for the fetch workload (GRDB's own
/// FetchRecordDecodableTests shape).
struct CodableTenIntsRecord: Codable, FetchableRecord, PersistableRecord {
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
struct CodableListOwnerRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "listOwner"
    static let items = hasMany(CodableListItemRecord.self).order(CodableListItemRecord.Columns.position)

    var id: Int

    var items: QueryInterfaceRequest<CodableListItemRecord> {
        request(for: Self.items)
    }
}

/// An element of the list: its owner, its position, its value.
struct CodableListItemRecord: Codable, FetchableRecord, MutablePersistableRecord {
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
