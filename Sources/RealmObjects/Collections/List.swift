import Foundation
import RealmCore
import RealmQuery

/// An ordered list of objects or values, stored in a property of its owner:
/// the to-many relationship of Realm models.
///
/// ```swift
/// class Person: Object {
///     let dogs = List<Dog>()
///     let nicknames = List<String>()
/// }
/// ```
///
/// Declare lists with `let`. On an unmanaged object a list is a plain
/// array; once the owner is managed, the list reads and writes the database
/// (writes inside a write transaction) and is live like its owner.
public final class List<Element: RealmCollectionValue>: RealmCollection, ListFactory, ManagedProperty {
    private enum Storage {
        case unmanaged([Element])
        case managed(Realm, ListHandle)
    }

    private var storage: Storage = .unmanaged([])
    /// The count answered in SQL, which the elements then agree with.
    private var reportedCount = ReportedCount()

    /// An empty, unmanaged list.
    public init() {}

    // MARK: RealmCollection

    public var realm: Realm? {
        if case .managed(let realm, _) = storage { return realm }
        return nil
    }

    public var isInvalidated: Bool {
        guard case .managed(let realm, let handle) = storage else { return false }
        return invalidations != realm.state.invalidations || !realm.objectExists(key: handle.owner, handle: handle.owningClass)
            || !realm.nestedCollectionExists(handle)
    }

    /// The Realm's count of `invalidate()` calls when the list was bound to
    /// it: a later call invalidates the list.
    private var invalidations = 0

    /// Stops with Realm's message when the list was obtained before the
    /// Realm's last `invalidate()`.
    private func verifyValid(_ realm: Realm) {
        if invalidations != realm.state.invalidations {
            preconditionFailure("Access to invalidated List object: its Realm was invalidated after it was obtained.")
        }
    }

    public var _query: Query? {
        guard case .managed(let realm, let handle) = storage, let objectType = Element._objectType else { return nil }
        verifyValid(realm)
        let owner = realm.className(of: handle.owningClass)
        let property = realm.propertyName(handle.property, of: handle.owningClass)
        return Query(className: dynamicTargetClass ?? objectType.className(), source: .list(ownerClass: owner, property: property, owner: handle.owner))
    }

    /// For a list of `DynamicObject`s, the class its elements belong to,
    /// which the element type does not tell.
    private var dynamicTargetClass: String?

    /// The list's name for messages: its owner's class and property.
    private func name(_ handle: ListHandle, in realm: Realm) -> String {
        "'\(handle.owningClass.className).\(realm.propertyName(handle.property, of: handle.owningClass))'"
    }

    /// A dynamic list takes objects of its target class only: its element
    /// type cannot say which class that is.
    private func checkDynamicTarget(_ element: Element) throws {
        guard let dynamicTargetClass, let object = element as? Object, object.objectSchema.name != dynamicTargetClass else { return }
        throw Realm.Error(.wrongType, "Cannot add an object of class '\(object.objectSchema.name)' to a list of '\(dynamicTargetClass)' objects.")
    }

    /// An element read from the database.
    private func element(_ value: Value, in realm: Realm) -> Element {
        if let dynamicTargetClass, case .object(let key) = value {
            return realm.makeObject(DynamicObject.self, key: key, className: dynamicTargetClass) as! Element
        }
        return Element._fromValue(value, in: realm)
    }

    public var count: Int {
        switch storage {
        case .unmanaged(let elements):
            return elements.count
        case .managed(let realm, let handle):
            return realm.withAccess {
                verifyValid(realm)
                let count = realm.perform("count a list", ifDamaged: 0) { try $0.count(of: handle) }
                reportedCount.note(count, at: realm.transaction.changeCounter)
                return count
            }
        }
    }

    public subscript(position: Int) -> Element {
        get {
            Self.checkNotNegative(position)
            switch storage {
            case .unmanaged(let elements):
                Self.checkIndex(position, count: elements.count)
                return elements[position]
            case .managed(let realm, let handle):
                return realm.withAccess {
                    verifyValid(realm)
                    let value = realm.perform("read a list element", ifDamaged: .null) { try $0.value(at: position, in: handle) }
                    return element(value, in: realm)
                }
            }
        }
        set {
            replace(index: position, object: newValue)
        }
    }

    public var first: Element? { isEmpty ? nil : self[0] }
    public var last: Element? { isEmpty ? nil : self[count - 1] }

    /// Iterates over the elements as they were when iteration began.
    ///
    /// A managed list of objects streams them from the list's query, a row
    /// at a time, as a `Results` loop does: a loop that lets each object go
    /// keeps one row in memory, not the whole list.
    public func makeIterator() -> Iterator {
        guard let realm else { return Iterator(elements: elements()) }
        return realm.withAccess(makeManagedIterator)
    }

    private func makeManagedIterator() -> Iterator {
        if case .managed(let realm, _) = storage, Element.self is AnyObject.Type,
           let objectType = Element._objectType, let query = _query {
            verifyValid(realm)
            let counted = reportedCount.count(at: realm.transaction.changeCounter)
            guard let factory = ObjectFactory(realm: realm, type: objectType, className: query.className) else {
                // No class to make objects of (a damaged catalog): the
                // elements the list counted, without values.
                if let counted, counted > 0 { realm.noteCountMismatch(counted: counted, read: 0, while: "read a list") }
                return Iterator(elements: [], counted: counted)
            }
            let cursor = realm.perform("read a list", ifDamaged: nil) { transaction in
                try query.makeCursor(in: transaction) as ObjectCursor?
            }
            return Iterator(walk: cursor.map { ObjectWalk(cursor: $0, factory: factory) }, factory: factory, counted: counted)
        }
        return Iterator(elements: elements())
    }

    /// Iterates over a list's elements as they were when iteration began.
    public struct Iterator: IteratorProtocol {
        private var elements: IndexingIterator<[Element]>?
        private let walk: ObjectWalk?
        private let factory: ObjectFactory?
        /// Held to the count answered at this version, if one was.
        private var loop: CountedLoop?

        init(elements: [Element], counted: Int? = nil) {
            self.elements = elements.makeIterator()
            walk = nil
            factory = nil
            loop = counted.map(CountedLoop.init(expected:))
        }

        init(walk: ObjectWalk?, factory: ObjectFactory, counted: Int?) {
            elements = nil
            self.walk = walk
            self.factory = factory
            loop = counted.map(CountedLoop.init(expected:))
        }

        /// The next element, or nil after the last.
        public mutating func next() -> Element? {
            guard let walk else {
                guard var loop else { return elements?.next() }
                defer { self.loop = loop }
                return loop.next({ elements?.next() }, placeholder: { Element._fromValue(.null, in: nil) }, mismatch: { _ in })
            }
            // The walk makes objects of the list's class, and `Element` is
            // that class (`makeIterator` checked it is a class).
            guard var loop, let factory else {
                guard let object = walk.next() else { return nil }
                return unsafeBitCast(object, to: Element.self)
            }
            defer { self.loop = loop }
            let object = loop.next({ walk.next() }, placeholder: { factory.make(.unreadable) }) { [expected = loop.expected] rows in
                factory.realm.noteCountMismatch(counted: expected, read: rows, while: "read the next object of a list")
            }
            return object.map { unsafeBitCast($0, to: Element.self) }
        }
    }

    /// Every element, read in one query when managed. (A managed list of
    /// objects is iterated by ``makeIterator()``, which streams them.)
    func elements() -> [Element] {
        switch storage {
        case .unmanaged(let elements):
            return elements
        case .managed(let realm, let handle):
            return realm.withAccess { managedElements(realm, handle) }
        }
    }

    private func managedElements(_ realm: Realm, _ handle: ListHandle) -> [Element] {
        verifyValid(realm)
        var values = realm.perform("read a list", ifDamaged: []) { try $0.values(of: handle) }
        if let counted = reportedCount.count(at: realm.transaction.changeCounter), counted != values.count {
            // See `ReportedCount`: a damaged file's rows disagree with
            // its count.
            realm.noteCountMismatch(counted: counted, read: values.count, while: "read a list")
            values = Array(values.prefix(counted)) + repeatElement(.null, count: Swift.max(0, counted - values.count))
        }
        return values.map { element($0, in: realm) }
    }

    // MARK: Mutation

    /// Appends an element; an unmanaged object appended to a managed list is
    /// added to the Realm.
    public func append(_ element: Element) {
        // A metatype check: `element is EmbeddedObject` casts a generic
        // value, which costs a thousand instructions per element.
        guard case .managed(let realm, let handle) = storage, !(Element.self is EmbeddedObject.Type) else {
            insert(element, at: count)
            return
        }
        // Appending needs the list's length once, which RealmCore reads as
        // it inserts: asking for `count` here as well would read it twice.
        verifyValid(realm)
        realm.recordingFailure(of: "append to list \(name(handle, in: realm))") {
            try realm.inOneStep(element) {
                try checkDynamicTarget(element)
                // An unmanaged object is added by `_toValue`: its row
                // exists, and RealmCore need not look it up again.
                // (Metatype checks and a reinterpretation, not `as? Object`:
                // a cast of a generic value on every append.)
                let isNew = Element._objectType != nil && Element.self is AnyObject.Type
                    && unsafeBitCast(element, to: Object.self)._realm == nil
                if Element.self == AnyRealmValue.self, let mixed = element as? AnyRealmValue, mixed.isNestedCollection {
                    try realm.storeMixed(mixed, at: .append(handle))
                    return
                }
                try realm.transaction.append(try element._toValue(in: realm), to: handle, targetIsNew: isNew)
            }
        }
    }

    /// Appends every element of a sequence.
    public func append<S: Sequence>(objectsIn elements: S) where S.Element == Element {
        for element in elements { append(element) }
    }

    /// Inserts an element at `index` (0...count).
    public func insert(_ element: Element, at index: Int) {
        Self.checkNotNegative(index)
        switch storage {
        case .unmanaged(var elements):
            precondition(index >= 0 && index <= elements.count, "Index \(index) is out of bounds (must be at most \(elements.count)).")
            elements.insert(element, at: index)
            storage = .unmanaged(elements)
        case .managed(let realm, let handle):
            verifyValid(realm)
            realm.recordingFailure(of: "insert into list \(name(handle, in: realm))") {
                try realm.inOneStep(element) { try store(element, at: index, realm: realm, handle: handle) }
            }
        }
    }

    /// Inserts `element` into the managed list; an unmanaged object is
    /// added (or, embedded, copied) first.
    func store(_ element: Element, at index: Int, realm: Realm, handle: ListHandle) throws {
        try checkDynamicTarget(element)
        if let embedded = element as? EmbeddedObject {
            try realm.insertEmbedded(embedded, at: index, in: handle)
        } else if Element.self == AnyRealmValue.self, let mixed = element as? AnyRealmValue, mixed.isNestedCollection {
            try realm.storeMixed(mixed, at: .insert(handle, index))
        } else {
            try realm.transaction.insert(try element._toValue(in: realm), at: index, in: handle)
        }
    }

    /// The list's Realm and handle, when it is managed.
    var managed: (realm: Realm, handle: ListHandle)? {
        guard case .managed(let realm, let handle) = storage else { return nil }
        verifyValid(realm)
        return (realm, handle)
    }

    /// Changes the elements of an unmanaged list.
    func changeUnmanaged(_ change: (inout [Element]) -> Void) {
        guard case .unmanaged(var elements) = storage else { return }
        change(&elements)
        storage = .unmanaged(elements)
    }

    /// The list's name for messages, when it is managed.
    func name(in realm: Realm) -> String {
        guard case .managed(_, let handle) = storage else { return "an unmanaged list" }
        return name(handle, in: realm)
    }

    /// Removes the element at `index`.
    public func remove(at index: Int) {
        Self.checkNotNegative(index)
        if case .unmanaged(let elements) = storage { Self.checkIndex(index, count: elements.count) }
        mutate("remove from list", { $0.remove(at: index) }) { try $0.remove(at: index, from: $1) }
    }


    /// Removes every element (embedded objects are deleted).
    public func removeAll() {
        mutate("remove from list", { $0.removeAll() }) { try $0.removeAll(from: $1) }
    }

    /// Moves the element at `from` to `to`.
    public func move(from: Int, to: Int) {
        Self.checkNotNegative(from, parameter: "from")
        Self.checkNotNegative(to, parameter: "to")
        if case .unmanaged(let elements) = storage {
            Self.checkIndex(from, count: elements.count)
            Self.checkIndex(to, count: elements.count)
        }
        mutate("move within list", { elements in
            let element = elements.remove(at: from)
            elements.insert(element, at: to)
        }) { try $0.move(from: from, to: to, in: $1) }
    }

    /// Exchanges the elements at two indices.
    public func swapAt(_ index1: Int, _ index2: Int) {
        Self.checkNotNegative(index1, parameter: "index1")
        Self.checkNotNegative(index2, parameter: "index2")
        if case .unmanaged(let elements) = storage {
            Self.checkIndex(index1, count: elements.count)
            Self.checkIndex(index2, count: elements.count)
        }
        mutate("swap elements of list", { $0.swapAt(index1, index2) }) { try $0.swapAt(index1, index2, in: $1) }
    }

    /// Replaces the element at `index`.
    public func replace(index: Int, object: Element) {
        Self.checkNotNegative(index)
        switch storage {
        case .unmanaged(var elements):
            Self.checkIndex(index, count: elements.count)
            elements[index] = object
            storage = .unmanaged(elements)
        case .managed(let realm, let handle):
            verifyValid(realm)
            realm.recordingFailure(of: "replace an element of list \(name(handle, in: realm))") {
                try checkDynamicTarget(object)
                try realm.inOneStep(object) {
                    if let embedded = object as? EmbeddedObject {
                        // A new embedded object takes the place of the old
                        // one, which is deleted with its link, as in Realm.
                        try realm.transaction.remove(at: index, from: handle)
                        try realm.insertEmbedded(embedded, at: index, in: handle)
                    } else if Element.self == AnyRealmValue.self, let mixed = object as? AnyRealmValue, mixed.isNestedCollection {
                        try realm.storeMixed(mixed, at: .replace(handle, index))
                    } else {
                        try realm.transaction.replace(at: index, with: try object._toValue(in: realm), in: handle)
                    }
                }
            }
        }
    }

    private func mutate(_ action: @autoclosure () -> String, _ unmanaged: (inout [Element]) -> Void, _ managed: (Transaction, ListHandle) throws -> Void) {
        switch storage {
        case .unmanaged(var elements):
            unmanaged(&elements)
            storage = .unmanaged(elements)
        case .managed(let realm, let handle):
            verifyValid(realm)
            realm.recordingFailure(of: "\(action()) \(name(handle, in: realm))") { try managed(realm.transaction, handle) }
        }
    }

    /// Stops, with Realm's message, for a negative index: checked before
    /// anything else, managed or not.
    private static func checkNotNegative(_ index: Int, parameter: String = "index") {
        precondition(index >= 0, "Cannot pass a negative value '\(index)' for parameter '\(parameter)'.")
    }

    /// Stops, with Realm's message, for an index past the end of an
    /// unmanaged list (RealmCore says the same of a managed one).
    private static func checkIndex(_ index: Int, count: Int) {
        precondition(index < count, "Index \(index) is out of bounds (must be less than \(count)).")
    }

    // MARK: Binding

    /// The Realm and list handle of a managed list.
    var _managedHandle: (realm: Realm, handle: ListHandle)? {
        if case .managed(let realm, let handle) = storage { return (realm, handle) }
        return nil
    }

    static var elementType: _Persistable.Type { Element.self }

    /// Binds the list to a stored list: a nested one (see `Realm.storeMixed`).
    func bind(to realm: Realm, handle: ListHandle) {
        storage = .managed(realm, handle)
        invalidations = realm.state.invalidations
    }

    func bind(to realm: Realm, owner: ObjectKey, ownerHandle: ClassHandle, property: Int) {
        storage = .managed(realm, ListHandle(owningClass: ownerHandle, owner: owner, property: property))
        invalidations = realm.state.invalidations
        if Element.self == DynamicObject.self {
            dynamicTargetClass = realm.state.dynamicInfo(ownerHandle.className).objectSchema.properties[property].objectClassName
        }
    }

    /// The unmanaged elements, copied into the Realm when the owner is added.
    var unmanagedElements: [_Persistable]? {
        if case .unmanaged(let elements) = storage { return elements }
        return nil
    }

    func setUnmanaged(_ elements: [_Persistable]) {
        storage = .unmanaged(elements.compactMap { $0 as? Element })
    }
}

/// What schema discovery and binding need of a `List` whatever its element.
protocol ListFactory: ManagedProperty {
    static var elementType: _Persistable.Type { get }
    var unmanagedElements: [_Persistable]? { get }
    func setUnmanaged(_ elements: [_Persistable])
}

/// A `let` property (list, optional, linking objects) that switches to the
/// database when its owner becomes managed.
protocol ManagedProperty: AnyObject {
    func bind(to realm: Realm, owner: ObjectKey, ownerHandle: ClassHandle, property: Int)
}
