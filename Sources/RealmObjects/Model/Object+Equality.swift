import RealmCore

/// Objects compare as Realm Swift's do: a managed object equals every other
/// instance of the same object (the same row of the same class in the same
/// Realm file), an unmanaged one only itself.
///
/// The hash of an unmanaged object changes when it is added to a Realm, as
/// in Realm Swift: do not keep an object in a `Set` or as a dictionary key
/// across `add`.
extension Object: Hashable {
    public static func == (lhs: Object, rhs: Object) -> Bool {
        if lhs === rhs { return true }
        guard let left = lhs._realm, let right = rhs._realm, let leftClass = lhs._handle, let rightClass = rhs._handle else {
            return false
        }
        return lhs._key == rhs._key && leftClass.className == rightClass.className
            && left.configuration.identity == right.configuration.identity
    }

    public func hash(into hasher: inout Hasher) {
        if let handle = _handle, _realm != nil {
            hasher.combine(_key.rawValue)
            hasher.combine(handle.className)
        } else {
            hasher.combine(ObjectIdentifier(self))
        }
    }
}

extension Results: Equatable {
    /// Whether the two are the same query (class, source, predicate, sort
    /// and distinct) of the same Realm.
    public static func == (lhs: Results, rhs: Results) -> Bool {
        lhs === rhs || (lhs.realm == rhs.realm && lhs.query.hasSameDefinition(as: rhs.query))
    }
}
