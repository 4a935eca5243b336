/// Collects a write transaction's changes as they are made.
///
/// Recording must stay cheap on the hot paths: an insert is a key appended
/// to a range, deleting a whole class is one flag, and nothing is recorded
/// per row for work SQLite does in bulk.
struct ChangeRecorder {
    private var classes: [Int: ObjectChanges] = [:]
    private var lists: [ListKey: ListChangeBuilder] = [:]
    /// The modification recorded last: a loop that changes one object's
    /// property again and again (filling a collection) records it once,
    /// without hashing the key each time. Forgotten by any other change.
    private var lastModification: (key: ObjectKey, property: Int, classIndex: Int)?
    var schemaChanged = false

    struct ListKey: Hashable {
        let classIndex: Int
        let propertyIndex: Int
        let owner: ObjectKey
    }

    mutating func inserted(_ key: ObjectKey, classIndex: Int) {
        classes[classIndex, default: ObjectChanges()].insertions.insert(key)
    }

    mutating func modified(_ key: ObjectKey, property: Int, classIndex: Int) {
        if let last = lastModification, last.key == key, last.property == property, last.classIndex == classIndex { return }
        lastModification = (key, property, classIndex)
        modifyClass(classIndex) { changes in
            if changes.insertions.contains(key) { return }
            changes.modifications[key, default: PropertySet()].insert(property)
        }
    }

    mutating func deleted(_ key: ObjectKey, classIndex: Int) {
        lastModification = nil
        modifyClass(classIndex) { changes in
            if changes.insertions.remove(key) { return }
            changes.modifications[key] = nil
            if !changes.deletedAll { changes.deletions.insert(key) }
        }
        if !lists.isEmpty {
            lists = lists.filter { $0.key.classIndex != classIndex || $0.key.owner != key }
        }
    }

    /// Every object of the class was deleted, those inserted by this
    /// transaction included.
    mutating func deletedAll(classIndex: Int) {
        lastModification = nil
        var changes = ObjectChanges()
        changes.deletedAll = true
        classes[classIndex] = changes
        if !lists.isEmpty {
            lists = lists.filter { $0.key.classIndex != classIndex }
        }
    }

    /// Applies `body` to the list's builder, made on first use with
    /// `countBefore`, the list's length before this operation (which on first
    /// use is its length before the transaction).
    mutating func withList(classIndex: Int, property: Int, owner: ObjectKey, countBefore: Int, _ body: (inout ListChangeBuilder) -> Void) {
        modified(owner, property: property, classIndex: classIndex)
        // One lookup, which makes the builder on first use.
        body(&lists[ListKey(classIndex: classIndex, propertyIndex: property, owner: owner), default: ListChangeBuilder(oldCount: countBefore)])
    }

    /// The finished change set, with class names from `catalog`.
    func changeSet(version: UInt64, catalog: Catalog) -> ChangeSet {
        var result = ChangeSet(version: version, schemaChanged: schemaChanged)
        for (classIndex, changes) in classes where !changes.isEmpty && classIndex < catalog.tables.count {
            result.classes[catalog.tables[classIndex].name] = changes
        }
        for (key, builder) in lists where key.classIndex < catalog.tables.count {
            let changes = builder.changes()
            if !changes.isEmpty {
                let identifier = ListIdentifier(className: catalog.tables[key.classIndex].name, propertyIndex: key.propertyIndex, owner: key.owner)
                result.lists[identifier] = changes
            }
        }
        return result
    }

    /// Re-keys the records after a schema change that may have moved or
    /// removed classes.
    mutating func remapClasses(from old: Catalog, to new: Catalog) {
        lastModification = nil
        func newIndex(_ index: Int) -> Int? {
            index < old.tables.count ? new.tableIndex(named: old.tables[index].name) : nil
        }
        classes = Dictionary(uniqueKeysWithValues: classes.compactMap { index, changes in newIndex(index).map { ($0, changes) } })
        lists = Dictionary(uniqueKeysWithValues: lists.compactMap { key, builder in
            newIndex(key.classIndex).map { (ListKey(classIndex: $0, propertyIndex: key.propertyIndex, owner: key.owner), builder) }
        })
    }

    private mutating func modifyClass(_ classIndex: Int, _ body: (inout ObjectChanges) -> Void) {
        body(&classes[classIndex, default: ObjectChanges()])
    }
}
