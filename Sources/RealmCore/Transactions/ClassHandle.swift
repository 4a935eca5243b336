/// A class resolved once by name, for fast repeated access.
///
/// A handle stays valid across schema changes (classes added by other
/// transactions, migrations): when the catalog changed since the handle was
/// made, the class is found again by name, and only a class that was
/// removed makes operations throw.
public struct ClassHandle: Hashable, Sendable {
    /// The class's position in the catalog the handle was made from.
    public let index: Int
    let generation: Int64
    /// The class's name, to find it again after a schema change.
    public let className: String
}

/// One list, set or map: the owning object's class and key, and the
/// collection property.
///
/// A handle of a collection nested in a mixed value (``nested``) names the
/// object and property at the root of the nesting: the mixed property, or
/// the list or map of mixed values, that holds it. A change inside it is a
/// change of that property.
public struct ListHandle: Hashable, Sendable {
    public let owningClass: ClassHandle
    public let owner: ObjectKey
    /// The collection property's index in the owning class's schema (for a
    /// nested collection, the root property's).
    public let property: Int
    /// The nested collection this handle names, or nil for the property's
    /// own collection.
    public let nested: NestedCollection?

    /// Names a list; ``Transaction/list(_:of:in:)`` makes one after checking
    /// that the property is a list.
    public init(owningClass: ClassHandle, owner: ObjectKey, property: Int) {
        self.owningClass = owningClass
        self.owner = owner
        self.property = property
        self.nested = nil
    }

    /// Names the collection `nested`, held at the root by `property` of
    /// `owner`.
    public init(owningClass: ClassHandle, owner: ObjectKey, property: Int, nested: NestedCollection) {
        self.owningClass = owningClass
        self.owner = owner
        self.property = property
        self.nested = nested
    }

    /// The handle of `collection`, nested (at any depth) in this handle's
    /// collection or property.
    public func handle(of collection: NestedCollection) -> ListHandle {
        ListHandle(owningClass: owningClass, owner: owner, property: property, nested: collection)
    }
}
