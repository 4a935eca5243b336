import RealmCore

/// Reads objects for the post-filter through the transaction's public
/// object API, resolving each class once and caching the rows of the
/// objects one root object's evaluation touches.
final class ObjectReader {
    let transaction: Transaction
    private var handles: [String: ClassHandle] = [:]
    private var rows: [RowKey: [Value]] = [:]

    private struct RowKey: Hashable {
        let className: String
        let key: ObjectKey
    }

    init(transaction: Transaction) {
        self.transaction = transaction
    }

    func handle(_ className: String) throws -> ClassHandle {
        if let handle = handles[className] { return handle }
        let handle = try transaction.classHandle(named: className)
        handles[className] = handle
        return handle
    }

    /// The value of column property `index` of an object.
    func column(_ index: Int, of key: ObjectKey, in className: String) throws -> Value {
        let rowKey = RowKey(className: className, key: key)
        if let row = rows[rowKey] { return row[index] }
        let row = try transaction.values(of: key, in: handle(className))
        rows[rowKey] = row
        return row[index]
    }

    /// The elements of list, set or map property `index` of an object (a
    /// map's values).
    func list(_ index: Int, of key: ObjectKey, in className: String) throws -> [Value] {
        try transaction.collectionValues(index, of: key, in: handle(className))
    }

    /// The keys of map property `index` of an object.
    func mapKeys(_ index: Int, of key: ObjectKey, in className: String) throws -> [String] {
        try transaction.entries(of: ListHandle(owningClass: handle(className), owner: key, property: index)).map(\.key)
    }

    /// The value for `mapKey` of map property `index` of an object, `.null`
    /// when it has no such key.
    func mapValue(_ index: Int, key mapKey: String, of key: ObjectKey, in className: String) throws -> Value {
        try transaction.value(forKey: mapKey, in: ListHandle(owningClass: handle(className), owner: key, property: index)) ?? .null
    }

    /// The objects of `originClass` linking to `key` through property
    /// `index`, once per link.
    func linkingObjects(to key: ObjectKey, from originClass: String, property index: Int) throws -> [ObjectKey] {
        try transaction.linkingObjects(to: key, from: handle(originClass), property: index)
    }

    /// Caches the values of an object read elsewhere.
    func remember(_ row: [Value], of key: ObjectKey, in className: String) {
        rows[RowKey(className: className, key: key)] = row
    }

    /// Forgets cached rows; called between root objects so that memory stays
    /// bounded by what one object's evaluation reads.
    func clearRows() {
        rows.removeAll(keepingCapacity: true)
    }

    // MARK: Nested collections

    /// What `step` reaches from a mixed value: nothing unless it holds a
    /// nested collection with such an element.
    func nested(_ value: Value, _ step: MixedStep) throws -> [Value] {
        guard case .collection(let collection) = value, let handle = try transaction.handle(of: collection) else { return [] }
        switch (collection.kind, step) {
        case (.list, .all):
            return try transaction.values(of: handle)
        case (.dictionary, .all):
            return try transaction.entries(of: handle).map(\.value)
        case (.list, .position(let position)):
            let count = try transaction.count(of: handle)
            return position < count ? [try transaction.value(at: position, in: handle)] : []
        case (.list, .fromEnd(let distance)):
            let count = try transaction.count(of: handle)
            return count >= distance ? [try transaction.value(at: count - distance, in: handle)] : []
        case (.dictionary, .key(let key)):
            return try transaction.value(forKey: key, in: handle).map { [$0] } ?? []
        case (.list, .key), (.dictionary, .position), (.dictionary, .fromEnd):
            return []
        }
    }

    /// The number of elements of the collection a mixed value holds; nil
    /// for any other value.
    func size(of value: Value) throws -> Value {
        guard case .collection(let collection) = value, let handle = try transaction.handle(of: collection) else { return .null }
        return .int(Int64(collection.kind == .list ? try transaction.count(of: handle) : try transaction.mapCount(of: handle)))
    }
}
