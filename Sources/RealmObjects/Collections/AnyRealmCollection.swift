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
    private let base: any RealmCollection
    private let element: (Int) -> Element

    /// Wraps a Realm collection.
    public init<C: RealmCollection>(_ base: C) where C.Element == Element {
        self.base = base
        self.element = { base[$0] }
    }

    public var realm: Realm? { base.realm }
    public var isInvalidated: Bool { base.isInvalidated }
    public var _query: Query? { base._query }
    public var count: Int { base.count }

    public subscript(position: Int) -> Element {
        element(position)
    }
}
