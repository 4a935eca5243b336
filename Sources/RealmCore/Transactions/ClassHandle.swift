/// A class resolved once by name, for fast repeated access.
///
/// A handle is valid in the transaction that made it as long as the schema
/// does not change (a migration, or a class added by another transaction
/// that this one has since seen); operations on a stale handle throw, and
/// the handle should be resolved again by name.
public struct ClassHandle: Hashable, Sendable {
    /// The class's position in the catalog.
    public let index: Int
    let generation: Int64
}

/// One list: the owning object's class and key, and the list property.
public struct ListHandle: Hashable, Sendable {
    public let owningClass: ClassHandle
    public let owner: ObjectKey
    /// The list property's index in the owning class's schema.
    public let property: Int
}
