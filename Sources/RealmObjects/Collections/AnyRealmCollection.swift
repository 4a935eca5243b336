import RealmCore
import RealmQuery

/// A type-erased Realm collection, to store any of ``Results``, ``List``
/// or ``LinkingObjects`` of one element type in a property or variable.
///
/// ```swift
/// let collection: AnyRealmCollection<Dog>
/// init<C: RealmCollection>(collection: C) where C.Element == Dog {
///     self.collection = AnyRealmCollection(collection)
/// }
/// ```
public final class AnyRealmCollection<Element: RealmCollectionValue>: RealmCollection {
    let base: any RealmCollection
    private let element: (Int) -> Element
    private let iterator: () -> AnyIterator<Element>

    /// Wraps a Realm collection.
    public init<C: RealmCollection>(_ base: C) where C.Element == Element {
        self.base = base
        self.element = { base[$0] }
        self.iterator = { AnyIterator(base.makeIterator()) }
    }

    /// Iterates as the wrapped collection does: over a snapshot taken when
    /// iteration begins, so that deleting objects while iterating skips
    /// none, as in Realm.
    public func makeIterator() -> AnyIterator<Element> {
        iterator()
    }

    public var realm: Realm? { base.realm }
    public var isInvalidated: Bool { base.isInvalidated }
    public var _query: Query? { base._query }
    public var count: Int { base.count }

    public subscript(position: Int) -> Element {
        element(position)
    }
}

extension AnyRealmCollection {
    /// `Results` of `query` wrapped, when the elements are objects.
    static func wrapping(results query: Query, in realm: Realm) -> AnyRealmCollection? {
        guard let objectType = Element.self as? Object.Type else { return nil }
        return objectType.anyCollection(of: query, in: realm) as? AnyRealmCollection
    }

    /// `LinkingObjects` wrapped, when the elements are objects.
    static func wrapping(linkingObjects payload: ThreadConfinedPayload, in realm: Realm) -> AnyRealmCollection? {
        guard let objectType = Element.self as? Object.Type else { return nil }
        return objectType.anyLinkingObjects(payload, in: realm) as? AnyRealmCollection
    }
}

extension Object {
    /// `Results` of this class for `query`, type-erased.
    static func anyCollection(of query: Query, in realm: Realm) -> Any {
        AnyRealmCollection(Results<Self>(realm: realm, query: query))
    }

    /// The `LinkingObjects` of this class a payload describes, type-erased.
    static func anyLinkingObjects(_ payload: ThreadConfinedPayload, in realm: Realm) -> Any? {
        LinkingObjects<Self>.resolve(payload, in: realm).map { AnyRealmCollection($0) }
    }
}
