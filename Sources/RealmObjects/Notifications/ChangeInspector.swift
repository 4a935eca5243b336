import RealmCore

/// Answers "did this object change?" across the commits between two
/// versions, from their change sets, following links to a bounded depth so
/// that a change to a linked object counts as a change to the objects that
/// link to it (cycles are cut by the depth and a visited set).
struct ChangeInspector {
    /// How many links deep a change still counts.
    static let maximumDepth = 3

    private var modified: [String: [ObjectKey: PropertySet]] = [:]
    private var inserted: [String: KeySet] = [:]
    /// The lists of objects whose elements changed.
    private var changedLists: Set<ListIdentifier> = []
    private var deleted: [String: KeySet] = [:]
    private var deletedAll: Set<String> = []
    /// Keys deleted and then inserted again: a class keyed by its primary
    /// key gives a new object with a deleted one's primary key its key.
    private var recreated: [String: KeySet] = [:]
    /// False when some change sets were unavailable: then every object
    /// counts as changed.
    private(set) var isComplete = true
    private(set) var isEmpty = true

    init(_ changeSets: [ChangeSet]?) {
        guard let changeSets else {
            isComplete = false
            isEmpty = false
            return
        }
        for changeSet in changeSets {
            if changeSet.schemaChanged { isComplete = false }
            for (className, changes) in changeSet.classes where !changes.isEmpty {
                isEmpty = false
                for (key, properties) in changes.modifications {
                    modified[className, default: [:]][key, default: PropertySet()].formUnion(properties)
                }
                if !changes.insertions.isEmpty { inserted[className, default: KeySet()].formUnion(changes.insertions) }
                if changes.deletedAll { deletedAll.insert(className) }
                for key in changes.deletions { deleted[className, default: KeySet()].insert(key) }
                // Within a change set a key both deleted and inserted was
                // deleted first: the other order cancels out when recorded.
                let again = deletedAll.contains(className)
                    ? changes.insertions : changes.insertions.intersection(deleted[className] ?? KeySet())
                if !again.isEmpty { recreated[className, default: KeySet()].formUnion(again) }
            }
            if !changeSet.lists.isEmpty { isEmpty = false }
            for (list, changes) in changeSet.lists where !changes.isEmpty { changedLists.insert(list) }
        }
    }

    /// Whether any object of the class was modified or deleted.
    func touches(_ className: String) -> Bool {
        !isComplete || modified[className] != nil || deleted[className] != nil || deletedAll.contains(className)
    }

    /// Whether an object of a class other than `className` was modified or
    /// deleted (which can change `className`'s objects through links).
    func touchesClasses(otherThan className: String) -> Bool {
        !isComplete || modified.keys.contains { $0 != className } || deleted.keys.contains { $0 != className }
            || deletedAll.contains { $0 != className }
    }

    /// Whether the commits created objects of a class other than
    /// `className`, or changed the elements of its lists: links to
    /// `className`'s objects may have arrived.
    func addsLinks(otherThan className: String) -> Bool {
        !isComplete || inserted.keys.contains { $0 != className } || changedLists.contains { $0.className != className }
    }

    /// Whether the commits deleted the object, even if an object with the
    /// same key (the same primary key, for a class keyed by it) was created
    /// after.
    func isDeleted(_ className: String, _ key: ObjectKey) -> Bool {
        deletedAll.contains(className) || deleted[className]?.contains(key) == true
    }

    /// Whether the object with this key is not the one that had it before
    /// the commits: that one was deleted and this one created with its key.
    func isRecreated(_ className: String, _ key: ObjectKey) -> Bool {
        recreated[className]?.contains(key) == true
    }

    /// The properties of an object set by the commits.
    func modifiedProperties(_ className: String, _ key: ObjectKey) -> PropertySet? {
        modified[className]?[key]
    }

    /// Whether an object changed: one of its (filtered) properties was set,
    /// or, within the depth, an object it links to changed or was deleted.
    func isChanged(_ className: String, _ key: ObjectKey, filter: KeyPathFilter?, in transaction: Transaction, depth: Int = 0) -> Bool {
        guard isComplete else { return true }
        if let properties = modified[className]?[key] {
            if let filter {
                if properties.contains(where: { filter.includes($0) }) { return true }
            } else {
                return true
            }
        }
        guard depth < Self.maximumDepth, let schema = transaction.schema[className] else { return false }
        for (index, property) in schema.properties.enumerated() where property.type == .object || property.type == .linkingObjects {
            if linkedObjectChanged(className, key, index, property, filter: filter, in: transaction, depth: depth) { return true }
        }
        return false
    }

    /// Whether an object that property `index` of the object links to (or,
    /// for linking objects, that links to it) changed, within the depth.
    ///
    /// As in Realm: linking objects count only when a key path names them,
    /// and then a link that arrived counts too; a key path that ends at a
    /// link (`owner`, `dogs`) names the link only, so that only a linked
    /// object's deletion counts, not a change inside it.
    func linkedObjectChanged(_ className: String, _ key: ObjectKey, _ index: Int, _ property: Property,
                             filter: KeyPathFilter?, in transaction: Transaction, depth: Int = 0) -> Bool {
        guard let target = property.objectClassName else { return false }
        if let filter, !filter.includes(index) { return false }
        if property.type == .linkingObjects && filter == nil { return false }
        let nested = filter?.nested[index] ?? nil
        let endsHere = filter != nil && nested == nil
        // An untouched target class can still lead to a changed object
        // further on (`extras.phone.mobile.number`, where only the mobile
        // changed): it is passed through while the depth allows and some
        // other class changed at all.
        let mayReachFurther = !endsHere && depth + 1 < Self.maximumDepth && touchesClasses(otherThan: target)
        if property.type == .linkingObjects {
            guard let origin = linkOrigin(of: property, transaction) else { return false }
            let linkers = (try? transaction.linkingObjects(to: key, from: origin.handle, property: origin.index)) ?? []
            if linkers.contains(where: { linkArrived(from: target, $0, property: origin.index) }) { return true }
            guard !endsHere, touches(target) || mayReachFurther else { return false }
            return linkers.contains { isChanged(target, $0, filter: nested, in: transaction, depth: depth + 1) }
        }
        guard touches(target) || mayReachFurther else { return false }
        for linked in linkedKeys(className, key, index, property, transaction) {
            if deleted[target]?.contains(linked) == true || deletedAll.contains(target) { return true }
            if !endsHere && isChanged(target, linked, filter: nested, in: transaction, depth: depth + 1) { return true }
        }
        return false
    }

    /// Whether the commits made `linker` link through its property
    /// `index`: it is new, or that property (a link, or a list's elements)
    /// changed.
    private func linkArrived(from className: String, _ linker: ObjectKey, property index: Int) -> Bool {
        inserted[className]?.contains(linker) == true
            || modified[className]?[linker]?.contains(index) == true
            || changedLists.contains(ListIdentifier(className: className, propertyIndex: index, owner: linker))
    }

    /// The class and link property that linking objects are made of.
    private func linkOrigin(of property: Property, _ transaction: Transaction) -> (handle: ClassHandle, index: Int)? {
        guard let source = property.objectClassName, let origin = property.linkOriginPropertyName,
              let handle = try? transaction.classHandle(named: source),
              let index = try? transaction.propertyIndex(named: origin, in: handle) else { return nil }
        return (handle, index)
    }

    private func linkedKeys(_ className: String, _ key: ObjectKey, _ index: Int, _ property: Property, _ transaction: Transaction) -> [ObjectKey] {
        if property.type == .linkingObjects {
            guard let origin = linkOrigin(of: property, transaction) else { return [] }
            return (try? transaction.linkingObjects(to: key, from: origin.handle, property: origin.index)) ?? []
        }
        guard let handle = try? transaction.classHandle(named: className) else { return [] }
        let values: [Value]
        if property.isCollection {
            values = (try? transaction.collectionValues(index, of: key, in: handle)) ?? []
        } else {
            values = [(try? transaction.value(of: key, property: index, in: handle)) ?? .null]
        }
        return values.compactMap { if case .object(let linked) = $0 { linked } else { nil } }
    }
}

/// Which properties count for a notification: `observe(keyPaths:)`'s key
/// paths, as property indices with the filters of linked classes.
struct KeyPathFilter {
    var properties: Set<Int> = []
    var nested: [Int: KeyPathFilter?] = [:]
    /// Whether a key path names linking objects (`owners`, `owners.name`):
    /// then a link that arrives is a change.
    private(set) var namesLinkingObjects = false

    func includes(_ index: Int) -> Bool { properties.contains(index) }

    /// The filter for key paths like `["name", "owner.name"]` on a class.
    static func make(_ keyPaths: [String]?, className: String, schema: Schema) -> KeyPathFilter? {
        guard let keyPaths else { return nil }
        var filter = KeyPathFilter()
        for keyPath in keyPaths {
            filter.add(keyPath.split(separator: ".").map(String.init), className: className, schema: schema)
        }
        return filter
    }

    private mutating func add(_ components: [String], className: String, schema: Schema) {
        guard let first = components.first, let objectSchema = schema[className] else { return }
        guard let index = objectSchema.propertyIndex(named: first) else {
            preconditionFailure("Property '\(first)' in key path '\(components.joined(separator: "."))' does not exist on class '\(className)'.")
        }
        properties.insert(index)
        if objectSchema.properties[index].type == .linkingObjects { namesLinkingObjects = true }
        let rest = Array(components.dropFirst())
        guard !rest.isEmpty, let target = objectSchema.properties[index].objectClassName else {
            // The key path ends here, unless another goes on from here.
            if components.count == 1 && nested[index] == nil { nested[index] = .some(nil) }
            return
        }
        var child = (nested[index] ?? nil) ?? KeyPathFilter()
        child.add(rest, className: target, schema: schema)
        nested[index] = child
    }
}
