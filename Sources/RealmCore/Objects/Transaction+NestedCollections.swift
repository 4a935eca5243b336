/// Lists and dictionaries nested in mixed values (`AnyRealmValue.list` and
/// `.dictionary`), to any depth.
///
/// They live in three tables of their own, made the first time a file
/// stores one (a schema change of the catalog, so that every connection
/// learns of them):
///
/// ```
/// realm_nested_collections  one row per collection: its key, its kind,
///                           and the object, property and collection
///                           (NULL at the root) that hold it
/// realm_nested_elements     a list's elements: collection, position, value
/// realm_nested_entries      a dictionary's entries: collection, key, value
/// ```
///
/// The mixed value that holds a collection stores its kind and key
/// (``MixedEncoding``). A nested collection is read and written through the
/// list and map operations with a ``ListHandle`` whose ``ListHandle/nested``
/// names it; a change inside it is a change of the root property of the
/// object that holds it. Giving the holding place another value, removing
/// it, or deleting the object deletes the collection and every collection
/// inside it.
extension Transaction {
    // MARK: Creating

    /// Gives mixed property `property` of object `key` a new, empty nested
    /// collection, deleting any collection it held, and returns its handle.
    ///
    /// - Throws: `invalidValue` when the property is not a mixed property;
    ///   `objectNotFound` when the object does not exist.
    @discardableResult
    public func setNestedCollection(_ kind: NestedCollection.Kind, of key: ObjectKey, property: Int,
                                    in handle: ClassHandle) throws(RealmError) -> ListHandle {
        try requireWrite("modify an object")
        let layout = try layout(handle)
        try requireColumn(layout, property)
        try requireMixed(layout, property)
        guard try exists(key, in: layout) else { throw objectNotFound(layout, key) }
        return try atomically { () throws(RealmError) -> ListHandle in
            let collection = try createNestedCollection(kind, root: ListHandle(owningClass: handle, owner: key, property: property), parent: nil)
            try admitting(collection) { () throws(RealmError) in
                try setValue(.collection(collection), of: key, property: property, in: handle)
            }
            return ListHandle(owningClass: handle, owner: key, property: property, nested: collection)
        }
    }

    /// Inserts a new, empty nested collection into a list of mixed values
    /// (a property's, or a nested one) at `index`, and returns its handle.
    @discardableResult
    public func insertNestedCollection(_ kind: NestedCollection.Kind, at index: Int, in list: ListHandle) throws(RealmError) -> ListHandle {
        try requireWrite("insert into a list")
        return try atomically { () throws(RealmError) -> ListHandle in
            let collection = try createNestedCollection(kind, root: list, parent: list.nested)
            try admitting(collection) { () throws(RealmError) in try insert(.collection(collection), at: index, in: list) }
            return list.handle(of: collection)
        }
    }

    /// Replaces the element at `index` of a list of mixed values with a new,
    /// empty nested collection (deleting any collection it held), and
    /// returns its handle.
    @discardableResult
    public func replaceWithNestedCollection(_ kind: NestedCollection.Kind, at index: Int, in list: ListHandle) throws(RealmError) -> ListHandle {
        try requireWrite("replace a list element")
        return try atomically { () throws(RealmError) -> ListHandle in
            let collection = try createNestedCollection(kind, root: list, parent: list.nested)
            try admitting(collection) { () throws(RealmError) in try replace(at: index, with: .collection(collection), in: list) }
            return list.handle(of: collection)
        }
    }

    /// Sets the value for `key` in a map of mixed values (a property's, or a
    /// nested dictionary) to a new, empty nested collection (deleting any
    /// collection the key held), and returns its handle.
    @discardableResult
    public func setNestedCollection(_ kind: NestedCollection.Kind, forKey key: String, in map: ListHandle) throws(RealmError) -> ListHandle {
        try requireWrite("set a map value")
        return try atomically { () throws(RealmError) -> ListHandle in
            let collection = try createNestedCollection(kind, root: map, parent: map.nested)
            try admitting(collection) { () throws(RealmError) in try setValue(.collection(collection), forKey: key, in: map) }
            return map.handle(of: collection)
        }
    }

    /// Whether the nested collection a handle names still exists (its
    /// holder was not overwritten, removed or deleted). True for a handle of
    /// a property's own collection.
    public func nestedCollectionExists(_ handle: ListHandle) throws(RealmError) -> Bool {
        guard let nested = handle.nested else { return true }
        guard catalog.hasNestedCollections else { return false }
        let statement = try connection.cachedStatement("SELECT kind FROM realm_nested_collections WHERE id = ?")
        statement.bind(nested.key, at: 1)
        defer { statement.reset() }
        return try statement.step() && statement.int64(at: 0) == nested.kind.rawValue
    }

    /// The handle of a nested collection read from a mixed value: the
    /// object and property at its root, found in the file. Nil when the
    /// collection no longer exists, or its root class or property is gone.
    public func handle(of collection: NestedCollection) throws(RealmError) -> ListHandle? {
        guard catalog.hasNestedCollections else { return nil }
        let root = try connection.cachedStatement("SELECT class_name, owner, property FROM realm_nested_collections WHERE id = ? AND kind = ?")
        root.bind(collection.key, at: 1)
        root.bind(collection.kind.rawValue, at: 2)
        defer { root.reset() }
        guard try root.step(), let classIndex = catalog.tableIndex(named: root.string(at: 0)) else { return nil }
        let layout = catalog.tables[classIndex]
        let propertyName = root.string(at: 2)
        guard let property = layout.objectSchema.properties.firstIndex(where: { $0.name == propertyName }) else { return nil }
        return ListHandle(owningClass: handle(of: layout), owner: ObjectKey(root.int64(at: 1)), property: property, nested: collection)
    }

    /// The elements of nested lists that link to the object `key` of
    /// `className`: each list's handle and the element's row, ordered by
    /// list and row. (Nested dictionaries are not looked in.) The values
    /// are indexed, so this costs a lookup, not a scan.
    public func nestedListLinks(to key: ObjectKey, ofClass className: String) throws(RealmError) -> [(list: ListHandle, row: Int)] {
        guard catalog.hasNestedCollections else { return [] }
        let select = try connection.cachedStatement(
            "SELECT collection, position FROM realm_nested_elements WHERE value = ? ORDER BY collection, position")
        select.bind(Value.link(className: className, key: key), at: 1)
        var found: [(collection: Int64, row: Int)] = []
        while try select.step() { found.append((select.int64(at: 0), Int(select.int64(at: 1)))) }
        select.reset()
        var handles: [Int64: ListHandle] = [:]
        var links: [(list: ListHandle, row: Int)] = []
        for (collection, row) in found {
            if handles[collection] == nil { handles[collection] = try handle(of: NestedCollection(kind: .list, key: collection)) }
            if let list = handles[collection] { links.append((list, row)) }
        }
        return links
    }

    // MARK: Rows

    /// The statement for one operation on the rows of a list or map: the
    /// property's table, or the nested collections' tables.
    func rowsStatement(_ operation: CollectionRowOperation, _ layout: TableLayout, _ collection: ListHandle) throws(RealmError) -> Statement {
        guard collection.nested != nil else { return try statement(layout, operation.kind(collection.property)) }
        return try connection.cachedStatement(operation.nestedSQL(collection.nested!.kind))
    }

    /// The type of a collection's elements: a nested collection's are mixed.
    func elementType(_ layout: TableLayout, _ collection: ListHandle) -> PropertyType {
        collection.nested == nil ? layout.property(collection.property).type : .mixed
    }

    /// A collection's name for messages.
    func collectionName(_ layout: TableLayout, _ collection: ListHandle) -> String {
        guard let nested = collection.nested else { return layout.qualifiedName(collection.property) }
        return "\(nested) in \(layout.qualifiedName(collection.property))"
    }

    /// Records a change of a list: its element changes for a property's
    /// list, and for a nested one a change of the root property (nested
    /// lists' observers compare their elements).
    func recordListChange(_ layout: TableLayout, _ list: ListHandle, countBefore: Int, _ operation: PendingChange.ListOperation) {
        if list.nested == nil {
            record(.list(classIndex: layout.index, property: list.property, owner: list.owner, countBefore: countBefore, operation))
        } else {
            // A nested list's length changed or its elements moved: an
            // append must not trust the length it remembers.
            listEpoch &+= 1
            record(.modified(list.owner, property: list.property, classIndex: layout.index))
        }
    }

    /// Checks that a nested handle names an existing collection of `kind`
    /// (nothing for a property's collection).
    func requireNestedCollection(_ collection: ListHandle, _ kind: NestedCollection.Kind, _ layout: TableLayout) throws(RealmError) {
        guard let nested = collection.nested else { return }
        guard nested.kind == kind else {
            throw RealmError(.invalidValue, "\(collectionName(layout, collection)) is not a \(kind == .list ? "list" : "dictionary").")
        }
        guard try nestedCollectionExists(collection) else {
            throw RealmError(.objectNotFound, "\(collectionName(layout, collection)) of object \(collection.owner.rawValue) no longer exists: the value that held it was replaced or removed, or its object deleted.")
        }
    }

    // MARK: Cascades

    /// Deletes the collection `value` holds, if it holds one, and those
    /// nested in it.
    func deleteNestedCollection(in value: Value?) throws(RealmError) {
        guard case .collection(let collection)? = value, catalog.hasNestedCollections else { return }
        let subtree = try connection.cachedStatement("""
            WITH RECURSIVE doomed(id) AS (
                SELECT ?1 UNION ALL SELECT c.id FROM realm_nested_collections c JOIN doomed ON c.parent = doomed.id)
            SELECT id FROM doomed
            """)
        subtree.bind(collection.key, at: 1)
        try deleteNestedCollections(selectedBy: subtree)
    }

    /// Deletes the collections nested in the mixed values of `owner` (of
    /// every object of the class when nil), as the object goes.
    func deleteNestedCollections(of owner: ObjectKey?, in layout: TableLayout) throws(RealmError) {
        guard catalog.hasNestedCollections, !layout.mixedColumns.isEmpty || !layout.mixedCollections.isEmpty else { return }
        let select = try connection.cachedStatement(owner == nil
            ? "SELECT id FROM realm_nested_collections WHERE class_name = ?1"
            : "SELECT id FROM realm_nested_collections WHERE class_name = ?1 AND owner = ?2")
        select.bind(layout.name, at: 1)
        if let owner { select.bind(owner.rawValue, at: 2) }
        try deleteNestedCollections(selectedBy: select)
    }

    /// Deletes the collections nested in property `property` of class
    /// `className` (a property removed or given another type).
    func deleteNestedCollections(ofProperty property: String, className: String) throws(RealmError) {
        guard catalog.hasNestedCollections else { return }
        let select = try connection.cachedStatement("SELECT id FROM realm_nested_collections WHERE class_name = ? AND property = ?")
        select.bind(className, at: 1)
        select.bind(property, at: 2)
        try deleteNestedCollections(selectedBy: select)
    }

    /// Deletes every nested collection (every object of the file is going).
    func deleteAllNestedCollections() throws(RealmError) {
        guard catalog.hasNestedCollections else { return }
        try connection.execute("DELETE FROM realm_nested_elements; DELETE FROM realm_nested_entries; DELETE FROM realm_nested_collections")
        try replication?.didDeleteNestedCollections(nil, in: self)
    }

    /// Deletes the collections whose keys `select` (bound, not yet run)
    /// returns.
    private func deleteNestedCollections(selectedBy select: Statement) throws(RealmError) {
        var keys: [Int64] = []
        while try select.step() { keys.append(select.int64(at: 0)) }
        select.reset()
        guard !keys.isEmpty else { return }
        // Handles of these collections must not append to what they knew.
        listEpoch &+= 1
        // The keys arrive as one JSON array, so that each table is one
        // statement whatever their number.
        let json = "[" + keys.map(String.init).joined(separator: ",") + "]"
        for table in ["realm_nested_elements", "realm_nested_entries"] {
            let delete = try connection.cachedStatement("DELETE FROM \(table) WHERE collection IN (SELECT value FROM json_each(?))")
            delete.bind(json, at: 1)
            try delete.run()
        }
        let delete = try connection.cachedStatement("DELETE FROM realm_nested_collections WHERE id IN (SELECT value FROM json_each(?))")
        delete.bind(json, at: 1)
        try delete.run()
        try replication?.didDeleteNestedCollections(keys, in: self)
    }

    /// Leaves nil where a nested collection linked to a deleted object, and
    /// records the change of the root properties that hold them.
    func dropFromNestedCollections(_ link: Value) throws(RealmError) {
        guard catalog.hasNestedCollections else { return }
        var collections: Set<Int64> = []
        for table in ["realm_nested_elements", "realm_nested_entries"] {
            let update = try connection.cachedStatement("UPDATE \(table) SET value = NULL WHERE value = ? RETURNING collection")
            update.bind(link, at: 1)
            while try update.step() { collections.insert(update.int64(at: 0)) }
            update.reset()
        }
        let root = try connection.cachedStatement("SELECT class_name, owner, property FROM realm_nested_collections WHERE id = ?")
        for collection in collections {
            root.bind(collection, at: 1)
            defer { root.reset() }
            guard try root.step(), let classIndex = catalog.tableIndex(named: root.string(at: 0)) else { continue }
            let propertyName = root.string(at: 2)
            guard let property = catalog.tables[classIndex].objectSchema.properties.firstIndex(where: { $0.name == propertyName }) else { continue }
            record(.modified(ObjectKey(root.int64(at: 1)), property: property, classIndex: classIndex))
        }
    }

    // MARK: Private

    /// Registers a new collection held by `root`'s property (inside
    /// `parent` when nested), making the tables first if the file has none.
    private func createNestedCollection(_ kind: NestedCollection.Kind, root: ListHandle, parent: NestedCollection?) throws(RealmError) -> NestedCollection {
        let layout = try layout(root.owningClass)
        try requireMixed(layout, root.property)
        if let parent {
            try requireNestedCollection(root, parent.kind, layout)
            // Realm's limit: a collection of an object is at level 1, one
            // nested in it at level 2, and none deeper than 100. (A bound
            // too for whatever walks them recursively.)
            let level = try nestingLevel(of: parent) + (layout.property(root.property).isCollection ? 2 : 1)
            guard level <= Self.maximumNestingLevel else {
                throw RealmError(.valueTooLarge, "A collection nested in \(layout.qualifiedName(root.property)) would be at level \(level); collections nest at most \(Self.maximumNestingLevel) levels deep.")
            }
        }
        try ensureNestedCollectionTables()
        let insert = try connection.cachedStatement(
            "INSERT INTO realm_nested_collections (kind, class_name, owner, property, parent) VALUES (?, ?, ?, ?, ?) RETURNING id")
        insert.bind(kind.rawValue, at: 1)
        insert.bind(layout.name, at: 2)
        insert.bind(root.owner.rawValue, at: 3)
        insert.bind(layout.property(root.property).name, at: 4)
        if let parent { insert.bind(parent.key, at: 5) } else { insert.bindNull(at: 5) }
        defer { insert.reset() }
        guard try insert.step() else {
            throw RealmError(.storage, "Creating a nested collection in '\(coordinator.path)' returned no key.")
        }
        return NestedCollection(kind: kind, key: insert.int64(at: 0))
    }

    private func requireMixed(_ layout: TableLayout, _ property: Int) throws(RealmError) {
        guard property >= 0 && property < layout.objectSchema.properties.count else {
            throw RealmError(.unknownName, "Class '\(layout.name)' has no property #\(property).")
        }
        let definition = layout.property(property)
        guard definition.type == .mixed, !definition.isSet else {
            throw RealmError(.invalidValue, "Property \(layout.qualifiedName(property)) cannot hold a nested collection: only mixed properties, and lists and maps of mixed values, can.")
        }
    }

    /// Runs `body` with `collection` accepted as a mixed value: the one
    /// place a `.collection` value is written is its creation.
    private func admitting(_ collection: NestedCollection, _ body: () throws(RealmError) -> Void) throws(RealmError) {
        let previous = admittedNestedCollection
        admittedNestedCollection = collection
        defer { admittedNestedCollection = previous }
        try body()
    }

    /// The deepest level a nested collection may be at, as in Realm: the
    /// object's own collections are at level 1.
    public static let maximumNestingLevel = 100

    /// How many nested collections hold `collection`, itself included.
    private func nestingLevel(of collection: NestedCollection) throws(RealmError) -> Int {
        let parent = try connection.cachedStatement("SELECT parent FROM realm_nested_collections WHERE id = ?")
        var level = 0
        var current: Int64? = collection.key
        while let key = current {
            level += 1
            guard level <= Self.maximumNestingLevel + 1 else { break }
            parent.bind(key, at: 1)
            current = try parent.step() && !parent.isNull(at: 0) ? parent.int64(at: 0) : nil
            parent.reset()
        }
        return level
    }

    /// Makes the nested collections' tables, once per file, as a change of
    /// the catalog so that every connection learns that they exist. The
    /// values are indexed, as mixed columns are, because deleting an object
    /// looks for links to it in them (`dropFromNestedCollections`).
    private func ensureNestedCollectionTables() throws(RealmError) {
        guard !catalog.hasNestedCollections else { return }
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS realm_nested_collections (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                kind INTEGER NOT NULL,
                class_name TEXT NOT NULL,
                owner INTEGER NOT NULL,
                property TEXT NOT NULL,
                parent INTEGER
            );
            CREATE INDEX IF NOT EXISTS realm_nested_collections_by_owner ON realm_nested_collections (class_name, owner);
            CREATE INDEX IF NOT EXISTS realm_nested_collections_by_parent ON realm_nested_collections (parent);
            CREATE TABLE IF NOT EXISTS realm_nested_elements (
                collection INTEGER NOT NULL,
                position INTEGER NOT NULL,
                value,
                PRIMARY KEY (collection, position)
            ) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS realm_nested_entries (
                collection INTEGER NOT NULL,
                key TEXT NOT NULL,
                value,
                PRIMARY KEY (collection, key)
            ) WITHOUT ROWID;
            CREATE INDEX IF NOT EXISTS realm_nested_elements_by_value ON realm_nested_elements (value);
            CREATE INDEX IF NOT EXISTS realm_nested_entries_by_value ON realm_nested_entries (value);
            UPDATE realm_metadata SET catalog_generation = catalog_generation + 1 WHERE id = 1;
            """)
        replaceCatalog(try Catalog.load(from: connection))
    }
}

/// One operation on the rows of a list or map, in a property's table or in
/// the nested collections' tables (where `owner` is the collection's key).
enum CollectionRowOperation {
    case listCount, listOwnerAndLastPosition, listGet, listAll, listInsert, listSet, listDelete
    case listOpenGap, listCloseGap, listSettle, clear
    case mapGet, mapSet, mapDelete, mapAll, mapCount

    /// The statement of a property's collection.
    func kind(_ property: Int) -> StatementKind {
        switch self {
        case .listCount: .listCount(property)
        case .listOwnerAndLastPosition: .listOwnerAndLastPosition(property)
        case .listGet: .listGet(property)
        case .listAll: .listAll(property)
        case .listInsert: .listInsert(property)
        case .listSet: .listSet(property)
        case .listDelete: .listDelete(property)
        case .listOpenGap: .listOpenGap(property)
        case .listCloseGap: .listCloseGap(property)
        case .listSettle: .listSettle(property)
        case .clear: .listClear(property)
        case .mapGet: .mapGet(property)
        case .mapSet: .mapSet(property)
        case .mapDelete: .mapDelete(property)
        case .mapAll: .mapAll(property)
        case .mapCount: .mapCount(property)
        }
    }

    /// The same statement for a nested collection of `kind`, with its
    /// parameters in the same places.
    func nestedSQL(_ kind: NestedCollection.Kind) -> String {
        switch self {
        case .listCount: "SELECT max(position) FROM realm_nested_elements WHERE collection = ?"
        case .listOwnerAndLastPosition:
            "SELECT (SELECT 1 FROM realm_nested_collections WHERE id = ?1 AND kind = 0), (SELECT max(position) FROM realm_nested_elements WHERE collection = ?1)"
        case .listGet: "SELECT value FROM realm_nested_elements WHERE collection = ? AND position = ?"
        case .listAll: "SELECT value FROM realm_nested_elements WHERE collection = ? ORDER BY position"
        case .listInsert: "INSERT INTO realm_nested_elements (collection, position, value) VALUES (?, ?, ?)"
        case .listSet: "UPDATE realm_nested_elements SET value = ? WHERE collection = ? AND position = ?"
        case .listDelete: "DELETE FROM realm_nested_elements WHERE collection = ? AND position = ?"
        case .listOpenGap: "UPDATE realm_nested_elements SET position = -position - 2 WHERE collection = ? AND position >= ?"
        case .listCloseGap: "UPDATE realm_nested_elements SET position = -position WHERE collection = ? AND position > ?"
        case .listSettle: "UPDATE realm_nested_elements SET position = -position - 1 WHERE collection = ? AND position < 0"
        case .clear:
            kind == .list ? "DELETE FROM realm_nested_elements WHERE collection = ?" : "DELETE FROM realm_nested_entries WHERE collection = ?"
        case .mapGet: "SELECT value FROM realm_nested_entries WHERE collection = ? AND key = ?"
        case .mapSet:
            "INSERT INTO realm_nested_entries (collection, key, value) VALUES (?, ?, ?) ON CONFLICT (collection, key) DO UPDATE SET value = excluded.value"
        case .mapDelete: "DELETE FROM realm_nested_entries WHERE collection = ? AND key = ?"
        case .mapAll: "SELECT key, value FROM realm_nested_entries WHERE collection = ? ORDER BY key"
        case .mapCount: "SELECT count(*) FROM realm_nested_entries WHERE collection = ?"
        }
    }
}

extension ListHandle {
    /// The `owner` its rows are stored under: the object's key for a
    /// property's collection, the collection's key for a nested one.
    var rowOwner: Int64 { nested?.key ?? owner.rawValue }
}
