import RealmCore
import RealmSyncWire

/// Top-level objects between their local keys and the identities every
/// replica names them by: what a query-based view is made of.
package enum TopLevelObjects {
    /// The identity of the object `key` of `handle`: its primary key and
    /// current incarnation, or its global key (nil for an object sync does
    /// not know).
    package static func identity(of key: ObjectKey, in handle: ClassHandle, _ transaction: Transaction) throws(RealmError) -> ObjectIdentity? {
        let schema = try transaction.objectSchema(handle)
        if let primaryKey = schema.primaryKeyProperty, let index = schema.properties.firstIndex(of: primaryKey) {
            let value = try SyncValue(scalar: try transaction.value(of: key, property: index, in: handle))
            return .primaryKey(value, incarnation: try SyncTables.incarnation(className: handle.className, primaryKey: value, transaction))
        }
        return try SyncTables.globalKey(of: key, className: handle.className, transaction).map { .global($0) }
    }

    /// The local key of the top-level object `reference` names, or nil
    /// when this replica does not have it (or has another incarnation).
    package static func localKey(of reference: ObjectReference, _ transaction: Transaction) throws(RealmError) -> ObjectKey? {
        guard transaction.schema[reference.className] != nil else { return nil }
        let handle = try transaction.classHandle(named: reference.className)
        switch reference.identity {
        case .primaryKey(let value, let incarnation):
            guard incarnation == (try SyncTables.incarnation(className: reference.className, primaryKey: value, transaction)) else { return nil }
            return try transaction.object(withPrimaryKey: try value.coreValue(), in: handle)
        case .global(let global):
            return try SyncTables.localKey(of: global, className: reference.className, transaction)
        case .embedded:
            return nil
        }
    }

    /// Removes the object `key` of `handle` and what it embeds, with their
    /// sync records, as if this replica never had it: no tombstone, no
    /// ended incarnation, nothing recorded to upload. Links to it read nil
    /// and list elements holding it are hidden, as for a deletion; they
    /// wait for it (``PendingLinks``), and show it again when it comes back.
    ///
    /// Call it inside a write whose recorder does not record.
    package static func evict(_ key: ObjectKey, in handle: ClassHandle, _ transaction: Transaction) throws(RealmError) {
        if let identity = try identity(of: key, in: handle, transaction) {
            try linksWait(for: key, ObjectReference(className: handle.className, identity: identity), transaction)
        }
        var embedded: [(ObjectKey, String)] = []
        try collectEmbedded(of: key, in: handle, into: &embedded, transaction)
        try transaction.deleteObject(key, in: handle)
        try SyncTables.forgetObject(key, className: handle.className, transaction)
        for (child, className) in embedded { try SyncTables.forgetObject(child, className: className, transaction) }
    }

    /// Notes every link to the object `key`, and every list element
    /// holding it, as waiting for `target`, its identity.
    private static func linksWait(for key: ObjectKey, _ target: ObjectReference, _ transaction: Transaction) throws(RealmError) {
        // Elements of nested lists (which RealmCore leaves nil).
        for (list, row) in try transaction.nestedListLinks(to: key, ofClass: target.className) {
            guard let nested = list.nested, let name = try NestedNames.name(of: nested, transaction) else { continue }
            let property = try transaction.objectSchema(list.owningClass).properties[list.property].name
            let storage = NestedNames.storageProperty(property, nested: name)
            guard let mirror = try ListMirror.inStep(with: list, property: storage, transaction), row < mirror.rowCount else { continue }
            try PendingLinks.note(PendingLinks.Link(className: list.owningClass.className, owner: list.owner, property: storage,
                                                    element: mirror.elements[mirror.elementIndex(ofRow: row)].key), waitsFor: target, transaction)
        }
        for source in transaction.schema.objectSchemas {
            // Mixed values and elements of lists of them (which RealmCore
            // leaves nil when the object goes).
            for (index, property) in source.properties.enumerated() where property.type == .mixed && (property.isList || !property.isCollection) {
                let sourceHandle = try transaction.classHandle(named: source.name)
                var mirrors: [ObjectKey: ListMirror] = [:]
                for (owner, row) in try transaction.mixedLinks(to: key, ofClass: target.className, from: sourceHandle, property: index) {
                    var element: GlobalKey?
                    if let row {
                        let list = ListHandle(owningClass: sourceHandle, owner: owner, property: index)
                        if mirrors[owner] == nil { mirrors[owner] = try ListMirror.stored(list, property: property.name, transaction) }
                        guard let mirror = mirrors[owner], row < mirror.rowCount else { continue }
                        element = mirror.elements[mirror.elementIndex(ofRow: row)].key
                    }
                    try PendingLinks.note(PendingLinks.Link(className: source.name, owner: owner, property: property.name, element: element),
                                          waitsFor: target, transaction)
                }
            }
            // Sets, maps and nested dictionaries need nothing: their
            // registers keep the link, and show it when the object comes
            // back.
            for (index, property) in source.properties.enumerated()
            where property.objectClassName == target.className && property.type != .linkingObjects && !property.isSet && !property.isMap {
                let sourceHandle = try transaction.classHandle(named: source.name)
                var owners = try transaction.linkingObjects(to: key, from: sourceHandle, property: index)
                guard !owners.isEmpty else { continue }
                guard property.isList else {
                    for owner in owners {
                        try PendingLinks.note(PendingLinks.Link(className: source.name, owner: owner, property: property.name),
                                              waitsFor: target, transaction)
                    }
                    continue
                }
                owners = Array(Set(owners))
                for owner in owners {
                    let list = ListHandle(owningClass: sourceHandle, owner: owner, property: index)
                    // (A mirror out of step, left by a version before this
                    // one hid elements at once, cannot say which elements
                    // held the object: its list is passed over rather than
                    // the download refused.)
                    guard var mirror = try ListMirror.inStep(with: list, property: property.name, transaction) else { continue }
                    // Hidden now, not when the mirror is next reconciled: an
                    // object keyed by its primary key comes back with the same
                    // local key and incarnation, and the mirror could not
                    // tell that its rows were dropped.
                    for position in mirror.elements.indices where !mirror.elements[position].isHidden && mirror.elements[position].target == key.rawValue {
                        mirror.elements[position].isHidden = true
                        try PendingLinks.note(PendingLinks.Link(className: source.name, owner: owner, property: property.name,
                                                                element: mirror.elements[position].key), waitsFor: target, transaction)
                    }
                    try mirror.save(list, property: property.name, transaction)
                }
            }
        }
    }

    private static func collectEmbedded(of key: ObjectKey, in handle: ClassHandle, into found: inout [(ObjectKey, String)],
                                        _ transaction: Transaction) throws(RealmError) {
        let schema = try transaction.objectSchema(handle)
        for (index, property) in schema.properties.enumerated() {
            guard let target = property.objectClassName, property.type != .linkingObjects,
                  transaction.schema[target]?.isEmbedded == true else { continue }
            let childHandle = try transaction.classHandle(named: target)
            let values: [Value] = if property.isCollection {
                try transaction.collectionValues(index, of: key, in: handle)
            } else {
                [try transaction.value(of: key, property: index, in: handle)]
            }
            for case .object(let child) in values {
                found.append((child, target))
                try collectEmbedded(of: child, in: childHandle, into: &found, transaction)
            }
        }
    }
}
