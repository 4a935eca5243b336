import Foundation

/// The object store: create, read, update and find objects of a class.
extension Transaction {
    // MARK: Creating

    /// Creates an object and returns its key.
    ///
    /// `values` holds one value per property, in the class's property order;
    /// list and linking-objects properties take `.null` (lists start empty),
    /// and missing trailing values take their defaults (nil for optional
    /// properties, zero or empty for required ones).
    ///
    /// - Throws: `invalidValue` for a value of the wrong type, nil for a
    ///   required property, a value over 16 MB or a link to a missing object;
    ///   `duplicatePrimaryKey` when the primary key is taken. Nothing is
    ///   created then, and the write transaction stays usable.
    @discardableResult
    public func createObject(in handle: ClassHandle, values: [Value] = []) throws(RealmError) -> ObjectKey {
        try requireWrite("create an object")
        let layout = try layout(handle)
        guard !layout.isEmbedded else {
            throw RealmError(.invalidValue, "Cannot create an object of embedded class '\(layout.name)' on its own; create it through its parent with createEmbeddedObject.")
        }
        return try replicatingAtomically { () throws(RealmError) -> ObjectKey in
            let key = try insertRow(layout, values: values)
            try replicate(.created(handle, key))
            return key
        }
    }

    /// Creates an object from values by property name; see
    /// ``createObject(in:values:)-(_,[Value])``.
    @discardableResult
    public func createObject(ofClass className: String, values: [String: Value]) throws(RealmError) -> ObjectKey {
        let handle = try classHandle(named: className)
        let layout = try layout(handle)
        var ordered = [Value](repeating: .null, count: layout.objectSchema.properties.count)
        var given = Array(repeating: false, count: ordered.count)
        for (name, value) in values {
            let index = try propertyIndex(named: name, in: handle)
            ordered[index] = value
            given[index] = true
        }
        for (index, property) in layout.objectSchema.properties.enumerated() where !given[index] {
            ordered[index] = property.defaultValue
        }
        return try createObject(in: handle, values: ordered)
    }

    /// Inserts a row with validated values; records the insertion.
    func insertRow(_ layout: TableLayout, values: [Value]) throws(RealmError) -> ObjectKey {
        let properties = layout.objectSchema.properties
        guard values.count <= properties.count else {
            throw RealmError(.invalidValue, "Too many values (\(values.count)) for class '\(layout.name)', which has \(properties.count) properties.")
        }
        let statement = try statement(layout, .insert)
        var key = ObjectKey(0)
        var parameter: Int32 = 1
        if !layout.isKeyedByPrimaryKey {
            key = try nextKey(for: layout)
            statement.bind(key.rawValue, at: 1)
            parameter = 2
        }
        var primaryKeyValue: Value = .null
        for index in layout.columnProperties {
            // Fields of the property are read in place: copying the whole
            // property would retain its strings, once per value inserted.
            let given = index < values.count ? values[index] : properties[index].defaultValue
            let value = try checkedValue(given, for: layout, property: index)
            if layout.linkTargets[index].map({ catalog.tables[$0].isEmbedded }) == true && !value.isNull {
                throw embeddedLinkError(layout, index)
            }
            if index == layout.primaryKey { primaryKeyValue = value }
            statement.bind(value, at: parameter, as: properties[index].type)
            parameter += 1
        }
        if layout.primaryKey != nil && primaryKeyValue.isNull, try findObject(layout, primaryKey: .null) != nil {
            throw duplicatePrimaryKey(layout, value: .null)
        }
        do {
            try statement.run()
        } catch {
            if error.sqliteCode == Connection.constraintCode, layout.primaryKey != nil {
                throw duplicatePrimaryKey(layout, value: primaryKeyValue)
            }
            throw error
        }
        if layout.isKeyedByPrimaryKey {
            guard case .int(let value) = primaryKeyValue else {
                preconditionFailure("checkedValue lets only ints into the primary key of \(layout.qualifiedName(layout.primaryKey!))")
            }
            key = ObjectKey(value)
        } else {
            nextKeys[layout.index] = key.rawValue + 1
        }
        record(.inserted(key, classIndex: layout.index))
        return key
    }

    /// The next key of a class not keyed by its primary key: never one that
    /// was handed out before, even if the object holding it has been deleted.
    func nextKey(for layout: TableLayout) throws(RealmError) -> ObjectKey {
        if let next = nextKeys[layout.index] { return ObjectKey(next) }
        let stored = try connection.cachedStatement("SELECT next_key FROM realm_classes WHERE name = ?")
        stored.bind(layout.name, at: 1)
        let storedNext = try stored.step() ? stored.int64(at: 0) : 1
        stored.reset()
        // Keys written by another tool than this library must not be reused
        // either.
        let maximum = try statement(layout, .maxKey)
        let largest = try maximum.step() && !maximum.isNull(at: 0) ? maximum.int64(at: 0) : 0
        maximum.reset()
        // Only a class that was keyed by its primary key can hold this key.
        guard largest < Int64.max else {
            throw RealmError(.invalidValue, "Class '\(layout.name)' has an object with key \(Int64.max); no larger key is left to hand out.")
        }
        let next = max(storedNext, largest + 1, coordinator.keyHighWater(forClass: layout.name))
        nextKeys[layout.index] = next
        return ObjectKey(next)
    }

    // MARK: Reading

    /// Whether the object exists at the version being read.
    public func objectExists(_ key: ObjectKey, in handle: ClassHandle) throws(RealmError) -> Bool {
        try exists(key, in: layout(handle))
    }

    func exists(_ key: ObjectKey, in layout: TableLayout) throws(RealmError) -> Bool {
        let statement = try statement(layout, .exists)
        statement.bind(key.rawValue, at: 1)
        defer { statement.reset() }
        return try statement.step()
    }

    /// The value of a column property (not a list or linking objects).
    ///
    /// - Throws: `objectNotFound` when the object does not exist (was
    ///   deleted); `unknownName` for a list or out-of-range property.
    public func value(of key: ObjectKey, property: Int, in handle: ClassHandle) throws(RealmError) -> Value {
        let layout = try layout(handle)
        try requireColumn(layout, property)
        let statement = try statement(layout, .selectColumn(property))
        statement.bind(key.rawValue, at: 1)
        defer { statement.reset() }
        guard try statement.step() else { throw objectNotFound(layout, key) }
        return statement.value(at: 0, as: layout.property(property).type)
    }

    /// The values of every property of an object, in property order, read
    /// with one query; list and linking-objects properties are `.null`.
    public func values(of key: ObjectKey, in handle: ClassHandle) throws(RealmError) -> [Value] {
        let layout = try layout(handle)
        let statement = try statement(layout, .selectRow)
        statement.bind(key.rawValue, at: 1)
        defer { statement.reset() }
        guard try statement.step() else { throw objectNotFound(layout, key) }
        var values = [Value](repeating: .null, count: layout.objectSchema.properties.count)
        for (column, property) in layout.columnProperties.enumerated() {
            values[property] = statement.value(at: Int32(column), as: layout.property(property).type)
        }
        return values
    }

    /// The object whose primary key is `primaryKey`, if any.
    public func object(withPrimaryKey primaryKey: Value, in handle: ClassHandle) throws(RealmError) -> ObjectKey? {
        let layout = try layout(handle)
        guard let property = layout.primaryKey else {
            throw RealmError(.unknownName, "Class '\(layout.name)' has no primary key.")
        }
        let value = try checkedValue(primaryKey, for: layout, property: property)
        return try findObject(layout, primaryKey: value)
    }

    /// The object whose primary key is `primaryKey` with its row, read by
    /// one statement as ``firstRow(sql:arguments:columns:width:)`` reads
    /// one, so that reading its properties next needs no query; nil when
    /// there is no such object.
    public func objectRow(withPrimaryKey primaryKey: Value, in handle: ClassHandle) throws(RealmError) -> ObjectCursor.Element? {
        let layout = try layout(handle)
        guard let property = layout.primaryKey else {
            throw RealmError(.unknownName, "Class '\(layout.name)' has no primary key.")
        }
        let value = try checkedValue(primaryKey, for: layout, property: property)
        let statement = try statement(layout, value.isNull ? .selectRowByNullPrimaryKey : .selectRowByPrimaryKey)
        if !value.isNull { statement.bind(value, at: 1) }
        defer { statement.reset() }
        var exhausted = false
        let batch = try RowBatch.read(from: statement, columns: layout.rowColumns, width: layout.objectSchema.properties.count,
                                     limit: 1, stamp: changeCounter, exhausted: &exhausted)
        return batch.count == 0 ? nil : ObjectCursor.Element(key: batch.key(at: 0), batch: batch, row: 0)
    }

    func findObject(_ layout: TableLayout, primaryKey: Value) throws(RealmError) -> ObjectKey? {
        let statement = try statement(layout, primaryKey.isNull ? .findNullPrimaryKey : .findPrimaryKey)
        if !primaryKey.isNull { statement.bind(primaryKey, at: 1) }
        defer { statement.reset() }
        return try statement.step() ? ObjectKey(statement.int64(at: 0)) : nil
    }

    /// The number of objects of the class.
    public func count(of handle: ClassHandle) throws(RealmError) -> Int {
        let statement = try statement(layout(handle), .count)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return try plausibleCount(statement.int64(at: 0), of: "objects of '\(handle.className)'")
    }

    /// The keys of every object of the class, in key order: creation order,
    /// or primary-key order for a class keyed by its primary key.
    public func objectKeys(in handle: ClassHandle) throws(RealmError) -> [ObjectKey] {
        let statement = try statement(layout(handle), .keys)
        defer { statement.reset() }
        var keys: [ObjectKey] = []
        while try statement.step() {
            keys.append(ObjectKey(statement.int64(at: 0)))
        }
        return keys
    }

    // MARK: Updating

    /// Sets a column property. Setting an embedded-object link to nil deletes
    /// the embedded object; to replace one, use ``createEmbeddedObject(in:owner:property:values:)``.
    ///
    /// - Throws: `invalidValue` (see ``createObject(in:values:)-(_,[Value])``),
    ///   `invalidValue` when changing a primary key outside a migration,
    ///   `objectNotFound` when the object does not exist.
    public func setValue(_ value: Value, of key: ObjectKey, property: Int, in handle: ClassHandle) throws(RealmError) {
        try requireWrite("modify an object")
        var layout = try layout(handle)
        try requireColumn(layout, property)
        let checked = try checkedValue(value, for: layout, property: property)
        if layout.property(property).isPrimaryKey {
            let current = try self.value(of: key, property: property, in: handle)
            guard allowsPrimaryKeyChanges else {
                guard current == checked else {
                    throw RealmError(.invalidValue, "Primary key property \(layout.qualifiedName(property)) cannot be changed after an object is inserted.")
                }
                return
            }
            if current == checked { return }
            if layout.isKeyedByPrimaryKey {
                // The object's key must not change with its primary key:
                // links and lists hold it.
                try atomically { () throws(RealmError) in try separateKeyFromPrimaryKey(in: layout) }
                layout = try self.layout(handle)
            }
        }
        if let target = layout.linkTargets[property], catalog.tables[target].isEmbedded {
            guard checked.isNull else { throw embeddedLinkError(layout, property) }
            try atomically { () throws(RealmError) in
                try replaceEmbeddedLink(of: key, property: property, in: layout, with: nil)
                try replicate(.set(handle, key, property: property, .null))
            }
            return
        }
        if catalog.hasNestedCollections && layout.property(property).type == .mixed {
            // A nested collection goes with the value that held it.
            try atomically { () throws(RealmError) in
                let replaced = try self.value(of: key, property: property, in: handle)
                try updateColumn(layout, key: key, property: property, value: checked)
                try replicate(.set(handle, key, property: property, checked))
                if replaced != checked { try deleteNestedCollection(in: replaced) }
            }
            return
        }
        try replicatingAtomically { () throws(RealmError) in
            try updateColumn(layout, key: key, property: property, value: checked)
            try replicate(.set(handle, key, property: property, checked))
        }
    }

    func updateColumn(_ layout: TableLayout, key: ObjectKey, property: Int, value: Value) throws(RealmError) {
        let statement = try statement(layout, .updateColumn(property))
        statement.bind(value, at: 1, as: layout.property(property).type)
        statement.bind(key.rawValue, at: 2)
        do {
            try statement.run()
        } catch {
            if error.sqliteCode == Connection.constraintCode && layout.property(property).isPrimaryKey {
                throw duplicatePrimaryKey(layout, value: value)
            }
            throw error
        }
        guard connection.changes > 0 else { throw objectNotFound(layout, key) }
        record(.modified(key, property: property, classIndex: layout.index))
    }

    // MARK: Embedded objects

    /// Creates an embedded object as the value of a to-one link property of
    /// `owner`, deleting the embedded object it replaces.
    @discardableResult
    public func createEmbeddedObject(in handle: ClassHandle, owner: ObjectKey, property: Int, values: [Value] = []) throws(RealmError) -> ObjectKey {
        try requireWrite("create an embedded object")
        let layout = try layout(handle)
        try requireColumn(layout, property)
        guard let target = layout.linkTargets[property], catalog.tables[target].isEmbedded else {
            throw RealmError(.invalidValue, "Property \(layout.qualifiedName(property)) does not link to an embedded class.")
        }
        return try atomically { () throws(RealmError) -> ObjectKey in
            guard try exists(owner, in: layout) else { throw objectNotFound(layout, owner) }
            let key = try insertRow(catalog.tables[target], values: values)
            try replaceEmbeddedLink(of: owner, property: property, in: layout, with: key)
            try replicate(.createdEmbedded(self.handle(of: catalog.tables[target]), key, owner: owner, ownerClass: handle,
                                           property: property, listIndex: nil))
            return key
        }
    }

    private func replaceEmbeddedLink(of owner: ObjectKey, property: Int, in layout: TableLayout, with key: ObjectKey?) throws(RealmError) {
        let old = try value(of: owner, property: property, in: handle(of: layout))
        let statement = try statement(layout, .updateColumn(property))
        statement.bind(key.map { Value.object($0) } ?? .null, at: 1)
        statement.bind(owner.rawValue, at: 2)
        try statement.run()
        record(.modified(owner, property: property, classIndex: layout.index))
        if case .object(let oldKey) = old, let target = layout.linkTargets[property] {
            try deleteRecursively(oldKey, in: catalog.tables[target])
        }
    }

    // MARK: Validation

    func requireColumn(_ layout: TableLayout, _ property: Int) throws(RealmError) {
        guard property >= 0 && property < layout.columns.count else {
            throw RealmError(.unknownName, "Class '\(layout.name)' has no property #\(property); it has \(layout.columns.count).")
        }
        guard layout.columns[property] != nil else {
            let definition = layout.property(property)
            let kind = definition.isList ? "a list; use the list operations" : definition.isSet ? "a set; use the set operations"
                : definition.isMap ? "a map; use the map operations" : "computed from links and cannot be read or set"
            throw RealmError(.invalidValue, "Property \(layout.qualifiedName(property)) is \(kind).")
        }
    }

    /// `value` checked against a column property: type, nil, size, and that
    /// a linked object exists.
    func checkedValue(_ value: Value, for layout: TableLayout, property index: Int) throws(RealmError) -> Value {
        let type = layout.objectSchema.properties[index].type
        let isOptional = layout.objectSchema.properties[index].isOptional
        try checkElement(value, type: type, isOptional: isOptional || type == .object,
                         name: layout.qualifiedName(index), target: layout.linkTargets[index])
        return value
    }

    /// Checks one value (or list element) against a type.
    func checkElement(_ value: Value, type: PropertyType, isOptional: Bool, name: @autoclosure () -> String, target: Int?) throws(RealmError) {
        if type == .mixed { return try checkMixed(value, name: name()) }
        guard let valueType = value.type else {
            guard isOptional else {
                throw RealmError(.missingValue, "Property \(name()) is required and cannot be nil.")
            }
            return
        }
        guard valueType == type else {
            throw RealmError(.wrongType, "Invalid value \(value) of type '\(valueType)' for property \(name()) of type '\(type)'.")
        }
        switch value {
        case .string(let string) where string.utf8.count > SchemaLimits.maximumValueSize:
            throw RealmError(.valueTooLarge, "A string of \(string.utf8.count) bytes is too large for property \(name()): the limit is \(SchemaLimits.maximumValueSize) bytes (16 MB).")
        case .data(let data) where data.count > SchemaLimits.maximumValueSize:
            throw RealmError(.valueTooLarge, "Data of \(data.count) bytes is too large for property \(name()): the limit is \(SchemaLimits.maximumValueSize) bytes (16 MB).")
        case .object(let key):
            if let target, try !exists(key, in: catalog.tables[target]) {
                throw RealmError(.invalidValue, "Property \(name()) cannot link to object \(key.rawValue) of class '\(catalog.tables[target].name)': no such object exists.")
            }
        default:
            break
        }
    }

    /// Checks a value for a mixed property or element: any value, within
    /// the size limits; a link names its class, which must hold the object
    /// and not be embedded.
    private func checkMixed(_ value: Value, name: @autoclosure () -> String) throws(RealmError) {
        switch value {
        case .string(let string) where string.utf8.count > SchemaLimits.maximumValueSize:
            throw RealmError(.valueTooLarge, "A string of \(string.utf8.count) bytes is too large for property \(name()): the limit is \(SchemaLimits.maximumValueSize) bytes (16 MB).")
        case .data(let data) where data.count > SchemaLimits.maximumValueSize:
            throw RealmError(.valueTooLarge, "Data of \(data.count) bytes is too large for property \(name()): the limit is \(SchemaLimits.maximumValueSize) bytes (16 MB).")
        case .object:
            throw RealmError(.invalidValue, "Property \(name()) holds mixed values: a link in it must name its class.")
        case .collection(let collection):
            guard collection == admittedNestedCollection else {
                throw RealmError(.invalidValue, "Property \(name()) cannot be given \(collection) as a value: a nested collection is created in its place (setNestedCollection, insertNestedCollection), never copied or moved.")
            }
        case .link(let className, let key):
            guard let index = catalog.tableIndex(named: className) else {
                throw RealmError(.invalidValue, "Property \(name()) cannot link to class '\(className)', which is not in the schema.")
            }
            let target = catalog.tables[index]
            if target.isEmbedded {
                throw RealmError(.invalidValue, "Property \(name()) cannot hold embedded objects of class '\(className)'.")
            }
            guard try exists(key, in: target) else {
                throw RealmError(.invalidValue, "Property \(name()) cannot link to object \(key.rawValue) of class '\(className)': no such object exists.")
            }
        default:
            break
        }
    }

    func objectNotFound(_ layout: TableLayout, _ key: ObjectKey) -> RealmError {
        RealmError(.objectNotFound, "Object \(key.rawValue) of class '\(layout.name)' does not exist: it has been deleted or was never created in '\(coordinator.path)'.")
    }

    func duplicatePrimaryKey(_ layout: TableLayout, value: Value) -> RealmError {
        RealmError(.duplicatePrimaryKey, "Attempting to create an object of type '\(layout.name)' with an existing primary key value \(value) (property \(layout.qualifiedName(layout.primaryKey ?? 0))).")
    }

    func embeddedLinkError(_ layout: TableLayout, _ property: Int) -> RealmError {
        RealmError(.invalidValue, "Property \(layout.qualifiedName(property)) links to an embedded class; embedded objects are created through their parent (createEmbeddedObject) and cannot be linked directly.")
    }
}
