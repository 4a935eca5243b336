import Foundation
import RealmCore
import RealmQuery

/// The type of a ``Map``'s keys: `String`, as in Realm.
public protocol _MapKey: Hashable, Comparable, _Persistable {}

extension String: _MapKey {}

/// One key and its value, as a ``Map`` iterates them.
public struct SingleMapEntry<Key: _MapKey, Value: RealmCollectionValue> {
    /// The entry's key.
    public let key: Key
    /// The value at ``key``.
    public let value: Value

    /// An entry of `key` and `value`.
    public init(key: Key, value: Value) {
        self.key = key
        self.value = value
    }
}

/// Entries compare by key and value, so that `map.contains(entry)` asks
/// whether the map has that value at that key. (Realm Swift compares the
/// values alone, while hashing the key: two entries it calls equal can
/// hash apart.)
extension SingleMapEntry: Equatable where Value: Equatable {}
extension SingleMapEntry: Hashable where Value: Hashable {}

/// A dictionary from string keys to values or objects, stored in a
/// property of its owner: Realm 10's `Map`.
///
/// ```swift
/// class Shop: Object {
///     @Persisted var prices: Map<String, Decimal128>
///     @Persisted var managers: Map<String, Person?>
/// }
/// shop.prices["apple"] = "0.45"
/// ```
///
/// Declare with `@Persisted var` or `let`. On an unmanaged object a map is
/// a plain dictionary; once the owner is managed, it reads and writes the
/// database (writes inside a write transaction) and is live like its
/// owner. Keys come in the order of their UTF-8 bytes. They must not be
/// empty, contain `.` or begin with `$`. Objects are held as optionals
/// (`Map<String, Person?>`): deleting an object leaves nil at its keys.
public final class Map<Key: _MapKey, Value: RealmCollectionValue>: Sequence, MapFactory {
    /// What iteration yields: a key and its value.
    public typealias Element = SingleMapEntry<Key, Value>

    // Where the entries are: in the Realm, for a managed map (`binding`),
    // or in `unmanaged`. Not an enum with the dictionary as a payload: code
    // not specialized to the key and value types would look up that enum's
    // type metadata on every access.
    /// The Realm and handle of a managed map.
    private var binding: (realm: Realm, handle: ListHandle)?
    /// An unmanaged map's entries.
    private var unmanaged: [Key: Value] = [:]
    private var invalidations = 0

    /// An empty, unmanaged map.
    public init() {}

    /// The Realm managing the map, or nil when unmanaged.
    public var realm: Realm? {
        binding?.realm
    }

    /// Whether the owner was deleted, or its Realm invalidated.
    public var isInvalidated: Bool {
        guard let (realm, handle) = binding else { return false }
        return invalidations != realm.state.invalidations || !realm.objectExists(key: handle.owner, handle: handle.owningClass)
            || !realm.nestedCollectionExists(handle)
    }

    /// The number of keys.
    public var count: Int {
        guard let (realm, handle) = binding else { return unmanaged.count }
        verifyValid(realm)
        return realm.perform("count a map", ifDamaged: 0) { try $0.mapCount(of: handle) }
    }

    /// Whether the map has no keys.
    public var isEmpty: Bool { count == 0 }

    /// The keys, in order.
    public var keys: [Key] { entries().map(\.key) }

    /// The values, in the order of their keys.
    public var values: [Value] { entries().map(\.value) }

    /// The value for `key`, or nil when the map has no such key. Setting
    /// nil removes the key (set `.some(nil)` to keep the key with nil, for
    /// optional values).
    public subscript(key: Key) -> Value? {
        get {
            guard let (realm, handle) = binding else { return unmanaged[key] }
            return realm.withAccess {
                verifyValid(realm)
                let stored = realm.perform("read a map value", ifDamaged: nil) { try $0.value(forKey: Self.text(key), in: handle) }
                return stored.map { Value._fromValue($0, in: realm) }
            }
        }
        set {
            if let newValue {
                updateValue(newValue, forKey: key)
            } else {
                removeObject(for: key)
            }
        }
    }

    /// Sets the value for `key`, adding the key if new; an unmanaged object
    /// stored in a managed map is added to the Realm.
    public func updateValue(_ value: Value, forKey key: Key) {
        guard let (realm, handle) = binding else {
            unmanaged[key] = value
            return
        }
        verifyValid(realm)
        realm.recordingFailure(of: "set a value of map \(name(handle, in: realm))") {
            // Metatype checks first: casting a generic value costs about a
            // thousand instructions, which every write would pay.
            if let objectType = Value._objectType, objectType is EmbeddedObject.Type, let embedded = value as? EmbeddedObject {
                try realm.setEmbedded(embedded, forKey: Self.text(key), in: handle)
                return
            }
            if Value.self == AnyRealmValue.self, let mixed = value as? AnyRealmValue, mixed.isNestedCollection {
                try realm.storeMixed(mixed, at: .entry(handle, Self.text(key)))
                return
            }
            try realm.inOneStep(value) {
                try realm.transaction.setValue(try value._toValue(in: realm), forKey: Self.text(key), in: handle)
            }
        }
    }

    /// Removes `key` and its value.
    public func removeObject(for key: Key) {
        guard let (realm, handle) = binding else {
            unmanaged[key] = nil
            return
        }
        verifyValid(realm)
        realm.recordingFailure(of: "remove from map \(name(handle, in: realm))") {
            try realm.transaction.removeValue(forKey: Self.text(key), from: handle)
        }
    }

    /// Removes every key.
    public func removeAll() {
        guard let (realm, handle) = binding else {
            unmanaged = [:]
            return
        }
        verifyValid(realm)
        realm.recordingFailure(of: "remove from map \(name(handle, in: realm))") {
            try realm.transaction.removeAll(fromMap: handle)
        }
    }

    /// Adds the keys and values of `other`; for a key the map has,
    /// `combine` picks the value from the current and the new one.
    public func merge<S: Sequence>(_ other: S, uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows
    where S.Element == (key: Key, value: Value) {
        for (key, value) in other {
            if let current = self[key] {
                updateValue(try combine(current, value), forKey: key)
            } else {
                updateValue(value, forKey: key)
            }
        }
    }

    /// Adds the keys and values of a dictionary; see
    /// ``merge(_:uniquingKeysWith:)``.
    public func merge(_ other: [Key: Value], uniquingKeysWith combine: (Value, Value) throws -> Value) rethrows {
        try merge(other.map { (key: $0.key, value: $0.value) }, uniquingKeysWith: combine)
    }

    /// The keys and values as tuples, in the order of the keys.
    public func asKeyValueSequence() -> [(key: Key, value: Value)] {
        entries().map { ($0.key, $0.value) }
    }

    /// Whether an entry of the map satisfies `predicate`, which takes the
    /// key and the value.
    public func contains(where predicate: (_ key: Key, _ value: Value) throws -> Bool) rethrows -> Bool {
        try entries().contains { try predicate($0.key, $0.value) }
    }

    /// The value for `key`, or nil when the map has no such key: Realm
    /// Swift's key-value coding spelling of the subscript.
    public func value(forKey key: Key) -> Value? {
        self[key]
    }

    /// Sets the value for `key` from a value of the map's value type (or
    /// one it converts from, as a property setter does); nil or `NSNull`
    /// removes the key, as key-value coding on Realm's map does.
    ///
    /// A value of another type changes nothing: on a managed map the write
    /// transaction's commit then throws a `wrongType` error naming the map
    /// and the key, as a property setter's does.
    ///
    /// - Precondition: on an unmanaged map, `value` is nil, `NSNull` or
    ///   convertible to `Value` (there is no commit to report it to).
    public func setValue(_ value: Any?, forKey key: Key) {
        guard let value, !(value is NSNull) else {
            removeObject(for: key)
            return
        }
        guard let converted = value as? Value ?? Value._convert(from: value) else {
            let message = "Cannot set a value of type '\(type(of: value))' for key '\(key)' in a map of '\(Value.self)'"
            guard let (realm, handle) = binding else { preconditionFailure(message + ".") }
            realm.recordingFailure(of: "set a value of map \(name(handle, in: realm))") {
                throw Realm.Error(.wrongType, message + " (\(name(handle, in: realm))).")
            }
            return
        }
        updateValue(converted, forKey: key)
    }

    /// Iterates over the entries as they were when iteration began.
    ///
    /// A managed map's entries are read a batch at a time as the loop goes:
    /// a loop over a large map holds one batch of it, not all of it.
    public func makeIterator() -> ValueCollectionIterator<SingleMapEntry<Key, Value>> {
        guard let (realm, handle) = binding else { return ValueCollectionIterator(elements: entries()) }
        return realm.withAccess {
            verifyValid(realm)
            guard let cursor = realm.perform("read a map", ifDamaged: nil, { try $0.mapCursor(of: handle) }) else {
                return ValueCollectionIterator(elements: [])
            }
            // Values other than objects need no Realm.
            let converting = Value._readsRealm ? realm : nil
            return ValueCollectionIterator(stream: CollectionStream(realm: realm, cursor: cursor, action: "read a map") {
                cursor, batch, limit throws(RealmError) in
                if try NativeIteration.readMapEntries(from: cursor, into: &batch, upTo: limit) { return }
                batch.removeAll(keepingCapacity: true)
                _ = try cursor.read(upTo: limit) { key, value in
                    batch.append(SingleMapEntry(key: Key._fromValue(.string(key), in: nil), value: Value._fromValue(value, in: converting)))
                }
            })
        }
    }

    /// Every entry, in the order of the keys.
    func entries() -> [SingleMapEntry<Key, Value>] {
        guard let (realm, handle) = binding else {
            return unmanaged.keys.sorted().map { SingleMapEntry(key: $0, value: unmanaged[$0]!) }
        }
        return realm.withAccess {
            verifyValid(realm)
            // Each entry is converted as it is read: no array of
            // `Value`s on the way. Values other than objects need no
            // Realm.
            let converting = Value._readsRealm ? realm : nil
            return realm.perform("read a map", ifDamaged: []) { transaction in
                // Written in place, counted first: appending to an
                // array of a generic element type looks up the array's
                // type on every call.
                if let native = try NativeIteration.mapEntries(of: handle, as: SingleMapEntry<Key, Value>.self, transaction) {
                    return native
                }
                let count = try transaction.mapCount(of: handle)
                return try [SingleMapEntry<Key, Value>](unsafeUninitializedCapacity: count) { buffer, initialized in
                    try transaction.forEachEntry(of: handle) { key, value in
                        // More rows than counted: a damaged file.
                        guard initialized < count else { return }
                        (buffer.baseAddress! + initialized).initialize(
                            to: SingleMapEntry(key: Key._fromValue(.string(key), in: nil), value: Value._fromValue(value, in: converting)))
                        initialized += 1
                    }
                }
            }
        }
    }

    // MARK: Helpers

    private static func text(_ key: Key) -> String {
        // Keys are strings (the only `_MapKey`): no call through the
        // key's witness table and no `Value` on each access.
        if Key.self == String.self { return unsafeBitCast(key, to: String.self) }
        if case .string(let text) = try? key._toValue(in: nil) { return text }
        return "\(key)"
    }

    /// The query of the objects a managed map holds (its table joined to
    /// theirs, in the order of the keys).
    func objectQuery<Target: Object>(_ target: Target.Type) -> (Realm, Query) {
        guard let (realm, handle) = binding else {
            preconditionFailure("This method may only be called on Map instances retrieved from a Realm.")
        }
        return realm.withAccess {
            verifyValid(realm)
            let owner = realm.className(of: handle.owningClass)
            let property = realm.propertyName(handle.property, of: handle.owningClass)
            // The schema names the class: a dynamic map's objects are
            // `DynamicObject`s of it.
            let className = realm.schema[owner]?[propertyNamed: property]?.objectClassName ?? target.className()
            return (realm, Query(className: className, source: .list(ownerClass: owner, property: property, owner: handle.owner)))
        }
    }

    private func verifyValid(_ realm: Realm) {
        if invalidations != realm.state.invalidations {
            preconditionFailure("Access to invalidated Map object: its Realm was invalidated after it was obtained.")
        }
    }

    private func name(_ handle: ListHandle, in realm: Realm) -> String {
        "'\(handle.owningClass.className).\(realm.propertyName(handle.property, of: handle.owningClass))'"
    }

    // MARK: Binding

    /// The Realm and handle of a managed map.
    var managed: (realm: Realm, handle: ListHandle)? {
        guard let binding else { return nil }
        verifyValid(binding.realm)
        return binding
    }

    static var valueType: _Persistable.Type { Value.self }

    func bind(to realm: Realm, owner: ObjectKey, ownerHandle: ClassHandle, property: Int) {
        binding = (realm, ListHandle(owningClass: ownerHandle, owner: owner, property: property))
        unmanaged = [:]
        invalidations = realm.state.invalidations
    }

    /// Binds the map to a stored map: a nested dictionary (see
    /// `Realm.storeMixed`).
    func bind(to realm: Realm, handle: ListHandle) {
        binding = (realm, handle)
        unmanaged = [:]
        invalidations = realm.state.invalidations
    }

    var anyEntries: [(key: String, value: _Persistable)] {
        entries().map { (Self.text($0.key), $0.value) }
    }

    var unmanagedEntries: [(key: String, value: _Persistable)]? {
        guard binding == nil else { return nil }
        return unmanaged.keys.sorted().map { (Self.text($0), unmanaged[$0]!) }
    }

    func setUnmanaged(_ entries: [(key: String, value: _Persistable)]) {
        var converted: [Key: Value] = [:]
        for (key, value) in entries {
            guard let value = value as? Value else { continue }
            converted[Key._fromValue(.string(key), in: nil)] = value
        }
        unmanaged = converted
    }
}

/// What schema discovery and binding need of a `Map` whatever its types.
protocol MapFactory: ManagedProperty {
    static var valueType: _Persistable.Type { get }
    /// Every key and value, managed or not.
    var anyEntries: [(key: String, value: _Persistable)] { get }
    var unmanagedEntries: [(key: String, value: _Persistable)]? { get }
    func setUnmanaged(_ entries: [(key: String, value: _Persistable)])
}

extension Map: _Persistable {
    public static var _isCollection: Bool { true }
    public static var _propertyType: PropertyType { Value._propertyType }
    public static var _defaultValue: Map<Key, Value> { Map() }
    public static func _fromValue(_ value: RealmCore.Value, in realm: Realm?) -> Map<Key, Value> {
        preconditionFailure("A map property is not read as one value.")
    }
    public func _toValue(in realm: Realm?) throws -> RealmCore.Value {
        throw Realm.Error(.wrongType, "A map cannot be stored as a value: collections of collections are not supported.")
    }
    public static func _convert(from any: Any) -> Map<Key, Value>? { nil }
}

extension Map: CollectionAssignment {
    @usableFromInline
    func assignContents(of other: Any) -> Bool {
        guard let other = other as? Map<Key, Value> else { return false }
        guard other !== self else { return true }
        let entries = other.entries()
        removeAll()
        for entry in entries { updateValue(entry.value, forKey: entry.key) }
        return true
    }
}

extension Map: Equatable {
    /// Whether the two are the same managed map (of one object's property
    /// in one Realm), or unmanaged maps with the same keys and, at each
    /// key, the same value (objects compared as ``Object/isSameObject(as:)``
    /// does), as Realm compares maps.
    public static func == (lhs: Map, rhs: Map) -> Bool {
        if lhs === rhs { return true }
        switch (lhs.managed, rhs.managed) {
        case (nil, nil):
            let (left, right) = (lhs.entries(), rhs.entries())
            // Both are in key order, so equal maps pair up entry by entry.
            return left.count == right.count
                && zip(left, right).allSatisfy { $0.key == $1.key && sameValue($0.value, $1.value) }
        case (let left?, let right?):
            return left.realm.configuration.identity == right.realm.configuration.identity && left.handle == right.handle
        default:
            return false
        }
    }

    private static func sameValue(_ lhs: Value, _ rhs: Value) -> Bool {
        // An optional object that is nil casts to no object: it compares as
        // a null value below.
        switch (lhs as? Object, rhs as? Object) {
        case (let left?, let right?): return left.isSameObject(as: right)
        case (nil, nil): return (try? lhs._toValue(in: nil)) == (try? rhs._toValue(in: nil))
        default: return false
        }
    }
}

extension Map: CustomStringConvertible {
    /// The map and its entries in Realm's format, objects described as
    /// ``Object/description`` does and indented one level deeper:
    ///
    /// ```
    /// Map<string, Dog> <0x600001b4c0c0> (
    /// [rex]: Dog {
    /// 		name = Rex;
    /// 	}
    /// )
    /// ```
    ///
    /// The first 100 entries are shown.
    public var description: String {
        let maximumEntries = 100
        let valueName = Value._objectType.map { ClassNames.name(of: $0) } ?? Self.typeName(Value._propertyType)
        let address = "0x" + String(UInt(bitPattern: ObjectIdentifier(self)), radix: 16)
        var text = "Map<string, \(valueName)> <\(address)> (\n"
        let entries = entries()
        text += entries.prefix(maximumEntries).map { entry in
            "[\(entry.key)]: \(Self.describe(entry.value))".replacingOccurrences(of: "\n", with: "\n\t")
        }.joined(separator: ",\n")
        if entries.count > maximumEntries { text += "\n\t... \(entries.count - maximumEntries) objects skipped." }
        return text + "\n)"
    }

    /// Realm's name of a value type, as its descriptions print it.
    private static func typeName(_ type: PropertyType) -> String {
        switch type {
        case .objectId: "object id"
        case .decimal: "decimal128"
        default: type.rawValue
        }
    }

    private static func describe(_ value: Value) -> String {
        if let object = value as? Object {
            return ObjectDescription.describe(object, depth: ObjectDescription.maximumDepth - 1)
        }
        // Print an optional's value, not `Optional(…)`.
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            return mirror.children.first.map { "\($0.value)" } ?? "<null>"
        }
        return "\(value)"
    }
}
