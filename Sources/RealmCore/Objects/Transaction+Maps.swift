/// Maps from string keys to values or links (`Map`), stored one row per
/// key in the map property's table, keyed by owner and key, so that a
/// lookup, a set and a removal are index lookups. Keys come in the order
/// of their UTF-8 bytes.
///
/// A map of links keeps a key whose object is deleted, with nil, as Realm
/// does. A map of embedded objects owns its values: each is created for its
/// key (``setEmbeddedObject(forKey:in:values:)``) and deleted when the key
/// is removed, given another value, or the owner is deleted.
extension Transaction {
    /// The value for `key`, or nil when the map has no such key (a key
    /// holding nil gives `.null`).
    public func value(forKey key: String, in map: ListHandle) throws(RealmError) -> Value? {
        let layout = try layout(map.owningClass)
        try requireMap(layout, map)
        let statement = try rowsStatement(.mapGet, layout, map)
        statement.bind(map.rowOwner, at: 1)
        statement.bind(key, at: 2)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return statement.value(at: 0, as: elementType(layout, map))
    }

    /// Every key and value, in the order of the keys.
    public func entries(of map: ListHandle) throws(RealmError) -> [(key: String, value: Value)] {
        var entries: [(key: String, value: Value)] = []
        try forEachEntry(of: map) { entries.append(($0, $1)) }
        return entries
    }

    /// Calls `body` with each key and value, in the order of the keys, as
    /// they are read: for callers that convert them, so that no array of
    /// `Value`s is made on the way.
    public func forEachEntry(of map: ListHandle, _ body: (_ key: String, _ value: Value) -> Void) throws(RealmError) {
        let layout = try layout(map.owningClass)
        try requireMap(layout, map)
        let type = elementType(layout, map)
        let statement = try rowsStatement(.mapAll, layout, map)
        statement.bind(map.rowOwner, at: 1)
        defer { statement.reset() }
        while try statement.step() {
            body(statement.string(at: 0), statement.value(at: 1, as: type))
        }
    }

    /// A cursor over a map's entries, in the order of the keys.
    package func mapCursor(of map: ListHandle) throws(RealmError) -> CollectionCursor {
        let layout = try layout(map.owningClass)
        try requireMap(layout, map)
        let sql = map.nested == nil ? StatementKind.mapAll(map.property).sql(for: layout) : CollectionRowOperation.mapAll.nestedSQL(.dictionary)
        let statement = try pooledStatement(sql: sql, arguments: [.int(map.rowOwner)])
        return register(CollectionCursor(transaction: self, statement: statement, valueType: elementType(layout, map), valueColumn: 1))
    }

    /// As ``forEachEntry(of:_:)``, for a map of `T`'s property type: each
    /// value `T`'s columns hold natively goes to `native`, read without a
    /// ``Value``, and any other (NULL, damaged) to `other`. Returns false,
    /// calling neither, when the map holds another type.
    ///
    /// Specialized for the conforming types, so that a caller that names one
    /// reads each entry without generic calls.
    @_specialize(exported: true, where T == Int)
    @_specialize(exported: true, where T == Double)
    @_specialize(exported: true, where T == String)
    package func forEachEntry<T: NativeColumnValue>(of map: ListHandle, as type: T.Type, _ native: (_ key: String, _ value: T) -> Void,
                                                    other: (_ key: String, _ value: Value) -> Void) throws(RealmError) -> Bool {
        let layout = try layout(map.owningClass)
        try requireMap(layout, map)
        let propertyType = elementType(layout, map)
        guard propertyType == T.nativePropertyType else { return false }
        let statement = try rowsStatement(.mapAll, layout, map)
        statement.bind(map.rowOwner, at: 1)
        defer { statement.reset() }
        while try statement.step() {
            let key = statement.string(at: 0)
            if let value = T.nativeValue(statement, at: 1) { native(key, value) } else { other(key, statement.value(at: 1, as: propertyType)) }
        }
        return true
    }

    /// The number of keys.
    public func mapCount(of map: ListHandle) throws(RealmError) -> Int {
        let layout = try layout(map.owningClass)
        try requireMap(layout, map)
        let statement = try rowsStatement(.mapCount, layout, map)
        statement.bind(map.rowOwner, at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return Int(statement.int64(at: 0))
    }

    /// Sets the value for `key`, adding the key if new.
    ///
    /// - Throws: `invalidValue` for an empty key, or one that holds `.` or
    ///   starts with `$` (Realm's rules, which keep key paths unambiguous);
    ///   `wrongType`/`missingValue` for a value that does not fit;
    ///   `objectNotFound` when the owner was deleted.
    public func setValue(_ value: Value, forKey key: String, in map: ListHandle) throws(RealmError) {
        let layout = try prepareMapWrite(map, "set a map value")
        try Self.checkMapKey(key, collectionName(layout, map))
        let embeddedTarget = embeddedTarget(layout, map)
        // An embedded object is made for its key, never linked to.
        if embeddedTarget != nil, !value.isNull { throw embeddedLinkError(layout, map.property) }
        if map.nested != nil {
            try checkElement(value, type: .mixed, isOptional: true, name: "\(collectionName(layout, map)) (map value)", target: nil)
        } else {
            let type = layout.propertyType(map.property)
            try checkElement(value, type: type, isOptional: layout.isOptional(map.property) || type == .object,
                             name: "\(layout.qualifiedName(map.property)) (map value)", target: layout.linkTargets[map.property])
        }
        let mayHoldNested = mayHoldNestedCollections(layout, map)
        try mapChange(deletingEmbedded: embeddedTarget != nil || mayHoldNested) { () throws(RealmError) in
            let replaced = embeddedTarget != nil || mayHoldNested ? try self.value(forKey: key, in: map) : nil
            try storeMapValue(value, forKey: key, in: map, layout)
            try replicate(.mapSet(map, key: key, value))
            if let embeddedTarget, case .object(let old)? = replaced { try deleteRecursively(old, in: embeddedTarget) }
            if replaced != value { try deleteNestedCollection(in: replaced) }
        }
    }

    /// Creates an embedded object as the value for `key` in a map of
    /// embedded objects, deleting the one the key held.
    ///
    /// - Throws: as ``setValue(_:forKey:in:)``; `invalidValue` when the map
    ///   does not hold embedded objects.
    @discardableResult
    public func setEmbeddedObject(forKey key: String, in map: ListHandle, values: [Value] = []) throws(RealmError) -> ObjectKey {
        let layout = try prepareMapWrite(map, "set a map value")
        try Self.checkMapKey(key, layout.qualifiedName(map.property))
        guard let target = embeddedTarget(layout, map) else {
            throw RealmError(.invalidValue, "Map \(layout.qualifiedName(map.property)) does not hold embedded objects.")
        }
        return try atomically { () throws(RealmError) -> ObjectKey in
            let replaced = try value(forKey: key, in: map)
            let created = try insertRow(target, values: values)
            try storeMapValue(.object(created), forKey: key, in: map, layout)
            try replicate(.createdEmbeddedInMap(handle(of: target), created, map: map, key: key))
            if case .object(let old)? = replaced { try deleteRecursively(old, in: target) }
            return created
        }
    }

    private func storeMapValue(_ value: Value, forKey key: String, in map: ListHandle, _ layout: TableLayout) throws(RealmError) {
        let set = try rowsStatement(.mapSet, layout, map)
        set.bind(map.rowOwner, at: 1)
        set.bind(key, at: 2)
        set.bind(value, at: 3, as: elementType(layout, map))
        try set.run()
        record(.modified(map.owner, property: map.property, classIndex: layout.index))
    }

    /// Runs a change of a map: as one atomic step when it may delete
    /// embedded objects (more than one statement), otherwise only when
    /// replication records it.
    private func mapChange(deletingEmbedded: Bool, _ body: () throws(RealmError) -> Void) throws(RealmError) {
        if deletingEmbedded { try atomically(body) } else { try replicatingAtomically(body) }
    }

    /// The embedded class a map's values are, if they are embedded objects.
    private func embeddedTarget(_ layout: TableLayout, _ map: ListHandle) -> TableLayout? {
        guard map.nested == nil, let target = layout.linkTargets[map.property], catalog.tables[target].isEmbedded else { return nil }
        return catalog.tables[target]
    }

    /// Whether a map's values may be nested collections, which go with
    /// their keys.
    private func mayHoldNestedCollections(_ layout: TableLayout, _ map: ListHandle) -> Bool {
        catalog.hasNestedCollections && elementType(layout, map) == .mixed
    }

    /// Removes `key` and its value; returns whether the map had the key.
    @discardableResult
    public func removeValue(forKey key: String, from map: ListHandle) throws(RealmError) -> Bool {
        let layout = try prepareMapWrite(map, "remove from a map")
        guard let removed = try value(forKey: key, in: map) else { return false }
        let embeddedTarget = embeddedTarget(layout, map)
        try mapChange(deletingEmbedded: embeddedTarget != nil || mayHoldNestedCollections(layout, map)) { () throws(RealmError) in
            let delete = try rowsStatement(.mapDelete, layout, map)
            delete.bind(map.rowOwner, at: 1)
            delete.bind(key, at: 2)
            try delete.run()
            record(.modified(map.owner, property: map.property, classIndex: layout.index))
            try replicate(.mapErased(map, key: key))
            if let embeddedTarget, case .object(let old) = removed { try deleteRecursively(old, in: embeddedTarget) }
            try deleteNestedCollection(in: removed)
        }
        return true
    }

    /// Removes every key.
    public func removeAll(fromMap map: ListHandle) throws(RealmError) {
        let layout = try prepareMapWrite(map, "remove from a map")
        guard try mapCount(of: map) > 0 else { return }
        let embeddedTarget = embeddedTarget(layout, map)
        let mayHoldNested = mayHoldNestedCollections(layout, map)
        var embedded: [ObjectKey] = []
        var nested: [Value] = []
        if embeddedTarget != nil || mayHoldNested {
            try forEachEntry(of: map) { _, value in
                switch value {
                case .object(let key): embedded.append(key)
                case .collection: nested.append(value)
                default: break
                }
            }
        }
        try mapChange(deletingEmbedded: embeddedTarget != nil || !nested.isEmpty) { () throws(RealmError) in
            // Before: a replica records the keys it clears.
            try replicate(.mapCleared(map))
            let clear = try rowsStatement(.clear, layout, map)
            clear.bind(map.rowOwner, at: 1)
            try clear.run()
            record(.modified(map.owner, property: map.property, classIndex: layout.index))
            if let embeddedTarget {
                for key in embedded { try deleteRecursively(key, in: embeddedTarget) }
            }
            for value in nested { try deleteNestedCollection(in: value) }
        }
    }

    /// Stops a key Realm refuses: empty, holding `.`, or starting with `$`.
    static func checkMapKey(_ key: String, _ name: @autoclosure () -> String) throws(RealmError) {
        // Bytes, as realm-core checks them: a '.' or '$' byte is always
        // that character in UTF-8. (`String.contains(".")` is Foundation's
        // substring search, which cost more than the rest of a write.)
        if key.isEmpty || key.utf8.contains(UInt8(ascii: ".")) || key.utf8.first == UInt8(ascii: "$") {
            throw RealmError(.invalidValue, "Invalid key '\(key)' for map \(name()): keys must not be empty, contain '.' or begin with '$'.")
        }
        if key.utf8.count > SchemaLimits.maximumValueSize {
            throw RealmError(.valueTooLarge, "A key of \(key.utf8.count) bytes is too large for map \(name()).")
        }
    }

    private func prepareMapWrite(_ map: ListHandle, _ action: @autoclosure () -> String) throws(RealmError) -> TableLayout {
        try requireWrite(action())
        let layout = try layout(map.owningClass)
        try requireMap(layout, map)
        try requireCollectionOwner(map, layout)
        try requireNestedCollection(map, .dictionary, layout)
        return layout
    }

    /// Checks that a handle names a map: a map property, or a nested
    /// dictionary.
    private func requireMap(_ layout: TableLayout, _ map: ListHandle) throws(RealmError) {
        guard let nested = map.nested else { return try requireMap(layout, map.property) }
        guard nested.kind == .dictionary else {
            throw RealmError(.invalidValue, "\(collectionName(layout, map)) is not a dictionary.")
        }
    }

    private func requireMap(_ layout: TableLayout, _ property: Int) throws(RealmError) {
        guard property >= 0 && property < layout.mapTables.count else {
            throw RealmError(.unknownName, "Class '\(layout.name)' has no property #\(property).")
        }
        guard layout.mapTables[property] != nil else {
            throw RealmError(.invalidValue, "Property \(layout.qualifiedName(property)) is not a map.")
        }
    }
}

extension Transaction {
    /// The elements of a list or set property, or a map's values (in the
    /// order of their keys): what queries see of any collection.
    public func collectionValues(_ property: Int, of owner: ObjectKey, in handle: ClassHandle) throws(RealmError) -> [Value] {
        let layout = try layout(handle)
        let collection = ListHandle(owningClass: handle, owner: owner, property: property)
        guard property >= 0 && property < layout.collectionTables.count else {
            throw RealmError(.unknownName, "Class '\(layout.name)' has no property #\(property).")
        }
        if layout.setTables[property] != nil { return try setValues(of: collection) }
        if layout.mapTables[property] != nil { return try entries(of: collection).map(\.value) }
        return try values(of: collection)
    }
}
