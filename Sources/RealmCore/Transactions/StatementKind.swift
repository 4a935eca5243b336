/// The statements the object store runs against one class's tables, each
/// compiled once per connection and cached.
enum StatementKind {
    case insert
    case selectRow
    case exists
    case delete
    case deleteAll
    case deleteKeys
    case count
    case keys
    case maxKey
    case findPrimaryKey
    case findNullPrimaryKey
    /// The key and columns of the object with a primary key.
    case selectRowByPrimaryKey
    case selectRowByNullPrimaryKey
    case selectColumn(Int)
    case updateColumn(Int)
    /// Objects whose to-one link column points at a key.
    case linkingKeys(Int)
    /// Sets a to-one link column to NULL where it points at a key, returning
    /// the objects changed.
    case nullifyLinks(Int)
    case nullifyAllLinks(Int)
    case listCount(Int)
    /// Whether the owner exists (NULL when not), and the list's last
    /// position (NULL when empty): what every list write checks first, in
    /// one step.
    case listOwnerAndLastPosition(Int)
    case listGet(Int)
    case listAll(Int)
    case listInsert(Int)
    case listSet(Int)
    case listDelete(Int)
    /// First half of opening a gap at a position: moves the tail to negative
    /// positions, where it cannot collide with the rows it passes.
    case listOpenGap(Int)
    /// First half of closing the gap left after a position.
    case listCloseGap(Int)
    /// Second half of both: brings the negated tail back, shifted by one
    /// (-(p + 2) becomes p + 1 after opening; -p becomes p - 1 after closing).
    case listSettle(Int)
    case listClear(Int)
    case listClearAll(Int)
    /// Owners and positions of list elements equal to a key, last first.
    case listOccurrences(Int)
    case listOwnersAndCounts(Int)
    /// Owners of lists holding a key, once per occurrence.
    case listLinkingOwners(Int)
    /// Whether a set holds a value (`IS`, so that nil is found too).
    case setContains(Int)
    case setInsert(Int)
    case setDelete(Int)
    /// A set's elements in the order of their values.
    case setAll(Int)
    case setCount(Int)
    /// Removes a deleted object from every set, returning the owners.
    case setRemoveTarget(Int)
    case setRemoveAllTargets(Int)
    /// Owners of sets holding a key.
    case setLinkingOwners(Int)
    case mapGet(Int)
    /// Adds a key or replaces its value.
    case mapSet(Int)
    case mapDelete(Int)
    /// A map's keys and values in the order of their keys.
    case mapAll(Int)
    case mapCount(Int)
    /// Leaves nil where a map held a deleted object, returning the owners.
    case mapNullifyTarget(Int)
    case mapNullifyAllTargets(Int)
    /// Owners of maps holding a key, once per key.
    case mapLinkingOwners(Int)

    /// A number that identifies the kind (the case, and the property of a
    /// per-property case), for ``StatementCache``: an `Int` hashes and
    /// compares in a few instructions, where the synthesized conformance
    /// of an enum with payloads costs hundreds, once per row written.
    var code: Int {
        switch self {
        case .insert: 0
        case .selectRow: 1
        case .exists: 2
        case .delete: 3
        case .deleteAll: 4
        case .deleteKeys: 5
        case .count: 6
        case .keys: 7
        case .maxKey: 8
        case .findPrimaryKey: 9
        case .findNullPrimaryKey: 10
        case .selectRowByPrimaryKey: 11
        case .selectRowByNullPrimaryKey: 12
        case .selectColumn(let property): Self.code(13, property)
        case .updateColumn(let property): Self.code(14, property)
        case .linkingKeys(let property): Self.code(15, property)
        case .nullifyLinks(let property): Self.code(16, property)
        case .nullifyAllLinks(let property): Self.code(17, property)
        case .listCount(let property): Self.code(18, property)
        case .listGet(let property): Self.code(19, property)
        case .listAll(let property): Self.code(20, property)
        case .listInsert(let property): Self.code(21, property)
        case .listSet(let property): Self.code(22, property)
        case .listDelete(let property): Self.code(23, property)
        case .listOpenGap(let property): Self.code(24, property)
        case .listCloseGap(let property): Self.code(25, property)
        case .listSettle(let property): Self.code(26, property)
        case .listClear(let property): Self.code(27, property)
        case .listClearAll(let property): Self.code(28, property)
        case .listOccurrences(let property): Self.code(29, property)
        case .listOwnersAndCounts(let property): Self.code(30, property)
        case .listLinkingOwners(let property): Self.code(31, property)
        case .listOwnerAndLastPosition(let property): Self.code(32, property)
        case .setContains(let property): Self.code(33, property)
        case .setInsert(let property): Self.code(34, property)
        case .setDelete(let property): Self.code(35, property)
        case .setAll(let property): Self.code(36, property)
        case .setCount(let property): Self.code(37, property)
        case .setRemoveTarget(let property): Self.code(38, property)
        case .setRemoveAllTargets(let property): Self.code(39, property)
        case .setLinkingOwners(let property): Self.code(40, property)
        case .mapGet(let property): Self.code(41, property)
        case .mapSet(let property): Self.code(42, property)
        case .mapDelete(let property): Self.code(43, property)
        case .mapAll(let property): Self.code(44, property)
        case .mapCount(let property): Self.code(45, property)
        case .mapNullifyTarget(let property): Self.code(46, property)
        case .mapNullifyAllTargets(let property): Self.code(47, property)
        case .mapLinkingOwners(let property): Self.code(48, property)
        }
    }

    /// Case numbers in the low byte, the property above it.
    private static func code(_ caseNumber: Int, _ property: Int) -> Int {
        caseNumber | property << 8
    }

    /// The SQL of the statement for `layout`.
    func sql(for layout: TableLayout) -> String {
        let table = layout.table
        let columns = layout.columnProperties.map { layout.columns[$0]! }
        switch self {
        case .insert:
            // A class keyed by its primary key has `_key` among its columns.
            let names = layout.isKeyedByPrimaryKey ? columns : ["_key"] + columns
            return "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
        case .selectRow:
            return "SELECT \(columns.isEmpty ? "_key" : columns.joined(separator: ", ")) FROM \(table) WHERE _key = ?"
        case .exists:
            return "SELECT 1 FROM \(table) WHERE _key = ?"
        case .delete:
            return "DELETE FROM \(table) WHERE _key = ?"
        case .deleteAll:
            return "DELETE FROM \(table)"
        case .deleteKeys:
            // The keys arrive as one JSON array, so that one statement
            // deletes any number of objects.
            return "DELETE FROM \(table) WHERE _key IN (SELECT value FROM json_each(?))"
        case .count:
            return "SELECT count(*) FROM \(table)"
        case .keys:
            return "SELECT _key FROM \(table) ORDER BY _key"
        case .maxKey:
            return "SELECT max(_key) FROM \(table)"
        case .findPrimaryKey:
            return "SELECT _key FROM \(table) WHERE \(layout.columns[layout.primaryKey!]!) = ?"
        case .findNullPrimaryKey:
            return "SELECT _key FROM \(table) WHERE \(layout.columns[layout.primaryKey!]!) IS NULL"
        case .selectRowByPrimaryKey:
            return "SELECT \((["_key"] + columns).joined(separator: ", ")) FROM \(table) WHERE \(layout.columns[layout.primaryKey!]!) = ?"
        case .selectRowByNullPrimaryKey:
            return "SELECT \((["_key"] + columns).joined(separator: ", ")) FROM \(table) WHERE \(layout.columns[layout.primaryKey!]!) IS NULL"
        case .selectColumn(let property):
            return "SELECT \(layout.columns[property]!) FROM \(table) WHERE _key = ?"
        case .updateColumn(let property):
            return "UPDATE \(table) SET \(layout.columns[property]!) = ? WHERE _key = ?"
        case .linkingKeys(let property):
            return "SELECT _key FROM \(table) WHERE \(layout.columns[property]!) = ? ORDER BY _key"
        case .nullifyLinks(let property):
            let column = layout.columns[property]!
            return "UPDATE \(table) SET \(column) = NULL WHERE \(column) = ? RETURNING _key"
        case .nullifyAllLinks(let property):
            let column = layout.columns[property]!
            return "UPDATE \(table) SET \(column) = NULL WHERE \(column) IS NOT NULL RETURNING _key"
        case .listCount(let property):
            return "SELECT max(position) FROM \(layout.listTables[property]!) WHERE owner = ?"
        case .listOwnerAndLastPosition(let property):
            return "SELECT (SELECT 1 FROM \(table) WHERE _key = ?1), (SELECT max(position) FROM \(layout.listTables[property]!) WHERE owner = ?1)"
        case .listGet(let property):
            return "SELECT value FROM \(layout.listTables[property]!) WHERE owner = ? AND position = ?"
        case .listAll(let property):
            return "SELECT value FROM \(layout.listTables[property]!) WHERE owner = ? ORDER BY position"
        case .listInsert(let property):
            return "INSERT INTO \(layout.listTables[property]!) (owner, position, value) VALUES (?, ?, ?)"
        case .listSet(let property):
            return "UPDATE \(layout.listTables[property]!) SET value = ? WHERE owner = ? AND position = ?"
        case .listDelete(let property):
            return "DELETE FROM \(layout.listTables[property]!) WHERE owner = ? AND position = ?"
        case .listOpenGap(let property):
            return "UPDATE \(layout.listTables[property]!) SET position = -position - 2 WHERE owner = ? AND position >= ?"
        case .listCloseGap(let property):
            return "UPDATE \(layout.listTables[property]!) SET position = -position WHERE owner = ? AND position > ?"
        case .listSettle(let property):
            return "UPDATE \(layout.listTables[property]!) SET position = -position - 1 WHERE owner = ? AND position < 0"
        case .listClear(let property):
            // Any collection's: lists, sets and maps alike.
            return "DELETE FROM \(layout.collectionTables[property]!) WHERE owner = ?"
        case .listClearAll(let property):
            return "DELETE FROM \(layout.collectionTables[property]!)"
        case .listOccurrences(let property):
            return "SELECT owner, position FROM \(layout.listTables[property]!) WHERE value = ? ORDER BY owner, position DESC"
        case .listLinkingOwners(let property):
            return "SELECT owner FROM \(layout.listTables[property]!) WHERE value = ? ORDER BY owner, position"
        case .listOwnersAndCounts(let property):
            return "SELECT owner, max(position) + 1 FROM \(layout.listTables[property]!) GROUP BY owner"
        case .setContains(let property):
            return "SELECT 1 FROM \(layout.setTables[property]!) WHERE owner = ? AND value IS ?"
        case .setInsert(let property):
            // The UNIQUE constraint finds a value the set holds (nil and
            // decimals, which it cannot, are looked for first).
            return "INSERT OR IGNORE INTO \(layout.setTables[property]!) (owner, value) VALUES (?, ?)"
        case .setDelete(let property):
            return "DELETE FROM \(layout.setTables[property]!) WHERE owner = ? AND value IS ?"
        case .setAll(let property):
            return "SELECT value FROM \(layout.setTables[property]!) WHERE owner = ? ORDER BY value"
        case .setCount(let property):
            return "SELECT count(*) FROM \(layout.setTables[property]!) WHERE owner = ?"
        case .setRemoveTarget(let property):
            return "DELETE FROM \(layout.setTables[property]!) WHERE value = ? RETURNING owner"
        case .setRemoveAllTargets(let property):
            return "DELETE FROM \(layout.setTables[property]!) RETURNING owner"
        case .setLinkingOwners(let property):
            return "SELECT owner FROM \(layout.setTables[property]!) WHERE value = ? ORDER BY owner"
        case .mapGet(let property):
            return "SELECT value FROM \(layout.mapTables[property]!) WHERE owner = ? AND key = ?"
        case .mapSet(let property):
            return "INSERT INTO \(layout.mapTables[property]!) (owner, key, value) VALUES (?, ?, ?) ON CONFLICT (owner, key) DO UPDATE SET value = excluded.value"
        case .mapDelete(let property):
            return "DELETE FROM \(layout.mapTables[property]!) WHERE owner = ? AND key = ?"
        case .mapAll(let property):
            return "SELECT key, value FROM \(layout.mapTables[property]!) WHERE owner = ? ORDER BY key"
        case .mapCount(let property):
            return "SELECT count(*) FROM \(layout.mapTables[property]!) WHERE owner = ?"
        case .mapNullifyTarget(let property):
            return "UPDATE \(layout.mapTables[property]!) SET value = NULL WHERE value = ? RETURNING owner"
        case .mapNullifyAllTargets(let property):
            return "UPDATE \(layout.mapTables[property]!) SET value = NULL WHERE value IS NOT NULL RETURNING owner"
        case .mapLinkingOwners(let property):
            return "SELECT owner FROM \(layout.mapTables[property]!) WHERE value = ? ORDER BY owner, key"
        }
    }
}
