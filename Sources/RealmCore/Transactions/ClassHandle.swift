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

/// One list: the owning object's class and key, and the list property.
public struct ListHandle: Hashable, Sendable {
    public let owningClass: ClassHandle
    public let owner: ObjectKey
    /// The list property's index in the owning class's schema.
    public let property: Int

    /// Names a list; ``Transaction/list(_:of:in:)`` makes one after checking
    /// that the property is a list.
    public init(owningClass: ClassHandle, owner: ObjectKey, property: Int) {
        self.owningClass = owningClass
        self.owner = owner
        self.property = property
    }
}
