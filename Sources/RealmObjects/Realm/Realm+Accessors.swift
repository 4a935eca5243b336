import Foundation
import RealmCore
import RealmQuery

/// How managed objects and collections reach the database.
extension Realm {
    /// Makes a managed object of `type` for a stored key. The object's `let`
    /// properties (lists, optionals, linking objects) are bound to the Realm.
    /// `handle`, when the caller has it, spares looking the class up again.
    func makeObject<T: Object>(_ type: T.Type, key: ObjectKey, className: String? = nil, handle: ClassHandle? = nil) -> T {
        // A frozen Realm's schema cache is shared by every thread.
        guard !state.isFrozen else {
            return withAccess { makeObjectOnThread(type, key: key, className: className, handle: handle) }
        }
        return makeObjectOnThread(type, key: key, className: className, handle: handle)
    }

    private func makeObjectOnThread<T: Object>(_ type: T.Type, key: ObjectKey, className: String?, handle: ClassHandle?) -> T {
        let object = type.init()
        let name = className ?? ClassNames.name(of: type)
        guard let handle = handle ?? state.handleIfStored(name) else {
            preconditionFailure("The Realm at '\(configuration.identity)' has no class '\(name)'.")
        }
        object._realm = self
        object._key = key
        object._handle = handle
        object._madeAtChange = transaction.changeCounter
        if let dynamic = object as? DynamicObject {
            dynamic.dynamicClassName = name
        }
        let info = object._classInfo
        if !info.boundProperties.isEmpty {
            bindProperties(of: object, info: info, handle: handle)
        }
        return object
    }

    /// Switches the `let` properties of a (newly) managed object to the
    /// database.
    func bindProperties(of object: Object, info: ClassInfo, handle: ClassHandle) {
        for (index, reference) in info.layout.references(of: object) {
            (reference as? ManagedProperty)?.bind(to: self, owner: object._key, ownerHandle: handle, property: index)
        }
    }

    /// Reads a column property of a managed object.
    @usableFromInline
    func readValue(of object: Object, property: Int) -> Value {
        verifyThread(accessing: property, of: object)
        guard state.isFrozen else { return readValueOnThread(of: object, property: property) }
        return withAccess { readValueOnThread(of: object, property: property) }
    }

    /// ``readValue(of:property:)`` on the Realm's thread, or under a frozen
    /// Realm's lock.
    private func readValueOnThread(of object: Object, property: Int) -> Value {
        verifyNotInvalidated(object)
        if let row = object._cursorRow {
            if let value = row.value(of: property, at: object._row, in: transaction) { return value }
            object._cursorRow = nil
        }
        if let batch = object._rowBatch {
            if batch.stamp == transaction.changeCounter {
                return batch.value(row: object._row, property: property)
            }
            object._rowBatch = nil
        }
        do {
            return try transaction.value(of: object._key, property: property, in: object._handle!)
        } catch {
            let name = "'\(Swift.type(of: object).className()).\(object.objectSchema.properties[property].name)'"
            if error.isDamage {
                noteDamage(error, while: "read \(name)")
                return .null
            }
            guard error.kind == .objectNotFound else { preconditionFailure("Failed to read property \(name): \(error)") }
            // An object whose row cannot be read: deleted, unless nothing
            // changed since a query, link or list of this version gave it
            // (a dangling link) or the file's b-trees disagree: damage.
            guard object._madeAtChange == transaction.changeCounter || fileFailsQuickCheck() else {
                preconditionFailure("Object of class '\(Swift.type(of: object).className())' has been deleted or invalidated (reading \(name)).")
            }
            noteDamage(RealmError(.corruptFile, "the object with key \(object._key.rawValue) was found by a query but its row cannot be read"),
                       while: "read \(name)")
            return .null
        }
    }

    /// Writes a column property of a managed object. A value the property
    /// cannot take (over 16 MB, a link into another Realm) changes nothing
    /// and is recorded for the commit to throw.
    @usableFromInline
    func writeValue<V: _Persistable>(_ value: V, of object: Object, property: Int) {
        verifyThread(accessing: property, of: object)
        verifyObjectWritable()
        verifyNotInvalidated(object)
        var name: String { "'\(Swift.type(of: object).className()).\(object.objectSchema.properties[property].name)'" }
        if !isInWriteTransaction {
            preconditionFailure("Attempting to modify object outside of a write transaction - call beginWrite on a Realm instance first (setting \(name)).")
        }
        let transaction = transaction
        recordingFailure(of: "set \(name)") {
            // Only links can hold embedded objects; the casts cost.
            guard V._propertyType == .object else {
                if V._propertyType == .mixed, let mixed = value as? AnyRealmValue, mixed.isNestedCollection {
                    try storeMixed(mixed, at: .property(object._handle!, object._key, property))
                    return
                }
                try transaction.setValue(try value._toValue(in: self), of: object._key, property: property, in: object._handle!)
                return
            }
            try inOneStep(value) {
                if let embedded = value as? EmbeddedObject ?? (value as? EmbeddedObject?) ?? nil {
                    try setEmbedded(embedded, of: object, property: property)
                } else {
                    try transaction.setValue(try value._toValue(in: self), of: object._key, property: property, in: object._handle!)
                }
            }
        }
    }

    /// Whether a managed object's row exists at the version being read.
    func objectExists(_ object: Object) -> Bool {
        guard let handle = object._handle else { return false }
        return objectExists(key: object._key, handle: handle)
    }

    /// Whether the object of `key` exists at the version being read.
    ///
    /// Any thread may ask (`isInvalidated` is usable from any thread, as in
    /// Realm); a frozen Realm's lock is taken.
    func objectExists(key: ObjectKey, handle: ClassHandle) -> Bool {
        guard let lock = state.frozenLock else { return (try? transaction.objectExists(key, in: handle)) ?? false }
        return lock.withLock { (try? transaction.objectExists(key, in: handle)) ?? false }
    }

    func objectExists(key: ObjectKey, className: String) -> Bool {
        withAccess {
            guard let handle = state.handleIfStored(className) else { return false }
            return objectExists(key: key, handle: handle)
        }
    }

    func className(of handle: ClassHandle) -> String {
        handle.className
    }

    func propertyName(_ index: Int, of handle: ClassHandle) -> String {
        perform("read the schema") { try $0.objectSchema(handle).properties[index].name }
    }

    /// The key to store for a link to `object`: its own key when it is
    /// managed by this Realm, or the key of a copy added now when it is
    /// unmanaged (as Realm adds linked objects on assignment).
    func linkKey(for object: Object) throws -> ObjectKey {
        if let realm = object._realm {
            guard realm.configuration.identity == configuration.identity else {
                throw Realm.Error(.fail, "Object of class '\(Swift.type(of: object).className())' is managed by another Realm ('\(realm.configuration.identity)'); use create(_:value:) to copy it.")
            }
            guard !object.isInvalidated else {
                throw Realm.Error(.fail, "Object of class '\(Swift.type(of: object).className())' has been deleted or invalidated.")
            }
            return object._key
        }
        precondition(!(object is EmbeddedObject), "Embedded objects are created through their parent.")
        // A loop of `list.append(Item())` adds one flat object per element.
        // An object set by name (which includes an `init(value:)` that
        // failed) goes to the writer, which reports the failure before it
        // registers the class.
        if object._unmanagedOverrides == nil {
            try state.register(Swift.type(of: object))
            if try addIfFlat(object) { return object._key }
        }
        try ObjectWriter(realm: self).adding { try $0.add(object, update: .error) }
        return object._key
    }

    /// Replaces the embedded object in a to-one property with `embedded`,
    /// which becomes managed (or deletes it for nil).
    func setEmbedded(_ embedded: EmbeddedObject?, of owner: Object, property: Int) throws {
        guard let embedded else {
            try transaction.setValue(.null, of: owner._key, property: property, in: owner._handle!)
            return
        }
        // The object the property holds already: nothing changes, as in
        // Realm.
        if embedded._realm != nil, !embedded.isInvalidated,
           try transaction.value(of: owner._key, property: property, in: owner._handle!) == .object(embedded._key) {
            return
        }
        try requireUnmanaged(embedded, "Cannot set a link to an existing managed embedded object")
        try ObjectWriter(realm: self).adding { try $0.setEmbedded(embedded, owner: owner._key, ownerHandle: owner._handle!, property: property) }
    }

    /// Inserts `embedded`, which becomes managed, into a list of embedded
    /// objects.
    func insertEmbedded(_ embedded: EmbeddedObject, at index: Int, in list: ListHandle) throws {
        try requireUnmanaged(embedded, "Cannot add an existing managed embedded object to a List")
        try ObjectWriter(realm: self).adding { try $0.insertEmbedded(embedded, at: index, in: list) }
    }

    /// Stores a copy of an unmanaged embedded object for `key` in a map of
    /// embedded objects. A managed one is refused, even the one the map
    /// holds there already, as Realm refuses it (where a to-one property
    /// takes its own object again as no change).
    func setEmbedded(_ embedded: EmbeddedObject, forKey key: String, in map: ListHandle) throws {
        try requireUnmanaged(embedded, "Cannot add an existing managed embedded object to a Dictionary")
        try ObjectWriter(realm: self).adding { try $0.setEmbedded(embedded, forKey: key, in: map) }
    }

    /// An embedded object has one parent (seed 004): one that is managed
    /// already cannot be assigned to another, as in Realm. `create` copies
    /// them instead.
    /// `refusal` is Realm's words for the place.
    private func requireUnmanaged(_ embedded: EmbeddedObject, _ refusal: String) throws {
        guard embedded._realm == nil else {
            throw Realm.Error(.fail, "\(refusal) (of class '\(Swift.type(of: embedded).className())'): an embedded object has one parent. Assign a new, unmanaged object instead.")
        }
    }

    // MARK: Queries

    /// `query` further filtered by a format string, checked against the
    /// Realm's schema when the file has the class. A malformed or ill-typed
    /// predicate stops with the parser's message, which quotes it and
    /// points at the offending token.
    func filtered(_ query: Query, by format: String, arguments: [Any]) -> Query {
        do {
            return try checkedFilter(query, by: format, arguments: arguments)
        } catch {
            preconditionFailure("Invalid predicate for class '\(query.className)': \(error.message)")
        }
    }

    /// `query` further filtered by a format string, or an error with code
    /// `invalidPredicate` that quotes the predicate and points at the
    /// offending token.
    func checkedFilter(_ query: Query, by format: String, arguments: [Any]) throws(Realm.Error) -> Query {
        try withAccess { () throws(Realm.Error) -> Query in try checkedFilterOnThread(query, by: format, arguments: arguments) }
    }

    private func checkedFilterOnThread(_ query: Query, by format: String, arguments: [Any]) throws(Realm.Error) -> Query {
        do {
            let converted = try QueryArguments.convert(arguments, format: format, realm: self)
            guard transaction.schema[query.className] != nil else {
                return query.filtered(by: try PredicateParser.parse(format, arguments: converted))
            }
            return try state.filters.filtered(query, by: format, arguments: converted, in: transaction)
        } catch let error as Realm.Error {
            // An argument that cannot stand in a predicate.
            throw error
        } catch let error as QueryError {
            throw Realm.Error(.invalidPredicate, "\(error)")
        } catch {
            // Reading the schema failed: the file, not the predicate.
            throw Realm.Error(wrapping: error)
        }
    }

    /// `query` type-checked against the Realm's schema.
    func validated(_ query: Query) -> Query {
        withAccess {
            guard transaction.schema[query.className] != nil else { return query }
            do {
                return try query.validated(in: transaction)
            } catch {
                preconditionFailure("\(error)")
            }
        }
    }
}

extension Object {
    /// The value of property `property` of this managed object: from the
    /// row a collection read the object in (its cursor's row or a row
    /// batch) while that row is current,
    /// otherwise by key (``Realm/readValue(of:property:)``, which also
    /// stops with the precise message on the wrong thread or an
    /// invalidated object).
    ///
    /// The common case, a current row on the right thread, retains nothing
    /// and takes no lock: it reaches the Realm's state and the row
    /// unretained, through `_state`, `_cursorRowReference` and
    /// `_rowBatchReference`, which `_realm`, `_cursorRow` and `_rowBatch`
    /// keep alive.
    @usableFromInline
    final func _managedValue(_ property: Int) -> Value {
        if let row = _cursorRowReference,
           let value = _readInPlace(row, { $0.value(of: property, at: $1, in: $2) }) {
            return value
        }
        if let batch = _currentRowBatch() {
            return batch._withUnsafeGuaranteedRef { $0.value(row: _row, property: property) }
        }
        return _realm!.readValue(of: self, property: property)
    }

    /// Whether the object may read its rows on this thread: it is on its
    /// Realm's thread and not invalidated.
    @inline(__always)
    private func _isReadable(_ state: Unmanaged<RealmState>) -> Bool {
        state._withUnsafeGuaranteedRef { $0.isOnOwningThread() && _invalidations == $0.invalidations }
    }

    /// Reads through the cursor row a loop handed the object out on, while
    /// the object is used on its Realm's thread and not invalidated; the
    /// row answers nil unless the cursor still stands on the object's row
    /// and the transaction is unchanged (``CursorRow``).
    @inline(__always)
    private func _readInPlace<Result>(_ row: Unmanaged<CursorRow>,
                                      _ read: (CursorRow, Int, Transaction) -> Result?) -> Result? {
        guard let state = _state, _isReadable(state) else { return nil }
        return row._withUnsafeGuaranteedRef { row in
            state._withUnsafeGuaranteedRef { read(row, _row, $0.transaction) }
        }
    }

    /// The row batch the object's values can be read from: the one a
    /// collection read it in, while that is current and the object is used
    /// on its Realm's thread and not invalidated; nil otherwise (then read
    /// through ``_managedValue(_:)``, which also stops with the precise
    /// message on the wrong thread or an invalidated object).
    @inline(__always)
    private func _currentRowBatch() -> Unmanaged<RowBatch>? {
        guard let batch = _rowBatchReference, let state = _state else { return nil }
        let isCurrent = _isReadable(state)
            && state._withUnsafeGuaranteedRef { state in batch._withUnsafeGuaranteedRef { state.transaction.isCurrent($0.stamp) } }
        return isCurrent ? batch : nil
    }

    // The typed reads below spare the accessors of numbers the copy and
    // conversion of a `Value`; nil sends the accessor to `_managedValue`.
    // An object is given a cursor row or a row batch, never both (the
    // factory and the walk set one and clear the other), so a cursor row
    // that is no longer current needs no look at the batch.

    /// Property `property` read in place, when it holds an integer.
    @usableFromInline
    final func _managedInt64(_ property: Int) -> Int64? {
        if let row = _cursorRowReference { return _readInPlace(row, { $0.int64(of: property, at: $1, in: $2) }) }
        guard let batch = _currentRowBatch() else { return nil }
        return batch._withUnsafeGuaranteedRef { $0.int64(row: _row, property: property) }
    }

    /// Property `property` read in place, when it holds a double.
    @usableFromInline
    final func _managedDouble(_ property: Int) -> Double? {
        if let row = _cursorRowReference { return _readInPlace(row, { $0.double(of: property, at: $1, in: $2) }) }
        guard let batch = _currentRowBatch() else { return nil }
        return batch._withUnsafeGuaranteedRef { $0.double(row: _row, property: property) }
    }

    /// Property `property` read in place, when it holds a Boolean.
    @usableFromInline
    final func _managedBool(_ property: Int) -> Bool? {
        if let row = _cursorRowReference { return _readInPlace(row, { $0.bool(of: property, at: $1, in: $2) }) }
        guard let batch = _currentRowBatch() else { return nil }
        return batch._withUnsafeGuaranteedRef { $0.bool(row: _row, property: property) }
    }
}

