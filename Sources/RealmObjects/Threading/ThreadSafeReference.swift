import Foundation
import RealmCore
import RealmQuery
import Synchronization

/// Carries a managed object, `Results`, `List`, `MutableSet`, `Map`,
/// `LinkingObjects` or `AnyRealmCollection` to another thread, where
/// ``Realm/resolve(_:)`` turns it back into a live one.
///
/// ```swift
/// let personRef = ThreadSafeReference(to: person)
/// DispatchQueue(label: "background").async {
///     let realm = try! Realm()
///     guard let person = realm.resolve(personRef) else { return } // deleted
///     try! realm.write { person.name = "Jane Doe" }
/// }
/// ```
///
/// A reference can be resolved once. The destination Realm is first moved
/// to at least the version the reference was made at, so it sees what the
/// source saw.
public final class ThreadSafeReference<Confined: ThreadConfined>: Sendable {
    let payload: ThreadConfinedPayload
    let configurationIdentity: String
    let version: UInt64
    private let resolved = Mutex(false)

    /// Makes a reference to a managed object or collection.
    ///
    /// - Precondition: `value` is managed by a Realm.
    public init(to value: Confined) {
        guard let realm = value.realm else {
            preconditionFailure("Cannot construct a ThreadSafeReference to an unmanaged \(Confined.self); unmanaged objects can be passed between threads directly.")
        }
        realm.verifyThread()
        payload = value.threadConfinedPayload
        configurationIdentity = realm.configuration.identity
        version = (try? realm.transaction.version) ?? 0
    }

    /// Whether the reference can no longer be resolved: it resolves once,
    /// as in Realm, and a first attempt used it up.
    public var isInvalidated: Bool {
        resolved.withLock { $0 }
    }

    /// Marks the reference resolved; false if it already was.
    func claim() -> Bool {
        resolved.withLock { done in
            defer { done = true }
            return !done
        }
    }
}

/// What a ``ThreadSafeReference`` can carry, and what can be frozen and
/// thawed (see `Freezing.swift`): managed objects and collections.
public protocol ThreadConfined {
    /// The Realm managing the value.
    var realm: Realm? { get }
    var threadConfinedPayload: ThreadConfinedPayload { get }
    static func resolve(_ payload: ThreadConfinedPayload, in realm: Realm) -> Self?
}

/// The thread-independent description of a confined value.
public enum ThreadConfinedPayload: Sendable {
    case object(className: String, key: ObjectKey)
    case results(Query)
    case list(className: String, owner: ObjectKey, property: String)
    case set(className: String, owner: ObjectKey, property: String)
    case map(className: String, owner: ObjectKey, property: String)
    /// A list or dictionary nested in a mixed value.
    case nested(NestedCollection)
    case linkingObjects(ownerClass: String, owner: ObjectKey, property: String)
    /// The collection an `AnyRealmCollection` wraps.
    indirect case wrapped(ThreadConfinedPayload)
    /// `Results` of the values of a list, set or map (the `collection`),
    /// sorted (`ascending` not nil) or made distinct.
    indirect case values(ThreadConfinedPayload, ascending: Bool?, distinct: Bool)
    /// A list or set of objects (the `collection`) seen as their values at
    /// `keyPath` (``ProjectedCollection``).
    indirect case projected(ThreadConfinedPayload, keyPath: ProjectedKeyPath)
}

/// The key path of a ``ProjectedCollection``, carried to another thread.
///
/// `@unchecked Sendable`: a key path is immutable, and those of projections
/// are property key paths (`\Dog.name`), which capture nothing.
public struct ProjectedKeyPath: @unchecked Sendable {
    let keyPath: AnyKeyPath
}

extension Object: ThreadConfined {
    public var threadConfinedPayload: ThreadConfinedPayload {
        precondition(!isInvalidated, "Cannot construct a ThreadSafeReference to a deleted or invalidated object.")
        return .object(className: _handle!.className, key: _key)
    }

    public static func resolve(_ payload: ThreadConfinedPayload, in realm: Realm) -> Self? {
        guard case .object(let className, let key) = payload,
              realm.objectExists(key: key, className: className) else { return nil }
        return realm.makeObject(Self.self, key: key, className: className)
    }
}

extension Results: ThreadConfined {
    public var threadConfinedPayload: ThreadConfinedPayload {
        guard let selection = valueSelection else { return .results(query) }
        guard let realm else { preconditionFailure("Cannot construct a ThreadSafeReference to invalidated Results.") }
        return realm.withAccess { selection.payload(in: realm) }
    }

    public static func resolve(_ payload: ThreadConfinedPayload, in realm: Realm) -> Self? {
        switch payload {
        case .results(let query):
            return Self(realm: realm, query: query)
        case .values:
            return ValueSelection.resolve(payload, in: realm).map { Self(realm: realm, values: $0) }
        default:
            return nil
        }
    }
}

extension List: ThreadConfined {
    public var threadConfinedPayload: ThreadConfinedPayload {
        guard case .some(let query) = _managedHandle else {
            preconditionFailure("Cannot construct a ThreadSafeReference to an unmanaged List.")
        }
        if let nested = query.handle.nested { return .nested(nested) }
        return .list(className: query.handle.owningClass.className, owner: query.handle.owner,
                     property: query.realm.propertyName(query.handle.property, of: query.handle.owningClass))
    }

    public static func resolve(_ payload: ThreadConfinedPayload, in realm: Realm) -> List<Element>? {
        if case .nested(let collection) = payload { return realm.nestedCollection(collection).listValue as? List<Element> }
        guard case .list(let className, let owner, let property) = payload,
              let (handle, index) = realm.collectionProperty(property, of: owner, className: className) else { return nil }
        let list = List<Element>()
        list.bind(to: realm, owner: owner, ownerHandle: handle, property: index)
        return list
    }
}

extension MutableSet: ThreadConfined {
    public var threadConfinedPayload: ThreadConfinedPayload {
        guard let (realm, handle) = managed else {
            preconditionFailure("Cannot construct a ThreadSafeReference to an unmanaged MutableSet.")
        }
        return .set(className: handle.owningClass.className, owner: handle.owner,
                    property: realm.propertyName(handle.property, of: handle.owningClass))
    }

    public static func resolve(_ payload: ThreadConfinedPayload, in realm: Realm) -> MutableSet<Element>? {
        guard case .set(let className, let owner, let property) = payload,
              let (handle, index) = realm.collectionProperty(property, of: owner, className: className) else { return nil }
        let set = MutableSet<Element>()
        set.bind(to: realm, owner: owner, ownerHandle: handle, property: index)
        return set
    }
}

extension Map: ThreadConfined {
    public var threadConfinedPayload: ThreadConfinedPayload {
        guard let (realm, handle) = managed else {
            preconditionFailure("Cannot construct a ThreadSafeReference to an unmanaged Map.")
        }
        if let nested = handle.nested { return .nested(nested) }
        return .map(className: handle.owningClass.className, owner: handle.owner,
                    property: realm.propertyName(handle.property, of: handle.owningClass))
    }

    public static func resolve(_ payload: ThreadConfinedPayload, in realm: Realm) -> Map<Key, Value>? {
        if case .nested(let collection) = payload { return realm.nestedCollection(collection).dictionaryValue as? Map<Key, Value> }
        guard case .map(let className, let owner, let property) = payload,
              let (handle, index) = realm.collectionProperty(property, of: owner, className: className) else { return nil }
        let map = Map<Key, Value>()
        map.bind(to: realm, owner: owner, ownerHandle: handle, property: index)
        return map
    }
}

extension Realm {
    /// The class handle and property index of a collection property of an
    /// object that exists at the version read; nil when the object does
    /// not.
    func collectionProperty(_ property: String, of owner: ObjectKey, className: String) -> (ClassHandle, Int)? {
        withAccess {
            guard let handle = state.handleIfStored(className), objectExists(key: owner, handle: handle) else { return nil }
            return (handle, perform("resolve '\(className).\(property)'") { try $0.propertyIndex(named: property, in: handle) })
        }
    }
}

extension LinkingObjects: ThreadConfined {
    public var threadConfinedPayload: ThreadConfinedPayload {
        guard let owner else {
            preconditionFailure("Cannot construct a ThreadSafeReference to the LinkingObjects of an unmanaged object.")
        }
        return .linkingObjects(ownerClass: owner.className, owner: owner.key, property: propertyName)
    }

    public static func resolve(_ payload: ThreadConfinedPayload, in realm: Realm) -> LinkingObjects<Element>? {
        guard case .linkingObjects(let ownerClass, let owner, let property) = payload,
              let handle = realm.state.handleIfStored(ownerClass),
              realm.objectExists(key: owner, handle: handle) else { return nil }
        let linking = LinkingObjects(fromType: Element.self, property: property)
        linking.bind(to: realm, owner: owner, ownerHandle: handle, property: -1)
        return linking
    }
}

extension AnyRealmCollection: ThreadConfined {
    public var threadConfinedPayload: ThreadConfinedPayload {
        // An AnyRealmCollection of an AnyRealmCollection wraps the same
        // collection once.
        let payload = base.threadConfinedPayload
        if case .wrapped = payload { return payload }
        return .wrapped(payload)
    }

    public static func resolve(_ payload: ThreadConfinedPayload, in realm: Realm) -> AnyRealmCollection<Element>? {
        guard case .wrapped(let wrapped) = payload else { return nil }
        switch wrapped {
        case .results(let query):
            return AnyRealmCollection.wrapping(results: query, in: realm)
        case .list, .nested:
            return List<Element>.resolve(wrapped, in: realm).map { AnyRealmCollection($0) }
        case .set:
            return MutableSet<Element>.resolve(wrapped, in: realm).map { AnyRealmCollection($0) }
        case .linkingObjects:
            return AnyRealmCollection.wrapping(linkingObjects: wrapped, in: realm)
        case .values:
            return Results<Element>.resolve(wrapped, in: realm).map { AnyRealmCollection($0) }
        case .object, .map, .wrapped, .projected:
            return nil
        }
    }
}

extension Realm {
    /// Resolves a reference made on another thread: the object (nil if it
    /// was deleted since), `Results` or `List`, live in this Realm; nil
    /// when the reference was made from a Realm of another file, as in
    /// Realm.
    ///
    /// - Precondition: the reference was not resolved before.
    public func resolve<Confined: ThreadConfined>(_ reference: ThreadSafeReference<Confined>) -> Confined? {
        verifyThread()
        precondition(reference.claim(), "Can only resolve a ThreadSafeReference once.")
        guard reference.configurationIdentity == configuration.identity else { return nil }
        if !isInWriteTransaction, let current = try? transaction.version, current < reference.version {
            refresh()
        }
        return Confined.resolve(reference.payload, in: self)
    }
}
