import Foundation
import GRDB

/// The schema both GRDB contenders share, as a GRDB user writes it: one
/// migration. (The raw contender creates the same tables.)
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
    migrator.registerMigration("v2-collections") { db in
        // A set and a map as GRDB users store them: a join table each, its
        // primary key the owner and the element (the key), without rowid,
        // so that membership, lookups and iteration are one b-tree search.
        try db.create(table: "collectionOwner") { t in
            t.primaryKey("id", .integer)
        }
        try db.create(table: "setElement", options: .withoutRowID) { t in
            t.belongsTo("collectionOwner", onDelete: .cascade, indexed: false).notNull()
            t.column("value", .integer).notNull()
            t.primaryKey(["collectionOwnerId", "value"])
        }
        try db.create(table: "mapEntry", options: .withoutRowID) { t in
            t.belongsTo("collectionOwner", onDelete: .cascade, indexed: false).notNull()
            t.column("key", .text).notNull()
            t.column("value", .integer).notNull()
            t.primaryKey(["collectionOwnerId", "key"])
        }
    }
    migrator.registerMigration("v3-mixed") { db in
        // Values of several types, as GRDB users store them: one column
        // without affinity, which keeps each value's own storage class;
        // indexed, as a queried column is (and as Realm's mixed columns
        // always are).
        try db.create(table: "mixedItem") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("value").indexed()
        }
    }
    return migrator
}()

/// Opens a pool at the benchmark's durability.
///
/// A `DatabasePool` puts its writer in WAL mode and then sets
/// `synchronous = NORMAL` (GRDB's `setUpWALMode()`), after
/// `Configuration.prepareDatabase` has run, so `prepareDatabase` cannot
/// choose FULL: the pragma is set on the writer once the pool is open.
/// Only the writer commits, so only its level matters.
func openPool(_ file: URL) throws -> DatabasePool {
    let pool = try DatabasePool(path: file.path)
    try pool.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    return pool
}

/// Opens a queue in WAL mode at the benchmark's durability: GRDB's
/// documented way to open a WAL database with a `DatabaseQueue`
/// (`Configuration.journalMode = .wal`), which also sets
/// `synchronous = NORMAL` after `prepareDatabase`, so FULL is set once the
/// queue is open, as for the pool.
func openQueue(_ file: URL) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.journalMode = .wal
    let queue = try DatabaseQueue(path: file.path, configuration: configuration)
    try queue.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    return queue
}
