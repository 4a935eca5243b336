import Foundation
import RealmCore
import RealmQuery

/// An unordered collection of distinct values or objects, stored in a
/// property of its owner: Realm 10's `MutableSet`.
///
/// ```swift
/// class Person: Object {
///     @Persisted var tags: MutableSet<String>
///     @Persisted var friends: MutableSet<Person>
/// }
/// person.tags.insert("swift")
/// ```
///
/// Declare with `@Persisted var` or `let`. On an unmanaged object a set is
/// a plain collection; once the owner is managed, the set reads and writes
/// the database (writes inside a write transaction) and is live like its
/// owner. Equal values are one element: strings by code points, numbers
/// and decimals by value, objects by identity. The elements come in the
/// order of their values (objects in the order they were added); the
/// order is not part of a set's meaning.
public final class MutableSet<Element: RealmCollectionValue>: RealmCollection, SetFactory {
    // Where the elements are: in the Realm, for a managed set (`binding`),
    // or in `unmanagedElements`. Not an enum with the array as a payload:
    // code that is not specialized to the element type would look up that
    // enum's type metadata on every access.
    /// The Realm and handle of a managed set.
    private var binding: (realm: Realm, handle: ListHandle)?
    /// An unmanaged set's elements, in the order they were inserted.
    private var unmanaged: [Element] = []
    /// The Realm's count of `invalidate()` calls when the set was bound.
    private var invalidations = 0
    /// For a set of `DynamicObject`s, the class its elements belong to.
    private var dynamicTargetClass: String?

    /// An empty, unmanaged set.
    public init() {}

    // MARK: RealmCollection

    /// The Realm managing the set, or nil when unmanaged.
    public var realm: Realm? {
        binding?.realm
    }

    /// Whether the owner was deleted, or its Realm invalidated since the set
    /// was read.
    public var isInvalidated: Bool {
        guard let (realm, handle) = binding else { return false }
        return invalidations != realm.state.invalidations || !realm.objectExists(key: handle.owner, handle: handle.owningClass)
    }

    /// The query of a managed set of objects (its elements); nil otherwise.
    public var _query: Query? {
        guard let (realm, handle) = binding, let objectType = Element._objectType else { return nil }
        verifyValid(realm)
        let owner = realm.className(of: handle.owningClass)
        let property = realm.propertyName(handle.property, of: handle.owningClass)
        return Query(className: dynamicTargetClass ?? objectType.className(), source: .list(ownerClass: owner, property: property, owner: handle.owner))
    }

    /// The number of elements.
    public var count: Int {
        guard let (realm, handle) = binding else { return unmanaged.count }
        verifyValid(realm)
        return realm.perform("count a set", ifDamaged: 0) { try $0.setCount(of: handle) }
    }

    /// The element at `position` in the set's current order.
    public subscript(position: Int) -> Element {
        let elements = elements()
        precondition(position >= 0 && position < elements.count, "Index \(position) is out of bounds (must be less than \(elements.count)).")
        return elements[position]
    }

    /// The first element in the set's order, or nil when empty.
    public var first: Element? { elements().first }
    /// The last element in the set's order, or nil when empty.
    public var last: Element? { elements().last }

    /// Iterates over the elements as they were when iteration began: the
    /// set may change inside the loop.
    ///
    /// A managed set's elements are read a batch at a time as the loop goes:
    /// a loop over a large set holds one batch of it, not all of it.
    public func makeIterator() -> ValueCollectionIterator<Element> {
        guard let (realm, handle) = binding else { return ValueCollectionIterator(elements: unmanaged) }
        return realm.withAccess {
            verifyValid(realm)
            guard let cursor = realm.perform("read a set", ifDamaged: nil, { try $0.setCursor(of: handle) }) else {
                return ValueCollectionIterator(elements: [])
            }
            // Values other than objects need no Realm.
            let converting = Element._readsRealm ? realm : nil
            let isDynamic = dynamicTargetClass != nil
            return ValueCollectionIterator(stream: CollectionStream(realm: realm, cursor: cursor, action: "read a set") {
                cursor, batch, limit throws(RealmError) in
                if !isDynamic, try NativeIteration.readSetElements(from: cursor, into: &batch, upTo: limit) { return }
                batch.removeAll(keepingCapacity: true)
                _ = try cursor.read(upTo: limit) { _, value in
                    batch.append(isDynamic ? self.element(value, in: realm) : Element._fromValue(value, in: converting))
                }
            })
        }
    }

    /// Every element, read in one query when managed.
    func elements() -> [Element] {
        guard let (realm, handle) = binding else { return unmanaged }
        return realm.withAccess {
            verifyValid(realm)
            // Each stored value is converted as it is read: no array
            // of `Value`s on the way. Values other than objects need
            // no Realm: not passing it spares a retain and a release
            // per element.
            let converting = Element._readsRealm ? realm : nil
            let isDynamic = dynamicTargetClass != nil
            return realm.perform("read a set", ifDamaged: []) { transaction in
                // Written in place, counted first: appending to an
                // array of a generic element type looks up the array's
                // type on every call.
                if !isDynamic, let native = try NativeIteration.setElements(of: handle, as: Element.self, transaction) {
                    return native
                }
                let count = try transaction.setCount(of: handle)
                return try [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
                    try transaction.forEachSetValue(of: handle) { value in
                        // More rows than counted: a damaged file.
                        guard initialized < count else { return }
                        (buffer.baseAddress! + initialized).initialize(to: isDynamic ? element(value, in: realm) : Element._fromValue(value, in: converting))
                        initialized += 1
                    }
                }
            }
        }
    }

    /// Whether the set holds `element` (for objects: the same stored
    /// object).
    public func contains(_ element: Element) -> Bool {
        guard let (realm, handle) = binding else { return unmanaged.contains { Self.same($0, element) } }
        return realm.withAccess {
            verifyValid(realm)
            guard let value = storedValue(of: element, in: realm) else { return false }
            return realm.perform("read a set", ifDamaged: false) { try $0.setContains(value, in: handle) }
        }
    }

    // MARK: Mutation

    /// Adds `element` unless the set holds it; an unmanaged object added to
    /// a managed set is added to the Realm.
    public func insert(_ element: Element) {
        guard let (realm, handle) = binding else {
            if !unmanaged.contains(where: { Self.same($0, element) }) { unmanaged.append(element) }
            return
        }
        verifyValid(realm)
        realm.recordingFailure(of: "insert into set \(name(handle, in: realm))") {
            try realm.inOneStep(element) {
                try checkDynamicTarget(element)
                try realm.transaction.insert(try element._toValue(in: realm), intoSet: handle)
            }
        }
    }

    /// Adds every element of a sequence.
    public func insert<S: Sequence>(objectsIn elements: S) where S.Element == Element {
        for element in elements { insert(element) }
    }

    /// Removes `element` if the set holds it.
    public func remove(_ element: Element) {
        guard let (realm, handle) = binding else {
            unmanaged.removeAll { Self.same($0, element) }
            return
        }
        verifyValid(realm)
        realm.recordingFailure(of: "remove from set \(name(handle, in: realm))") {
            guard let value = storedValue(of: element, in: realm) else { return }
            try realm.transaction.remove(value, fromSet: handle)
        }
    }

    /// Removes every element.
    public func removeAll() {
        guard let (realm, handle) = binding else {
            unmanaged = []
            return
        }
        verifyValid(realm)
        realm.recordingFailure(of: "remove from set \(name(handle, in: realm))") {
            try realm.transaction.removeAll(fromSet: handle)
        }
    }

    // MARK: Set algebra

    /// Whether every element of this set is in `other`.
    public func isSubset(of other: MutableSet<Element>) -> Bool {
        allSatisfy { other.contains($0) }
    }

    /// Whether this set and `other` share an element.
    public func intersects(_ other: MutableSet<Element>) -> Bool {
        contains { other.contains($0) }
    }

    /// Keeps only the elements that are also in `other`.
    public func formIntersection(_ other: MutableSet<Element>) {
        for element in elements() where !other.contains(element) { remove(element) }
    }

    /// Adds the elements of `other`.
    public func formUnion(_ other: MutableSet<Element>) {
        insert(objectsIn: other.elements())
    }

    /// Removes the elements that are in `other`.
    public func subtract(_ other: MutableSet<Element>) {
        for element in other.elements() { remove(element) }
    }

    // MARK: Helpers

    private func verifyValid(_ realm: Realm) {
        if invalidations != realm.state.invalidations {
            preconditionFailure("Access to invalidated MutableSet object: its Realm was invalidated after it was obtained.")
        }
    }

    /// The stored form of `element` to look up, or nil for an object that
    /// cannot be in the set (unmanaged, or of another Realm).
    private func storedValue(of element: Element, in realm: Realm) -> Value? {
        if let object = element as? Object {
            guard object._realm?.configuration.identity == realm.configuration.identity, !object.isInvalidated else { return nil }
            return .object(object._key)
        }
        // An object in a mixed value is stored as a link with its class;
        // one of another Realm, or unmanaged, is in no set of this one.
        if let mixed = element as? AnyRealmValue, case .object(let object) = mixed {
            guard object._realm?.configuration.identity == realm.configuration.identity, !object.isInvalidated,
                  let handle = object._handle else { return nil }
            return .link(className: handle.className, key: object._key)
        }
        return try? element._toValue(in: nil)
    }

    private func element(_ value: Value, in realm: Realm) -> Element {
        if let dynamicTargetClass, case .object(let key) = value {
            return realm.makeObject(DynamicObject.self, key: key, className: dynamicTargetClass) as! Element
        }
        return Element._fromValue(value, in: realm)
    }

    private func checkDynamicTarget(_ element: Element) throws {
        guard let dynamicTargetClass, let object = element as? Object, object.objectSchema.name != dynamicTargetClass else { return }
        throw Realm.Error(.wrongType, "Cannot add an object of class '\(object.objectSchema.name)' to a set of '\(dynamicTargetClass)' objects.")
    }

    private func name(_ handle: ListHandle, in realm: Realm) -> String {
        "'\(handle.owningClass.className).\(realm.propertyName(handle.property, of: handle.owningClass))'"
    }

    // MARK: Binding

    /// The Realm and handle of a managed set.
    var managed: (realm: Realm, handle: ListHandle)? {
        guard let binding else { return nil }
        verifyValid(binding.realm)
        return binding
    }

    static var elementType: _Persistable.Type { Element.self }

    func bind(to realm: Realm, owner: ObjectKey, ownerHandle: ClassHandle, property: Int) {
        binding = (realm, ListHandle(owningClass: ownerHandle, owner: owner, property: property))
        unmanaged = []
        invalidations = realm.state.invalidations
        if Element.self == DynamicObject.self {
            dynamicTargetClass = realm.state.dynamicInfo(ownerHandle.className).objectSchema.properties[property].objectClassName
        }
    }

    var unmanagedElements: [_Persistable]? {
        binding == nil ? unmanaged : nil
    }

    func setUnmanaged(_ elements: [_Persistable]) {
        unmanaged = []
        for case let element as Element in elements { insert(element) }
    }
}

/// What schema discovery and binding need of a `MutableSet` whatever its
/// element.
protocol SetFactory: ManagedProperty {
    static var elementType: _Persistable.Type { get }
    var unmanagedElements: [_Persistable]? { get }
    func setUnmanaged(_ elements: [_Persistable])
}

extension MutableSet: _Persistable {
    public static var _isCollection: Bool { true }
    public static var _propertyType: PropertyType { Element._propertyType }
    public static var _defaultValue: MutableSet<Element> { MutableSet() }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> MutableSet<Element> {
        preconditionFailure("A set property is not read as one value.")
    }
    public func _toValue(in realm: Realm?) throws -> Value {
        throw Realm.Error(.wrongType, "A set cannot be stored as a value: collections of collections are not supported.")
    }
    public static func _convert(from any: Any) -> MutableSet<Element>? { nil }
}

extension MutableSet: CollectionAssignment {
    @usableFromInline
    func assignContents(of other: Any) -> Bool {
        guard let other = other as? MutableSet<Element> else { return false }
        guard other !== self else { return true }
        let elements = other.elements()
        removeAll()
        insert(objectsIn: elements)
        return true
    }
}

extension MutableSet: Equatable {
    /// Whether the two are the same managed set (of one object's property
    /// in one Realm), or unmanaged sets of the same elements in any order
    /// (objects compared as ``Object/isSameObject(as:)`` does), as Realm
    /// compares sets.
    public static func == (lhs: MutableSet, rhs: MutableSet) -> Bool {
        if lhs === rhs { return true }
        switch (lhs.managed, rhs.managed) {
        case (nil, nil):
            // Each side holds distinct elements, so equal counts and every
            // element of one in the other is equality of the sets.
            let right = rhs.elements()
            let left = lhs.elements()
            return left.count == right.count && left.allSatisfy { element in right.contains { same($0, element) } }
        case (let left?, let right?):
            return left.realm.configuration.identity == right.realm.configuration.identity && left.handle == right.handle
        default:
            return false
        }
    }
}
