import RealmCore

/// Frozen objects and collections: `freeze()` gives the same object or
/// collection in the frozen Realm of its Realm's version (see
/// ``Realm/freeze()``), which may be read from any thread and never
/// changes; `thaw()` gives it back, live, in the calling thread's Realm.
///
/// Both go through the description a ``ThreadSafeReference`` carries: a
/// `Results` keeps its query (so freezing one of a million objects reads
/// none of them), an object its key, a collection property its owner's
/// key and name.
extension ThreadConfined {
    /// Whether this object or collection belongs to a frozen Realm.
    public var isFrozen: Bool { realm?.isFrozen ?? false }

    /// This object or collection in the frozen snapshot of its Realm's
    /// current version; itself when frozen already.
    ///
    /// - Precondition: managed by a Realm, used on its thread, not deleted,
    ///   and, inside a write transaction, not created (or, for a
    ///   collection, its owner not created) in it: the snapshot is of the
    ///   version the write began at.
    public func freeze() -> Self {
        guard let realm else { preconditionFailure(Self.unmanagedMessage(thawing: false)) }
        if realm.isFrozen { return self }
        realm.verifyThread()
        if let object = (self as? any RealmFetchable)?._fetchedObject, object.isInvalidated {
            preconditionFailure("Object of class '\(type(of: object).className())' has been deleted or invalidated.")
        }
        let payload = threadConfinedPayload
        let frozenRealm = realm.freeze()
        guard let frozen = frozenRealm.withAccess({ Self.resolve(payload, in: frozenRealm) }) else {
            preconditionFailure(self is any RealmFetchable
                ? "Cannot freeze an object in the same write transaction as it was created in."
                : "Cannot freeze a collection of an object created in the same write transaction.")
        }
        return frozen
    }

    /// This frozen object or collection, live in the calling thread's Realm
    /// at its current version; nil when it was deleted since (for a
    /// collection property, its owner). Itself when live.
    ///
    /// - Precondition: managed by a Realm.
    public func thaw() -> Self? {
        guard let realm else { preconditionFailure(Self.unmanagedMessage(thawing: true)) }
        guard realm.isFrozen else { return self }
        let payload = realm.withAccess { threadConfinedPayload }
        return Self.resolve(payload, in: realm.thaw())
    }

    /// Realm's message for freezing or thawing an unmanaged value.
    private static func unmanagedMessage(thawing: Bool) -> String {
        if self is any RealmFetchable.Type { return "Unmanaged objects cannot be \(thawing ? "thawed" : "frozen")." }
        let name = String(describing: self).prefix { $0 != "<" }
        return "This method may only be called on \(name) instances retrieved from a Realm."
    }
}

extension Realm {
    /// `object` in the frozen snapshot of this Realm (``ThreadConfined/freeze()``).
    public func freeze<T: Object>(_ object: T) -> T {
        object.freeze()
    }

    /// A frozen `object`, live in the calling thread's Realm, or nil when it
    /// was deleted since (``ThreadConfined/thaw()``).
    public func thaw<T: Object>(_ object: T) -> T? {
        object.thaw()
    }

    /// `collection` in the frozen snapshot of this Realm
    /// (``ThreadConfined/freeze()``).
    public func freeze<Collection: RealmCollection & ThreadConfined>(_ collection: Collection) -> Collection {
        collection.freeze()
    }
}
