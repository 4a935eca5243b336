import RealmCore

/// Objects compare as Realm Swift's do. An object of a class with a primary
/// key equals every other instance of the same object (the same row of the
/// same class in the same Realm file); so does a frozen object, whose row
/// cannot change, every instance of it in the same frozen Realm. Any other
/// object equals only itself, as `NSObject`'s identity, which is what Realm
/// keeps for classes without a primary key. ``Object/isSameObject(as:)``
/// compares rows for every class.
///
/// The hash of an unmanaged object of a class with a primary key changes
/// when it is added to a Realm, as in Realm Swift: do not keep such an
/// object in a `Set` or as a dictionary key across `add`.
extension Object: Hashable {
    public static func == (lhs: Object, rhs: Object) -> Bool {
        if lhs === rhs { return true }
        if lhs._classInfo.objectSchema.primaryKeyProperty != nil { return lhs.isSameObject(as: rhs) }
        guard let realm = lhs._realm, realm.isFrozen, realm == rhs._realm else { return false }
        return lhs.isSameObject(as: rhs)
    }

    public func hash(into hasher: inout Hasher) {
        if let handle = _handle, let realm = _realm, realm.isFrozen || _classInfo.objectSchema.primaryKeyProperty != nil {
            hasher.combine(_key.rawValue)
            hasher.combine(handle.className)
        } else {
            hasher.combine(ObjectIdentifier(self))
        }
    }
}

extension Results: Equatable {
    /// Whether the two are the same instance, as in Realm: two calls of
    /// `realm.objects(Dog.self)` give unequal results.
    public static func == (lhs: Results, rhs: Results) -> Bool {
        lhs === rhs
    }
}
