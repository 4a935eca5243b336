/// Lists of values and of links, stored one row per element in the list
/// property's table, keyed by owner and a dense position, so that reading
/// the element at an index, the count and appending are index lookups.
extension Transaction {
    /// The list stored in property `property` of `owner`.
    ///
    /// - Throws: `invalidValue` when the property is not a list.
    public func list(_ property: Int, of owner: ObjectKey, in handle: ClassHandle) throws(RealmError) -> ListHandle {
        let layout = try layout(handle)
        try requireList(layout, property)
        return ListHandle(owningClass: handle, owner: owner, property: property)
    }

    /// The number of elements; O(log n).
    public func count(of list: ListHandle) throws(RealmError) -> Int {
        try listCount(layout(list.owningClass), list)
    }

    /// The element at `index`.
    ///
    /// - Throws: `indexOutOfBounds`.
    public func value(at index: Int, in list: ListHandle) throws(RealmError) -> Value {
        let layout = try layout(list.owningClass)
        let statement = try rowsStatement(.listGet, layout, list)
        statement.bind(list.rowOwner, at: 1)
        statement.bind(Int64(index), at: 2)
        defer { statement.reset() }
        guard try statement.step() else {
            let count = try listCount(layout, list)
            // Positions run 0..<count in a sound file.
            guard index >= count || index < 0 else {
                throw RealmError(.corruptFile, "List \(collectionName(layout, list)) of object \(list.owner.rawValue) counts \(count) elements but has none at position \(index).")
            }
            throw outOfBounds(index, count: count, layout, list)
        }
        return statement.value(at: 0, as: elementType(layout, list))
    }

    /// Every element, in order, read with one query.
    public func values(of list: ListHandle) throws(RealmError) -> [Value] {
        let layout = try layout(list.owningClass)
        let type = elementType(layout, list)
        let statement = try rowsStatement(.listAll, layout, list)
        statement.bind(list.rowOwner, at: 1)
        defer { statement.reset() }
        var values: [Value] = []
        while try statement.step() {
            values.append(statement.value(at: 0, as: type))
        }
        return values
    }

    /// Inserts `value` at `index` (0...count), moving later elements up.
    ///
    /// - Throws: `invalidValue` for a value that does not fit the list's
    ///   element type (or a link to an embedded object: use
    ///   ``insertEmbeddedObject(at:in:values:)``), `indexOutOfBounds`,
    ///   `objectNotFound` when the owner was deleted.
    public func insert(_ value: Value, at index: Int, in list: ListHandle) throws(RealmError) {
        try insertElement(value, at: index, in: list)
    }

    /// Appends `value`; see ``insert(_:at:in:)``.
    ///
    /// - Parameter targetIsNew: `value` links to an object the caller
    ///   created in this transaction and has not deleted, so the link's
    ///   target need not be looked up.
    public func append(_ value: Value, to list: ListHandle, targetIsNew: Bool = false) throws(RealmError) {
        try insertElement(value, at: nil, in: list, checkingTarget: !targetIsNew)
    }

    /// Inserts at `index`, or at the end when nil (counting only once).
    private func insertElement(_ value: Value, at requestedIndex: Int?, in list: ListHandle,
                               checkingTarget: Bool = true) throws(RealmError) {
        let (layout, count): (TableLayout, Int)
        if requestedIndex == nil, let last = lastAppend, last.epoch == listEpoch, last.list == list {
            // Appending again to the list appended to last, with nothing
            // since that could change its length or remove its owner.
            try requireWrite("insert into a list")
            (layout, count) = (try self.layout(list.owningClass), last.length)
        } else {
            (layout, count) = try prepareListWrite(list, "insert into a list")
        }
        let index = requestedIndex ?? count
        try checkListElement(value, layout, list, checkingTarget: checkingTarget)
        if let target = layout.linkTargets[list.property], catalog.tables[target].isEmbedded {
            throw embeddedLinkError(layout, list.property)
        }
        guard index >= 0 && index <= count else { throw outOfBounds(index, count: count + 1, layout, list) }
        guard index < count else {
            // One INSERT, atomic on its own: a savepoint would only copy the
            // list's last page aside, once per element appended.
            try replicatingAtomically { () throws(RealmError) in
                try insertListRow(layout, list, value, at: index, count: count)
                try replicate(.listInserted(list, index: index, value))
            }
            // Recording the insertion moved the epoch: remember the length
            // as of now (a savepoint's rollback moves it again).
            lastAppend = (list, listEpoch, count + 1)
            return
        }
        try atomically { () throws(RealmError) in
            try insertListRow(layout, list, value, at: index, count: count)
            try replicate(.listInserted(list, index: index, value))
        }
    }

    /// Removes the element at `index`, moving later elements down; an
    /// embedded object removed from its list is deleted.
    public func remove(at index: Int, from list: ListHandle) throws(RealmError) {
        let (layout, count) = try prepareListWrite(list, "remove from a list")
        guard index >= 0 && index < count else { throw outOfBounds(index, count: count, layout, list) }
        try atomically { () throws(RealmError) in
            let embedded = try embeddedElement(layout, list, at: index)
            let nested = try nestedElement(layout, list, at: index)
            try removeListRow(layout, list, at: index, count: count)
            if let (key, target) = embedded { try deleteRecursively(key, in: target) }
            try deleteNestedCollection(in: nested)
            try replicate(.listErased(list, index: index))
        }
    }

    /// Moves the element at `source` to `destination`; indices are those of
    /// the list before the move.
    public func move(from source: Int, to destination: Int, in list: ListHandle) throws(RealmError) {
        let (layout, count) = try prepareListWrite(list, "move within a list")
        guard source >= 0 && source < count else { throw outOfBounds(source, count: count, layout, list) }
        guard destination >= 0 && destination < count else { throw outOfBounds(destination, count: count, layout, list) }
        guard source != destination else { return }
        try atomically { () throws(RealmError) in
            let value = try self.value(at: source, in: list)
            try removeListRow(layout, list, at: source, count: count, recording: false)
            try insertListRow(layout, list, value, at: destination, count: count - 1, recording: false)
            recordListChange(layout, list, countBefore: count, .move(from: source, to: destination))
            try replicate(.listMoved(list, from: source, to: destination))
        }
    }

    /// Exchanges the elements at `first` and `second`.
    public func swapAt(_ first: Int, _ second: Int, in list: ListHandle) throws(RealmError) {
        let (layout, count) = try prepareListWrite(list, "swap list elements")
        guard first >= 0 && first < count else { throw outOfBounds(first, count: count, layout, list) }
        guard second >= 0 && second < count else { throw outOfBounds(second, count: count, layout, list) }
        guard first != second else { return }
        let (low, high) = (min(first, second), max(first, second))
        try atomically { () throws(RealmError) in
            let lowValue = try value(at: low, in: list)
            let highValue = try value(at: high, in: list)
            try setListRow(layout, list, highValue, at: low)
            try setListRow(layout, list, lowValue, at: high)
            // As two moves, so that observers see the elements travel.
            recordListChange(layout, list, countBefore: count, .move(from: low, to: high))
            recordListChange(layout, list, countBefore: count, .move(from: high - 1, to: low))
            try replicate(.listSwapped(list, first: first, second: second))
        }
    }

    /// Replaces the element at `index`; an embedded object replaced is
    /// deleted.
    public func replace(at index: Int, with value: Value, in list: ListHandle) throws(RealmError) {
        let (layout, count) = try prepareListWrite(list, "replace a list element")
        try checkListElement(value, layout, list)
        if let target = layout.linkTargets[list.property], catalog.tables[target].isEmbedded {
            throw embeddedLinkError(layout, list.property)
        }
        guard index >= 0 && index < count else { throw outOfBounds(index, count: count, layout, list) }
        try atomically { () throws(RealmError) in
            let nested = try nestedElement(layout, list, at: index)
            try setListRow(layout, list, value, at: index)
            recordListChange(layout, list, countBefore: count, .modify(index))
            try deleteNestedCollection(in: nested)
            try replicate(.listSet(list, index: index, value))
        }
    }

    /// Removes every element; embedded objects are deleted.
    public func removeAll(from list: ListHandle) throws(RealmError) {
        let (layout, count) = try prepareListWrite(list, "remove from a list")
        guard count > 0 else { return }
        try atomically { () throws(RealmError) in
            var embedded: [ObjectKey] = []
            if let target = layout.linkTargets[list.property], catalog.tables[target].isEmbedded {
                embedded = try values(of: list).compactMap { if case .object(let key) = $0 { key } else { nil } }
            }
            let nested = elementType(layout, list) == .mixed && catalog.hasNestedCollections
                ? try values(of: list).filter { if case .collection = $0 { true } else { false } } : []
            let clear = try rowsStatement(.clear, layout, list)
            clear.bind(list.rowOwner, at: 1)
            try clear.run()
            recordListChange(layout, list, countBefore: count, .removeAll)
            if let target = layout.linkTargets[list.property] {
                for key in embedded { try deleteRecursively(key, in: catalog.tables[target]) }
            }
            for value in nested { try deleteNestedCollection(in: value) }
            try replicate(.listCleared(list))
        }
    }

    /// Creates an embedded object and inserts it into a list of embedded
    /// objects at `index`.
    @discardableResult
    public func insertEmbeddedObject(at index: Int, in list: ListHandle, values: [Value] = []) throws(RealmError) -> ObjectKey {
        let (layout, count) = try prepareListWrite(list, "insert into a list")
        guard let target = layout.linkTargets[list.property], catalog.tables[target].isEmbedded else {
            throw RealmError(.invalidValue, "List \(layout.qualifiedName(list.property)) does not hold embedded objects.")
        }
        guard index >= 0 && index <= count else { throw outOfBounds(index, count: count + 1, layout, list) }
        return try atomically { () throws(RealmError) -> ObjectKey in
            let key = try insertRow(catalog.tables[target], values: values)
            try insertListRow(layout, list, .object(key), at: index, count: count)
            try replicate(.createdEmbedded(handle(of: catalog.tables[target]), key, owner: list.owner, ownerClass: list.owningClass,
                                           property: list.property, listIndex: index))
            return key
        }
    }

    /// Appends a new embedded object; see ``insertEmbeddedObject(at:in:values:)``.
    @discardableResult
    public func appendEmbeddedObject(to list: ListHandle, values: [Value] = []) throws(RealmError) -> ObjectKey {
        try insertEmbeddedObject(at: try count(of: list), in: list, values: values)
    }

    // MARK: Backlinks

    /// The objects of class `source` that link to `key` through `property`,
    /// once per link (an object whose list holds `key` twice appears twice),
    /// ordered by key.
    public func linkingObjects(to key: ObjectKey, from source: ClassHandle, property: Int) throws(RealmError) -> [ObjectKey] {
        let layout = try layout(source)
        guard property >= 0 && property < layout.linkTargets.count, layout.linkTargets[property] != nil else {
            throw RealmError(.invalidValue, "Property #\(property) of class '\(layout.name)' is not a link.")
        }
        let statement = try layout.listTables[property] != nil
            ? self.statement(layout, .listLinkingOwners(property))
            : self.statement(layout, .linkingKeys(property))
        statement.bind(key.rawValue, at: 1)
        defer { statement.reset() }
        var keys: [ObjectKey] = []
        while try statement.step() {
            keys.append(ObjectKey(statement.int64(at: 0)))
        }
        return keys
    }

    /// Where the mixed property `property` of class `source` links to the
    /// object `key` of class `className`: each owner whose value does, or,
    /// for a list of mixed values, each owner and row of an element that
    /// does, ordered by owner and row. (Sets and maps are not looked in.)
    ///
    /// The values are indexed, so this costs a lookup, not a scan.
    public func mixedLinks(to key: ObjectKey, ofClass className: String, from source: ClassHandle,
                           property: Int) throws(RealmError) -> [(owner: ObjectKey, row: Int?)] {
        let layout = try layout(source)
        guard property >= 0 && property < layout.objectSchema.properties.count, layout.property(property).type == .mixed else {
            throw RealmError(.invalidValue, "Property #\(property) of class '\(layout.name)' is not a mixed value.")
        }
        let definition = layout.property(property)
        let statement: Statement
        if definition.isList {
            statement = try connection.cachedStatement(
                "SELECT owner, position FROM \(layout.collectionTables[property]!) WHERE value = ? ORDER BY owner, position")
        } else if !definition.isCollection {
            statement = try connection.cachedStatement("SELECT _key, NULL FROM \(layout.table) WHERE \(layout.columns[property]!) = ? ORDER BY _key")
        } else {
            return []
        }
        statement.bind(Value.link(className: className, key: key), at: 1)
        defer { statement.reset() }
        var found: [(owner: ObjectKey, row: Int?)] = []
        while try statement.step() {
            found.append((ObjectKey(statement.int64(at: 0)), statement.isNull(at: 1) ? nil : Int(statement.int64(at: 1))))
        }
        return found
    }

    // MARK: Rows

    func listCount(_ layout: TableLayout, _ list: ListHandle) throws(RealmError) -> Int {
        let statement = try rowsStatement(.listCount, layout, list)
        statement.bind(list.rowOwner, at: 1)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(at: 0) else { return 0 }
        return try plausibleCount(statement.int64(at: 0) &+ 1, of: "elements in list \(collectionName(layout, list))")
    }

    private func prepareListWrite(_ list: ListHandle, _ action: @autoclosure () -> String) throws(RealmError) -> (TableLayout, Int) {
        try requireWrite(action())
        let layout = try layout(list.owningClass)
        if list.nested == nil { try requireList(layout, list.property) }
        // The owner's existence and the list's length, in one statement.
        let statement = try rowsStatement(.listOwnerAndLastPosition, layout, list)
        statement.bind(list.rowOwner, at: 1)
        defer { statement.reset() }
        guard try statement.step(), !statement.isNull(at: 0) else {
            if list.nested != nil { try requireNestedCollection(list, .list, layout) }
            throw objectNotFound(layout, list.owner)
        }
        return (layout, statement.isNull(at: 1) ? 0 : Int(statement.int64(at: 1)) + 1)
    }

    private func insertListRow(_ layout: TableLayout, _ list: ListHandle, _ value: Value, at index: Int, count: Int, recording: Bool = true) throws(RealmError) {
        if index < count {
            let open = try rowsStatement(.listOpenGap, layout, list)
            open.bind(list.rowOwner, at: 1)
            open.bind(Int64(index), at: 2)
            try open.run()
            try settle(layout, list)
        }
        let insert = try rowsStatement(.listInsert, layout, list)
        insert.bind(list.rowOwner, at: 1)
        insert.bind(Int64(index), at: 2)
        insert.bind(value, at: 3, as: elementType(layout, list))
        try insert.run()
        if recording { recordListChange(layout, list, countBefore: count, .insert(index)) }
    }

    func removeListRow(_ layout: TableLayout, _ list: ListHandle, at index: Int, count: Int, recording: Bool = true) throws(RealmError) {
        let delete = try rowsStatement(.listDelete, layout, list)
        delete.bind(list.rowOwner, at: 1)
        delete.bind(Int64(index), at: 2)
        try delete.run()
        if index < count - 1 {
            let close = try rowsStatement(.listCloseGap, layout, list)
            close.bind(list.rowOwner, at: 1)
            close.bind(Int64(index), at: 2)
            try close.run()
            try settle(layout, list)
        }
        if recording { recordListChange(layout, list, countBefore: count, .remove(index)) }
    }

    private func settle(_ layout: TableLayout, _ list: ListHandle) throws(RealmError) {
        let settle = try rowsStatement(.listSettle, layout, list)
        settle.bind(list.rowOwner, at: 1)
        try settle.run()
    }

    private func setListRow(_ layout: TableLayout, _ list: ListHandle, _ value: Value, at index: Int) throws(RealmError) {
        let set = try rowsStatement(.listSet, layout, list)
        set.bind(value, at: 1, as: elementType(layout, list))
        set.bind(list.rowOwner, at: 2)
        set.bind(Int64(index), at: 3)
        try set.run()
    }

    /// The value at `index` when it may hold a nested collection (a list of
    /// mixed values in a file that has them), to delete it with its place.
    private func nestedElement(_ layout: TableLayout, _ list: ListHandle, at index: Int) throws(RealmError) -> Value? {
        guard catalog.hasNestedCollections, elementType(layout, list) == .mixed else { return nil }
        return try value(at: index, in: list)
    }

    private func embeddedElement(_ layout: TableLayout, _ list: ListHandle, at index: Int) throws(RealmError) -> (ObjectKey, TableLayout)? {
        guard let target = layout.linkTargets[list.property], catalog.tables[target].isEmbedded,
              case .object(let key) = try value(at: index, in: list) else { return nil }
        return (key, catalog.tables[target])
    }

    private func requireList(_ layout: TableLayout, _ property: Int) throws(RealmError) {
        guard property >= 0 && property < layout.listTables.count else {
            throw RealmError(.unknownName, "Class '\(layout.name)' has no property #\(property).")
        }
        guard layout.listTables[property] != nil else {
            throw RealmError(.invalidValue, "Property \(layout.qualifiedName(property)) is not a list.")
        }
    }

    private func checkListElement(_ value: Value, _ layout: TableLayout, _ list: ListHandle,
                                  checkingTarget: Bool = true) throws(RealmError) {
        guard list.nested == nil else {
            return try checkElement(value, type: .mixed, isOptional: true, name: "\(collectionName(layout, list)) (list element)", target: nil)
        }
        let type = layout.propertyType(list.property)
        try checkElement(value, type: type, isOptional: layout.isOptional(list.property) && type != .object,
                         name: "\(layout.qualifiedName(list.property)) (list element)",
                         target: checkingTarget ? layout.linkTargets[list.property] : nil)
    }

    private func outOfBounds(_ index: Int, count: Int, _ layout: TableLayout, _ list: ListHandle) -> RealmError {
        RealmError(.indexOutOfBounds, "Index \(index) is out of bounds (must be less than \(count)) for list \(collectionName(layout, list)) of object \(list.owner.rawValue).")
    }
}
