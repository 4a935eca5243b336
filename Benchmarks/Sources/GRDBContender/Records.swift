import BenchmarkSupport
import GRDB

// The record types of the `grdb` contender, written the way GRDB's own
// performance tests make records fast (GRDB 7.10.0,
// Tests/Performance/GRDBPerformance/FetchRecordOptimizedTests.swift and
// InsertRecordOptimizedTests.swift):
//
// - `init(row:)` by hand, reading columns by index, not by name and not
//   through `Decodable`;
// - `databaseSelection` naming the record's columns, in the order
//   `init(row:)` reads them, so the query interface selects exactly those;
// - inserts through one prepared statement, bound with
//   `setUncheckedArguments`, and executed once per record.
//
// Each record holds every property of its Realm counterpart, so that both
// sides materialize the same object.

/// The main table: an integer primary key, an unindexed and an indexed
/// string, and an integer.
struct BenchRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "bench"
    static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("stringCol"), Column("indexedString"), Column("intCol")] }
    static let insertSQL = "INSERT INTO bench (id, stringCol, indexedString, intCol) VALUES (?, ?, ?, ?)"

    enum Columns {
        static let id = Column("id")
        static let stringCol = Column("stringCol")
        static let intCol = Column("intCol")
    }

    var id: Int
    var stringCol: String
    var indexedString: String
    var intCol: Int

    init(row: Row) {
        id = row[0]
        stringCol = row[1]
        indexedString = row[2]
        intCol = row[3]
    }

    init(_ i: Int) {
        id = i
        stringCol = Dataset.stringCol(i)
        indexedString = Dataset.uniqueString(i)
        intCol = Dataset.intCol(i)
    }

    /// Inserts the record with `statement`, prepared from ``insertSQL``.
    func insert(with statement: Statement) throws {
        statement.setUncheckedArguments([id, stringCol, indexedString, intCol])
        try statement.execute()
    }
}

/// The table the lookup workloads search.
struct LookupRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "lookup"
    static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("indexedString"), Column("unindexedString"), Column("intCol")] }
    static let insertSQL = "INSERT INTO lookup (id, indexedString, unindexedString, intCol) VALUES (?, ?, ?, ?)"

    var id: Int
    var indexedString: String
    var unindexedString: String
    var intCol: Int

    init(row: Row) {
        id = row[0]
        indexedString = row[1]
        unindexedString = row[2]
        intCol = row[3]
    }

    init(_ i: Int) {
        id = i
        indexedString = Dataset.uniqueString(i)
        unindexedString = Dataset.uniqueString(i)
        intCol = Dataset.intCol(i)
    }

    func insert(with statement: Statement) throws {
        statement.setUncheckedArguments([id, indexedString, unindexedString, intCol])
        try statement.execute()
    }
}

/// Ten integer columns: the record of GRDB's FetchRecordOptimizedTests.
struct TenIntsRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "tenInts"
    static var databaseSelection: [any SQLSelectable] { (0..<10).map { Column("i\($0)") } }
    static let insertSQL = "INSERT INTO tenInts (i0, i1, i2, i3, i4, i5, i6, i7, i8, i9) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

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

    init(row: Row) {
        i0 = row[0]
        i1 = row[1]
        i2 = row[2]
        i3 = row[3]
        i4 = row[4]
        i5 = row[5]
        i6 = row[6]
        i7 = row[7]
        i8 = row[8]
        i9 = row[9]
    }

    init(_ i: Int) {
        i0 = Dataset.tenInts(i, 0)
        i1 = Dataset.tenInts(i, 1)
        i2 = Dataset.tenInts(i, 2)
        i3 = Dataset.tenInts(i, 3)
        i4 = Dataset.tenInts(i, 4)
        i5 = Dataset.tenInts(i, 5)
        i6 = Dataset.tenInts(i, 6)
        i7 = Dataset.tenInts(i, 7)
        i8 = Dataset.tenInts(i, 8)
        i9 = Dataset.tenInts(i, 9)
    }

    func insert(with statement: Statement) throws {
        statement.setUncheckedArguments([i0, i1, i2, i3, i4, i5, i6, i7, i8, i9])
        try statement.execute()
    }
}

/// An element of an ordered list: a row of a child table with its owner
/// and position. The record holds what its Realm counterpart holds, an
/// identity and a value; the owner and the position are the list's.
struct ListItemRecord: FetchableRecord, TableRecord {
    static let databaseTableName = "listItem"
    static var databaseSelection: [any SQLSelectable] { [Column("id"), Column("score")] }
    static let insertSQL = "INSERT INTO listItem (listOwnerId, position, score) VALUES (?, ?, ?)"
    /// The elements of one owner's list, in order.
    static let elementsSQL = "SELECT id, score FROM listItem WHERE listOwnerId = ? ORDER BY position"

    var id: Int64
    var score: Int

    init(row: Row) {
        id = row[0]
        score = row[1]
    }
}
