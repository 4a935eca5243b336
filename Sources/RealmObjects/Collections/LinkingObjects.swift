import RealmCore
import RealmQuery

/// The objects that link to the owner through a given property: an inverse
/// relationship, computed from the links and never set directly.
///
/// ```swift
/// class Dog: Object {
///     let owners = LinkingObjects(fromType: Person.self, property: "dogs")
/// }
/// ```
///
/// Declare with `let`. Empty on an unmanaged object; live once the owner is
/// managed. An object whose list holds the owner twice appears twice.
public final class LinkingObjects<Element: Object>: RealmCollection, LinkingObjectsBase {
    /// The linking property's name on `Element`.
    public let propertyName: String
    private(set) var owner: (realm: Realm, key: ObjectKey, className: String)?
    private var cachedKeys: [ObjectKey] = []
    private var cachedStamp: UInt64?

    /// The objects of `type` whose property `propertyName` links to the
    /// owner.
    public init(fromType type: Element.Type, property propertyName: String) {
        self.propertyName = propertyName
    }

    public var realm: Realm? { owner?.realm }

    /// Whether the owner was deleted, or its Realm invalidated
    /// (``Realm/invalidate()``) since the owner was read, as in Realm.
    public var isInvalidated: Bool {
        guard let owner else { return false }
        return invalidations != owner.realm.state.invalidations || !owner.realm.objectExists(key: owner.key, className: owner.className)
    }

    /// The Realm's count of `invalidate()` calls when the owner was bound.
    private var invalidations = 0

    public var _query: Query? {
        guard let owner else { return nil }
        return Query(className: Element.className(), source: .linkingObjects(sourceProperty: propertyName, target: owner.key))
    }

    func keys() -> [ObjectKey] {
        guard let owner else { return [] }
        let realm = owner.realm
        return realm.withAccess {
            if cachedStamp == realm.transaction.changeCounter { return cachedKeys }
            cachedKeys = realm.perform("read linking objects", ifDamaged: []) { transaction in
                let source = try transaction.classHandle(named: Element.className())
                let property = try transaction.propertyIndex(named: propertyName, in: source)
                return try transaction.linkingObjects(to: owner.key, from: source, property: property)
            }
            cachedStamp = realm.transaction.changeCounter
            return cachedKeys
        }
    }

    public var count: Int { keys().count }

    public subscript(position: Int) -> Element {
        let keys = keys()
        precondition(position >= 0 && position < keys.count, "Index \(position) is out of bounds (must be less than \(keys.count)).")
        let realm = owner!.realm
        return realm.withAccess { realm.makeObject(Element.self, key: keys[position]) }
    }

    public var first: Element? { isEmpty ? nil : self[0] }
    public var last: Element? { isEmpty ? nil : self[count - 1] }

    /// Iterates over the objects that linked to the owner when iteration
    /// began, as Realm does: deleting them while iterating skips none.
    public func makeIterator() -> IndexingIterator<[Element]> {
        guard let owner else { return [].makeIterator() }
        let realm = owner.realm
        let keys = keys()
        return realm.withAccess { keys.map { realm.makeObject(Element.self, key: $0) } }.makeIterator()
    }

    static var originType: Object.Type { Element.self }
    var originProperty: String { propertyName }

    func bind(to realm: Realm, owner key: ObjectKey, ownerHandle: ClassHandle, property: Int) {
        owner = (realm, key, ownerHandle.className)
        invalidations = realm.state.invalidations
    }
}

/// What schema discovery needs of a `LinkingObjects` whatever its type.
protocol LinkingObjectsBase: ManagedProperty {
    static var originType: Object.Type { get }
    var originProperty: String { get }
}
