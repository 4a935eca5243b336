/// Deleting objects, with Realm's semantics: to-one links to a deleted
/// object become nil, lists drop it, and embedded objects are deleted with
/// their parent.
extension Transaction {
    /// Deletes an object.
    ///
    /// - Throws: `objectNotFound` when it does not exist; nothing is changed.
    public func deleteObject(_ key: ObjectKey, in handle: ClassHandle) throws(RealmError) {
        try deleteObjects(CollectionOfOne(key), in: handle)
    }

    /// Deletes several objects of one class, all or none.
    ///
    /// - Throws: `objectNotFound` when one of them does not exist; nothing
    ///   is deleted then.
    public func deleteObjects(_ keys: some Sequence<ObjectKey>, in handle: ClassHandle) throws(RealmError) {
        try requireWrite("delete objects")
        let layout = try layout(handle)
        if layout.standsAlone {
            try deleteStandaloneObjects(keys, in: layout)
            return
        }
        try atomically { () throws(RealmError) in
            for key in keys {
                guard try exists(key, in: layout) else { throw objectNotFound(layout, key) }
                try replicate(.erased(handle, key))
                try deleteRecursively(key, in: layout)
            }
        }
    }

    /// Deletes objects of a class nothing links to and that has no lists
    /// or embedded objects: one statement for all of them.
    private func deleteStandaloneObjects(_ keys: some Sequence<ObjectKey>, in layout: TableLayout) throws(RealmError) {
        let unique = Set(keys)
        guard !unique.isEmpty else { return }
        let sorted = unique.sorted { $0.rawValue < $1.rawValue }
        var json = "["
        json.reserveCapacity(sorted.count * 8 + 2)
        for (position, key) in sorted.enumerated() {
            if position > 0 { json += "," }
            json += String(key.rawValue)
        }
        json += "]"
        var allExisted = true
        do {
            try atomically { () throws(RealmError) in
                for key in sorted { try replicate(.erased(handle(of: layout), key)) }
                try noteDeletions(in: layout)
                let statement = try statement(layout, .deleteKeys)
                statement.bind(json, at: 1)
                try statement.run()
                allExisted = connection.changes == sorted.count
                // The savepoint undoes the deletion.
                guard allExisted else { throw objectNotFound(layout, sorted[0]) }
                for key in sorted { record(.deleted(key, classIndex: layout.index)) }
            }
        } catch {
            guard !allExisted else { throw error }
            // Nothing was deleted; name a key that does not exist.
            for key in sorted where try !exists(key, in: layout) { throw objectNotFound(layout, key) }
            throw error
        }
    }

    /// Runs `sql`, a DELETE with a WHERE clause of objects of `className`,
    /// and records the deletions; only for a class nothing links to and
    /// that has no lists or links (returns false, running nothing, for
    /// others).
    package func deleteObjects(matching sql: String, arguments: [Value], ofClass className: String) throws(RealmError) -> Bool {
        try requireWrite("delete objects")
        let layout = try layout(classHandle(named: className))
        // A replica must be told each object before it goes: the caller
        // deletes them one by one then.
        guard layout.standsAlone, replication == nil else { return false }
        try noteDeletions(in: layout)
        // One statement, atomic on its own, so no savepoint: one would copy
        // every page the deletion changes aside. The keys come from the
        // update hook rather than RETURNING, which would first store every
        // returned row in a temporary table.
        let statement = try connection.cachedStatement(sql)
        defer { statement.reset() }
        for (index, argument) in arguments.enumerated() { statement.bind(argument, at: Int32(index + 1)) }
        let deleted = try connection.rowidsDeleted { () throws(RealmError) in try statement.run() }
        guard deleted.count == connection.changes else {
            throw RealmError(.storage, "Deleting objects of class '\(className)' in '\(coordinator.path)' lost track of \(connection.changes - deleted.count) of them; cancel the write transaction.")
        }
        for key in deleted { record(.deleted(ObjectKey(key), classIndex: layout.index)) }
        return true
    }

    /// Deletes every object of a class. Recorded as one fact, whatever the
    /// number of objects.
    public func deleteAllObjects(in handle: ClassHandle) throws(RealmError) {
        try requireWrite("delete objects")
        let layout = try layout(handle)
        // The keys there were, for a replica to delete the same objects.
        let keys = replication == nil ? [] : try objectKeys(in: handle)
        if layout.standsAlone {
            // One statement, atomic on its own: no savepoint to copy every
            // page it frees aside.
            try replicatingAtomically { () throws(RealmError) in
                try replicate(.erasedAll(handle, keys))
                try noteDeletions(in: layout)
                try statement(layout, .deleteAll).run()
                record(.deletedAll(classIndex: layout.index))
            }
            return
        }
        try atomically { () throws(RealmError) in
            try replicate(.erasedAll(handle, keys))
            let embedded = try clearOwnLists(of: nil, in: layout) + embeddedLinkTargets(of: nil, in: layout)
            for reference in layout.incomingLinks where reference.classIndex != layout.index {
                let source = catalog.tables[reference.classIndex]
                let statement = try statement(source, .nullifyAllLinks(reference.propertyIndex))
                defer { statement.reset() }
                while try statement.step() {
                    record(.modified(ObjectKey(statement.int64(at: 0)), property: reference.propertyIndex, classIndex: source.index))
                }
            }
            for reference in layout.incomingLists where reference.classIndex != layout.index {
                let source = catalog.tables[reference.classIndex]
                var owners: [(ObjectKey, Int)] = []
                let counts = try statement(source, .listOwnersAndCounts(reference.propertyIndex))
                while try counts.step() {
                    owners.append((ObjectKey(counts.int64(at: 0)), Int(counts.int64(at: 1))))
                }
                counts.reset()
                try statement(source, .listClearAll(reference.propertyIndex)).run()
                for (owner, count) in owners {
                    record(.list(classIndex: source.index, property: reference.propertyIndex, owner: owner, countBefore: count, .removeAll))
                }
            }
            try dropFromSetsAndMaps(nil, of: layout)
            for key in try objectKeys(in: handle) { try dropFromMixedValues(key, of: layout) }
            try deleteNestedCollections(of: nil, in: layout)
            try noteDeletions(in: layout)
            try statement(layout, .deleteAll).run()
            record(.deletedAll(classIndex: layout.index))
            for (key, target) in embedded {
                if try exists(key, in: target) { try deleteRecursively(key, in: target) }
            }
        }
    }

    /// Deletes every object of every class.
    public func deleteAll() throws(RealmError) {
        try requireWrite("delete objects")
        try ensureReading()
        try atomically { () throws(RealmError) in
            for layout in catalog.tables {
                if replication != nil {
                    let handle = handle(of: layout)
                    try replicate(.erasedAll(handle, try objectKeys(in: handle)))
                }
                try noteDeletions(in: layout)
                try statement(layout, .deleteAll).run()
                for property in layout.collectionTables.indices where layout.collectionTables[property] != nil {
                    try statement(layout, .listClearAll(property)).run()
                }
                record(.deletedAll(classIndex: layout.index))
            }
            try deleteAllNestedCollections()
        }
    }

    /// Deletes one existing object and everything that depends on it; runs
    /// inside an atomic operation.
    func deleteRecursively(_ key: ObjectKey, in layout: TableLayout) throws(RealmError) {
        let embedded = try clearOwnLists(of: key, in: layout) + embeddedLinkTargets(of: key, in: layout)

        for reference in layout.incomingLinks {
            let source = catalog.tables[reference.classIndex]
            let statement = try statement(source, .nullifyLinks(reference.propertyIndex))
            statement.bind(key.rawValue, at: 1)
            defer { statement.reset() }
            while try statement.step() {
                record(.modified(ObjectKey(statement.int64(at: 0)), property: reference.propertyIndex, classIndex: source.index))
            }
        }
        for reference in layout.incomingLists {
            let source = catalog.tables[reference.classIndex]
            let occurrences = try statement(source, .listOccurrences(reference.propertyIndex))
            occurrences.bind(key.rawValue, at: 1)
            var found: [(owner: ObjectKey, position: Int)] = []
            while try occurrences.step() {
                found.append((ObjectKey(occurrences.int64(at: 0)), Int(occurrences.int64(at: 1))))
            }
            occurrences.reset()
            // Last position first within each owner, so that earlier
            // positions stay valid as the tail closes up.
            for occurrence in found {
                let list = ListHandle(owningClass: handle(of: source), owner: occurrence.owner, property: reference.propertyIndex)
                let count = try listCount(source, list)
                try removeListRow(source, list, at: occurrence.position, count: count)
            }
        }
        try dropFromSetsAndMaps(key, of: layout)
        try dropFromMixedValues(key, of: layout)
        try deleteNestedCollections(of: key, in: layout)

        try noteDeletions(in: layout)
        let delete = try statement(layout, .delete)
        delete.bind(key.rawValue, at: 1)
        try delete.run()
        record(.deleted(key, classIndex: layout.index))

        for (child, target) in embedded {
            if try exists(child, in: target) { try deleteRecursively(child, in: target) }
        }
    }

    /// Takes a deleted object (every object of its class when `key` is
    /// nil) out of the sets that hold it, and leaves nil where maps held
    /// it, as Realm does.
    private func dropFromSetsAndMaps(_ key: ObjectKey?, of layout: TableLayout) throws(RealmError) {
        let kinds: [(references: [PropertyReference], one: (Int) -> StatementKind, all: (Int) -> StatementKind)] = [
            (layout.incomingSets, StatementKind.setRemoveTarget, StatementKind.setRemoveAllTargets),
            (layout.incomingMaps, StatementKind.mapNullifyTarget, StatementKind.mapNullifyAllTargets),
        ]
        for kind in kinds {
            for reference in kind.references {
                let source = catalog.tables[reference.classIndex]
                let statement: Statement
                if let key {
                    statement = try self.statement(source, kind.one(reference.propertyIndex))
                    statement.bind(key.rawValue, at: 1)
                } else {
                    statement = try self.statement(source, kind.all(reference.propertyIndex))
                }
                var owners: Set<Int64> = []
                while try statement.step() { owners.insert(statement.int64(at: 0)) }
                statement.reset()
                for owner in owners {
                    record(.modified(ObjectKey(owner), property: reference.propertyIndex, classIndex: source.index))
                }
            }
        }
    }

    /// Leaves nil where a mixed value linked to a deleted object: in mixed
    /// properties, lists and maps (keeping the element); a set drops it.
    private func dropFromMixedValues(_ key: ObjectKey, of layout: TableLayout) throws(RealmError) {
        let link = Value.link(className: layout.name, key: key)
        try dropFromNestedCollections(link)
        for source in catalog.tables {
            for property in source.mixedColumns {
                let statement = try connection.cachedStatement(
                    "UPDATE \(source.table) SET \(source.columns[property]!) = NULL WHERE \(source.columns[property]!) = ? RETURNING _key")
                statement.bind(link, at: 1)
                var owners: [Int64] = []
                while try statement.step() { owners.append(statement.int64(at: 0)) }
                statement.reset()
                for owner in owners { record(.modified(ObjectKey(owner), property: property, classIndex: source.index)) }
            }
            for property in source.mixedCollections {
                let table = source.collectionTables[property]!
                let definition = source.property(property)
                if definition.isList {
                    let statement = try connection.cachedStatement("UPDATE \(table) SET value = NULL WHERE value = ? RETURNING owner, position")
                    statement.bind(link, at: 1)
                    var found: [(Int64, Int)] = []
                    while try statement.step() { found.append((statement.int64(at: 0), Int(statement.int64(at: 1)))) }
                    statement.reset()
                    for (owner, position) in found {
                        let list = ListHandle(owningClass: handle(of: source), owner: ObjectKey(owner), property: property)
                        record(.list(classIndex: source.index, property: property, owner: ObjectKey(owner),
                                     countBefore: try listCount(source, list), .modify(position)))
                    }
                } else {
                    let statement = try connection.cachedStatement(definition.isSet
                        ? "DELETE FROM \(table) WHERE value = ? RETURNING owner"
                        : "UPDATE \(table) SET value = NULL WHERE value = ? RETURNING owner")
                    statement.bind(link, at: 1)
                    var owners: Set<Int64> = []
                    while try statement.step() { owners.insert(statement.int64(at: 0)) }
                    statement.reset()
                    for owner in owners { record(.modified(ObjectKey(owner), property: property, classIndex: source.index)) }
                }
            }
        }
    }

    /// Empties the lists of `owner` (of every object when nil) and returns
    /// the embedded objects they held, to be deleted after.
    private func clearOwnLists(of owner: ObjectKey?, in layout: TableLayout) throws(RealmError) -> [(ObjectKey, TableLayout)] {
        var embedded: [(ObjectKey, TableLayout)] = []
        // Sets too (which never hold embedded objects), and maps (whose
        // values may be embedded objects, or nil).
        for property in layout.collectionTables.indices where layout.collectionTables[property] != nil {
            if layout.setTables[property] == nil, let target = layout.linkTargets[property], catalog.tables[target].isEmbedded {
                let isMap = layout.mapTables[property] != nil
                let elements: Statement
                if let owner {
                    elements = try statement(layout, isMap ? .mapAll(property) : .listAll(property))
                    elements.bind(owner.rawValue, at: 1)
                } else {
                    elements = try connection.cachedStatement("SELECT value FROM \(layout.collectionTables[property]!)")
                }
                // A map's rows are its key, then its value.
                let column: Int32 = isMap && owner != nil ? 1 : 0
                while try elements.step() {
                    guard !elements.isNull(at: column) else { continue }
                    embedded.append((ObjectKey(elements.int64(at: column)), catalog.tables[target]))
                }
                elements.reset()
            }
            if let owner {
                let clear = try statement(layout, .listClear(property))
                clear.bind(owner.rawValue, at: 1)
                try clear.run()
            } else {
                try statement(layout, .listClearAll(property)).run()
            }
        }
        return embedded
    }

    /// The embedded objects `owner` (every object when nil) links to through
    /// to-one properties.
    private func embeddedLinkTargets(of owner: ObjectKey?, in layout: TableLayout) throws(RealmError) -> [(ObjectKey, TableLayout)] {
        var embedded: [(ObjectKey, TableLayout)] = []
        for property in layout.columnProperties {
            guard let target = layout.linkTargets[property], catalog.tables[target].isEmbedded else { continue }
            let statement: Statement
            if let owner {
                statement = try self.statement(layout, .selectColumn(property))
                statement.bind(owner.rawValue, at: 1)
            } else {
                let column = layout.columns[property]!
                statement = try connection.cachedStatement("SELECT \(column) FROM \(layout.table) WHERE \(column) IS NOT NULL")
            }
            while try statement.step() {
                if !statement.isNull(at: 0) {
                    embedded.append((ObjectKey(statement.int64(at: 0)), catalog.tables[target]))
                }
            }
            statement.reset()
        }
        return embedded
    }

    /// Before objects of the class are deleted: reads its next key while
    /// its newest object still exists, for the commit to store. A class
    /// keyed by its primary key hands out no keys.
    private func noteDeletions(in layout: TableLayout) throws(RealmError) {
        if !layout.isKeyedByPrimaryKey && classesWithDeletions.insert(layout.index).inserted {
            _ = try nextKey(for: layout)
        }
    }

    func handle(of layout: TableLayout) -> ClassHandle {
        ClassHandle(index: layout.index, generation: catalog.generation, className: layout.name)
    }
}
