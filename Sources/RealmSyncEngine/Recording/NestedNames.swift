import RealmCore
import RealmSyncWire

/// The names of the lists and dictionaries nested in mixed values
/// (Docs/SyncDesign.md, "Nested collections").
///
/// A nested collection is named by a global key its creator gives it when
/// it records the value that makes it (`nestedList` or `nestedDictionary`),
/// as an embedded object in a to-one property is: each collection made is
/// one of its own, never the one it replaces. The instructions that fill
/// it name it in their ``ListReference/nested``; once the value that made
/// it loses its place (overwritten, erased, its owner deleted) RealmCore
/// deletes it, and instructions that name it find nothing.
///
/// `sync_nested` maps each name to RealmCore's key of the collection, with
/// the class and key of the object at its root, so that forgetting the
/// object forgets its collections' names. When RealmCore deletes a
/// collection, its name goes with what sync kept of it (``forget(_:_:)``):
/// an instruction that names it finds nothing either way.
///
/// The mirror of a nested list, the registers of a nested dictionary and
/// the links waiting in either are kept as a property's are, under the
/// *storage property* `property.client-counter` (a property's name never
/// holds a dot).
enum NestedNames {
    static let createTable = """
        CREATE TABLE IF NOT EXISTS sync_nested (
            collection INTEGER PRIMARY KEY,
            kind INTEGER NOT NULL,
            class TEXT NOT NULL,
            owner INTEGER NOT NULL,
            client INTEGER NOT NULL,
            counter INTEGER NOT NULL
        );
        CREATE UNIQUE INDEX IF NOT EXISTS sync_nested_by_name ON sync_nested (client, counter);
        CREATE INDEX IF NOT EXISTS sync_nested_by_owner ON sync_nested (class, owner);
        """

    /// The name of `collection`, if sync gave it one.
    static func name(of collection: NestedCollection, _ transaction: Transaction) throws(RealmError) -> GlobalKey? {
        let select = try transaction.queryStatement("SELECT client, counter FROM sync_nested WHERE collection = ?")
        defer { select.reset() }
        select.bind(collection.key, at: 1)
        guard try select.step() else { return nil }
        return GlobalKey(client: UInt64(bitPattern: select.int64(at: 0)), counter: UInt64(bitPattern: select.int64(at: 1)))
    }

    /// Notes that `name` names `collection`, held at the root by `root`'s
    /// owner.
    static func note(_ name: GlobalKey, for collection: NestedCollection, in root: ListHandle, _ transaction: Transaction) throws(RealmError) {
        let upsert = try transaction.replicationStatement(
            "INSERT OR REPLACE INTO sync_nested (collection, kind, class, owner, client, counter) VALUES (?, ?, ?, ?, ?, ?)")
        upsert.bind(collection.key, at: 1)
        upsert.bind(collection.kind.rawValue, at: 2)
        upsert.bind(root.owningClass.className, at: 3)
        upsert.bind(root.owner.rawValue, at: 4)
        upsert.bind(Int64(bitPattern: name.client), at: 5)
        upsert.bind(Int64(bitPattern: name.counter), at: 6)
        try upsert.run()
    }

    /// The collection `name` names, if this replica has it: its handle,
    /// rooted at the object and property that hold it.
    static func collection(named name: GlobalKey, _ transaction: Transaction) throws(RealmError) -> ListHandle? {
        let select = try transaction.queryStatement("SELECT collection, kind FROM sync_nested WHERE client = ? AND counter = ?")
        defer { select.reset() }
        select.bind(Int64(bitPattern: name.client), at: 1)
        select.bind(Int64(bitPattern: name.counter), at: 2)
        guard try select.step(), let kind = NestedCollection.Kind(rawValue: select.int64(at: 1)) else { return nil }
        return try transaction.handle(of: NestedCollection(kind: kind, key: select.int64(at: 0)))
    }

    /// Forgets the collections RealmCore deleted (`keys`; nil for every
    /// one): their names, and the mirrors, registers and waiting links kept
    /// under their storage properties. Without it these stay until their
    /// root object goes, however often the value is replaced.
    static func forget(_ keys: [Int64]?, _ transaction: Transaction) throws(RealmError) {
        guard let keys else {
            for (table, _) in Self.keptUnderStorageProperties {
                // A property's own rows have no dot in their property.
                let delete = try transaction.replicationStatement("DELETE FROM \(table) WHERE property GLOB '*.*'")
                try delete.run()
            }
            try transaction.replicationStatement("DELETE FROM sync_nested").run()
            return
        }
        // The keys as one JSON array: one statement whatever their number.
        let json = "[" + keys.map(String.init).joined(separator: ",") + "]"
        let select = try transaction.queryStatement(
            "SELECT class, owner, client, counter FROM sync_nested WHERE collection IN (SELECT value FROM json_each(?))")
        select.bind(json, at: 1)
        var named: [(className: String, owner: Int64, storageSuffix: String)] = []
        while try select.step() {
            named.append((select.string(at: 0), select.int64(at: 1), ".\(UInt64(bitPattern: select.int64(at: 2)))-\(UInt64(bitPattern: select.int64(at: 3)))"))
        }
        select.reset()
        guard !named.isEmpty else { return }
        for (table, ownerColumn) in Self.keptUnderStorageProperties {
            let delete = try transaction.replicationStatement("DELETE FROM \(table) WHERE class = ? AND \(ownerColumn) = ? AND property GLOB ?")
            for name in named {
                delete.bind(name.className, at: 1)
                delete.bind(name.owner, at: 2)
                // Digits, a dash and a dot: nothing GLOB reads as a wildcard.
                delete.bind("*" + name.storageSuffix, at: 3)
                try delete.run()
            }
        }
        let delete = try transaction.replicationStatement("DELETE FROM sync_nested WHERE collection IN (SELECT value FROM json_each(?))")
        delete.bind(json, at: 1)
        try delete.run()
    }

    /// The tables that keep rows under a storage property, and the column
    /// of each that holds the root object's key.
    private static let keptUnderStorageProperties = [("sync_lists", "owner"), ("sync_members", "owner"), ("sync_pending_links", "object_key")]

    /// The value that makes a collection of `kind` named `name`.
    static func value(_ kind: NestedCollection.Kind, named name: GlobalKey) -> SyncValue {
        kind == .list ? .nestedList(name) : .nestedDictionary(name)
    }

    // MARK: Storage properties

    /// The property under which sync keeps the rows of the collection of
    /// `property`, or of the collection named `nested` in its values.
    static func storageProperty(_ property: String, nested: GlobalKey?) -> String {
        guard let nested else { return property }
        return "\(property).\(nested.client)-\(nested.counter)"
    }

    /// The property and nested collection name a storage property names.
    static func parse(storageProperty: String) -> (property: String, nested: GlobalKey?) {
        guard let dot = storageProperty.firstIndex(of: ".") else { return (storageProperty, nil) }
        let name = storageProperty[storageProperty.index(after: dot)...].split(separator: "-")
        guard name.count == 2, let client = UInt64(name[0]), let counter = UInt64(name[1]) else { return (storageProperty, nil) }
        return (String(storageProperty[..<dot]), GlobalKey(client: client, counter: counter))
    }

    /// The collection a storage property of the object `owner` of
    /// `handle` names: the property's own, or a nested one (nil when that
    /// is gone).
    static func collection(storageProperty: String, of owner: ObjectKey, in handle: ClassHandle,
                           _ transaction: Transaction) throws(RealmError) -> (ListHandle, property: Int)? {
        let (property, nested) = parse(storageProperty: storageProperty)
        let index = try transaction.propertyIndex(named: property, in: handle)
        guard let nested else { return (ListHandle(owningClass: handle, owner: owner, property: index), index) }
        guard let collection = try collection(named: nested, transaction), collection.owner == owner,
              collection.owningClass.className == handle.className, collection.property == index else { return nil }
        return (collection, index)
    }
}

extension ListReference {
    /// The property under which sync keeps the rows of the collection
    /// (``NestedNames/storageProperty(_:nested:)``).
    var storageProperty: String { NestedNames.storageProperty(property, nested: nested) }
}

extension SyncValue {
    /// The kind and name of the nested collection it makes, if it makes
    /// one.
    var nestedCollection: (kind: NestedCollection.Kind, name: GlobalKey)? {
        switch self {
        case .nestedList(let name): (.list, name)
        case .nestedDictionary(let name): (.dictionary, name)
        default: nil
        }
    }
}
