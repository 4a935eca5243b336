/// Sets of values and of links (`MutableSet`), stored one row per element
/// in the set property's table, unique by owner and value, so that
/// membership, insertion and removal are index lookups.
///
/// Equal values are one element: strings by code points, numbers by value
/// (`0.0` and `-0.0` alike), decimals by value (`1.5` and `1.50` alike),
/// nil once. A set's elements come in the order of their values, as SQL
/// orders them (decimals, stored as text, in Decimal128's order).
extension Transaction {
    /// Whether the set holds `value`.
    public func setContains(_ value: Value, in set: ListHandle) throws(RealmError) -> Bool {
        let layout = try layout(set.owningClass)
        try requireSet(layout, set.property)
        return try storedMember(equalTo: value, layout, set) != nil
    }

    /// The set's elements, in the order of their values.
    public func setValues(of set: ListHandle) throws(RealmError) -> [Value] {
        var values: [Value] = []
        try forEachSetValue(of: set) { values.append($0) }
        return values
    }

    /// Calls `body` with each of the set's elements, in the order of their
    /// values, as they are read: for callers that convert them, so that no
    /// array of `Value`s is made on the way.
    public func forEachSetValue(of set: ListHandle, _ body: (Value) -> Void) throws(RealmError) {
        let layout = try layout(set.owningClass)
        try requireSet(layout, set.property)
        let type = layout.property(set.property).type
        let statement = try statement(layout, .setAll(set.property))
        statement.bind(set.owner.rawValue, at: 1)
        defer { statement.reset() }
        guard type == .decimal else {
            while try statement.step() { body(statement.value(at: 0, as: type)) }
            return
        }
        // SQL orders the text of decimals as text.
        var values: [Value] = []
        while try statement.step() { values.append(statement.value(at: 0, as: type)) }
        values.sort { Self.decimalOrder($0, $1) }
        values.forEach(body)
    }

    /// A cursor over a set's elements, in the order of their values.
    package func setCursor(of set: ListHandle) throws(RealmError) -> CollectionCursor {
        let layout = try layout(set.owningClass)
        try requireSet(layout, set.property)
        let type = layout.propertyType(set.property)
        guard type != .decimal else {
            // SQL orders the text of decimals as text: they are read and
            // ordered at once.
            var elements: [(key: String, value: Value)] = []
            try forEachSetValue(of: set) { elements.append(("", $0)) }
            return CollectionCursor(transaction: self, entries: elements, valueType: type)
        }
        let statement = try pooledStatement(sql: StatementKind.setAll(set.property).sql(for: layout), arguments: [.int(set.owner.rawValue)])
        return register(CollectionCursor(transaction: self, statement: statement, valueType: type, valueColumn: 0))
    }

    /// As ``forEachSetValue(of:_:)``, for a set of `T`'s property type:
    /// each element `T`'s columns hold natively goes to `native`, read
    /// without a ``Value``, and any other (NULL, damaged) to `other`.
    /// Returns false, calling neither, when the set holds another type.
    ///
    /// Specialized for the conforming types, so that a caller that names one
    /// reads each element without generic calls.
    @_specialize(exported: true, where T == Int)
    @_specialize(exported: true, where T == Double)
    @_specialize(exported: true, where T == String)
    package func forEachSetElement<T: NativeColumnValue>(of set: ListHandle, as type: T.Type, _ native: (T) -> Void,
                                                         other: (Value) -> Void) throws(RealmError) -> Bool {
        let layout = try layout(set.owningClass)
        try requireSet(layout, set.property)
        let propertyType = layout.property(set.property).type
        guard propertyType == T.nativePropertyType else { return false }
        let statement = try statement(layout, .setAll(set.property))
        statement.bind(set.owner.rawValue, at: 1)
        defer { statement.reset() }
        while try statement.step() {
            if let value = T.nativeValue(statement, at: 0) { native(value) } else { other(statement.value(at: 0, as: propertyType)) }
        }
        return true
    }

    /// The number of elements.
    public func setCount(of set: ListHandle) throws(RealmError) -> Int {
        let layout = try layout(set.owningClass)
        try requireSet(layout, set.property)
        let statement = try statement(layout, .setCount(set.property))
        statement.bind(set.owner.rawValue, at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return Int(statement.int64(at: 0))
    }

    /// Adds `value` unless the set holds it; returns whether it was added.
    ///
    /// - Throws: `wrongType`/`missingValue` for a value that does not fit
    ///   the element type, `invalidValue` for a link to no object,
    ///   `objectNotFound` when the owner was deleted.
    @discardableResult
    public func insert(_ value: Value, intoSet set: ListHandle) throws(RealmError) -> Bool {
        let layout = try prepareSetWrite(set, "insert into a set")
        let type = layout.propertyType(set.property)
        try checkElement(value, type: type, isOptional: layout.isOptional(set.property) && type != .object,
                         name: "\(layout.qualifiedName(set.property)) (set element)", target: layout.linkTargets[set.property])
        // UNIQUE lets NULLs by and compares decimal text as text: those are
        // looked for first; the constraint finds any other value.
        if value.isNull || type == .decimal || type == .mixed {
            guard try storedMember(equalTo: value, layout, set) == nil else { return false }
        }
        // One statement, atomic on its own: no savepoint (unless a replica
        // records it).
        return try replicatingAtomically { () throws(RealmError) -> Bool in
            let insert = try statement(layout, .setInsert(set.property))
            insert.bind(set.owner.rawValue, at: 1)
            insert.bind(value, at: 2, as: type)
            try insert.run()
            guard connection.changes > 0 else { return false }
            record(.modified(set.owner, property: set.property, classIndex: layout.index))
            try replicate(.setInserted(set, value))
            return true
        }
    }

    /// Removes `value` if the set holds it; returns whether it did.
    @discardableResult
    public func remove(_ value: Value, fromSet set: ListHandle) throws(RealmError) -> Bool {
        let layout = try prepareSetWrite(set, "remove from a set")
        guard let stored = try storedMember(equalTo: value, layout, set) else { return false }
        try replicatingAtomically { () throws(RealmError) in
            let delete = try statement(layout, .setDelete(set.property))
            delete.bind(set.owner.rawValue, at: 1)
            delete.bind(stored, at: 2, as: layout.property(set.property).type)
            try delete.run()
            record(.modified(set.owner, property: set.property, classIndex: layout.index))
            try replicate(.setErased(set, stored))
        }
        return true
    }

    /// Removes every element.
    public func removeAll(fromSet set: ListHandle) throws(RealmError) {
        let layout = try prepareSetWrite(set, "remove from a set")
        guard try setCount(of: set) > 0 else { return }
        try replicatingAtomically { () throws(RealmError) in
            // Before: a replica records the members it clears.
            try replicate(.setCleared(set))
            let clear = try statement(layout, .listClear(set.property))
            clear.bind(set.owner.rawValue, at: 1)
            try clear.run()
            record(.modified(set.owner, property: set.property, classIndex: layout.index))
        }
    }

    // MARK: Rows

    /// The stored element equal to `value` (for a decimal, perhaps with
    /// another exponent), or nil.
    private func storedMember(equalTo value: Value, _ layout: TableLayout, _ set: ListHandle) throws(RealmError) -> Value? {
        if case .decimal(let decimal) = value {
            // Text equality is not decimal equality (1.5, 1.50): compare
            // the values.
            return try setValues(of: set).first { if case .decimal(let stored) = $0 { stored == decimal } else { false } }
        }
        let statement = try statement(layout, .setContains(set.property))
        statement.bind(set.owner.rawValue, at: 1)
        statement.bind(value, at: 2, as: layout.property(set.property).type)
        defer { statement.reset() }
        return try statement.step() ? value : nil
    }

    private func prepareSetWrite(_ set: ListHandle, _ action: @autoclosure () -> String) throws(RealmError) -> TableLayout {
        try requireWrite(action())
        let layout = try layout(set.owningClass)
        try requireSet(layout, set.property)
        try requireCollectionOwner(set, layout)
        return layout
    }

    /// Stops a write to a set or map of an object that does not exist. The
    /// owner found last is not looked up again while nothing could have
    /// deleted it (``listEpoch`` stands still).
    func requireCollectionOwner(_ collection: ListHandle, _ layout: TableLayout) throws(RealmError) {
        if let last = lastCollectionOwner, last.epoch == listEpoch, last.owner == collection.owner,
           last.owningClass == collection.owningClass {
            return
        }
        guard try exists(collection.owner, in: layout) else { throw objectNotFound(layout, collection.owner) }
        lastCollectionOwner = (collection.owner, collection.owningClass, listEpoch)
    }

    private func requireSet(_ layout: TableLayout, _ property: Int) throws(RealmError) {
        guard property >= 0 && property < layout.setTables.count else {
            throw RealmError(.unknownName, "Class '\(layout.name)' has no property #\(property).")
        }
        guard layout.setTables[property] != nil else {
            throw RealmError(.invalidValue, "Property \(layout.qualifiedName(property)) is not a set.")
        }
    }

    /// Decimal128's order for stored decimals, nil first.
    static func decimalOrder(_ left: Value, _ right: Value) -> Bool {
        switch (left, right) {
        case (.decimal(let a), .decimal(let b)): a < b
        case (.null, .decimal): true
        default: false
        }
    }
}
