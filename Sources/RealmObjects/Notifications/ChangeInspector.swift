import RealmCore

/// Answers "did this object change?" across the commits between two
/// versions, from their change sets, following links to a bounded depth so
/// that a change to a linked object counts as a change to the objects that
/// link to it (cycles are cut by the depth and a visited set).
struct ChangeInspector {
    /// How many links deep a change still counts.
    static let maximumDepth = 3

    private var modified: [String: [ObjectKey: PropertySet]] = [:]
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
                if changes.deletedAll { deletedAll.insert(className) }
                for key in changes.deletions { deleted[className, default: KeySet()].insert(key) }
                // Within a change set a key both deleted and inserted was
                // deleted first: the other order cancels out when recorded.
                let again = deletedAll.contains(className)
                    ? changes.insertions : changes.insertions.intersection(deleted[className] ?? KeySet())
                if !again.isEmpty { recreated[className, default: KeySet()].formUnion(again) }
            }
            if !changeSet.lists.isEmpty { isEmpty = false }
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
    /// Linking objects count only when a key path names them, as in Realm.
    func linkedObjectChanged(_ className: String, _ key: ObjectKey, _ index: Int, _ property: Property,
                             filter: KeyPathFilter?, in transaction: Transaction, depth: Int = 0) -> Bool {
        guard let target = property.objectClassName, touches(target) else { return false }
        if let filter, !filter.includes(index) { return false }
        if property.type == .linkingObjects && filter == nil { return false }
        let nested = filter?.nested[index] ?? nil
        for linked in linkedKeys(className, key, index, property, transaction) {
            if deleted[target]?.contains(linked) == true || deletedAll.contains(target) { return true }
            if isChanged(target, linked, filter: nested, in: transaction, depth: depth + 1) { return true }
        }
        return false
    }

    private func linkedKeys(_ className: String, _ key: ObjectKey, _ index: Int, _ property: Property, _ transaction: Transaction) -> [ObjectKey] {
        if property.type == .linkingObjects {
            guard let source = property.objectClassName, let origin = property.linkOriginPropertyName,
                  let sourceHandle = try? transaction.classHandle(named: source),
                  let originIndex = try? transaction.propertyIndex(named: origin, in: sourceHandle) else { return [] }
            return (try? transaction.linkingObjects(to: key, from: sourceHandle, property: originIndex)) ?? []
        }
        guard let handle = try? transaction.classHandle(named: className) else { return [] }
        let values: [Value]
        if property.isList {
            values = (try? transaction.values(of: transaction.list(index, of: key, in: handle))) ?? []
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
        let rest = Array(components.dropFirst())
        guard !rest.isEmpty, let target = objectSchema.properties[index].objectClassName else {
            if components.count == 1 { nested[index] = .some(nil) }
            return
        }
        var child = (nested[index] ?? nil) ?? KeyPathFilter()
        child.add(rest, className: target, schema: schema)
        nested[index] = child
    }
}
