/// A query-based sync subscription as it travels (Docs/Sync.md,
/// "Query-based synchronization"): the objects of one class that match a
/// predicate, in the order of `sort`, the first of each `distinct` group,
/// at most `limit` of them. The server syncs them to the subscribing
/// client with every object they link to.
///
/// The predicate is RealmQuery's format-string syntax with its arguments
/// beside it, so that values without a literal syntax (dates, data, object
/// ids) travel exactly.
public struct SubscriptionQuery: Hashable, Sendable {
    /// The subscription's name: the one given, or one made from the query.
    public var name: String
    /// The class whose objects it selects.
    public var className: String
    /// The predicate, in format-string syntax (`TRUEPREDICATE` for all).
    public var predicate: String
    /// The values and key paths of the predicate's `%@` and `%K`, in order.
    public var arguments: [SubscriptionArgument]
    /// The order the limit counts in.
    public var sort: [SubscriptionSort]
    /// Key paths whose values identify duplicates.
    public var distinct: [String]
    /// The most top-level objects it selects (objects linked from them are
    /// not counted), or nil for all.
    public var limit: UInt64?

    /// A subscription as described.
    public init(name: String, className: String, predicate: String, arguments: [SubscriptionArgument] = [],
                sort: [SubscriptionSort] = [], distinct: [String] = [], limit: UInt64? = nil) {
        self.name = name
        self.className = className
        self.predicate = predicate
        self.arguments = arguments
        self.sort = sort
        self.distinct = distinct
        self.limit = limit
    }
}

/// An argument of a subscription's predicate.
public enum SubscriptionArgument: Hashable, Sendable {
    /// A value, for `%@`.
    case value(SyncValue)
    /// A key path, for `%K`.
    case keyPath(String)
    /// Values, for `%@` after `IN`.
    case values([SyncValue])
}

/// A sort key of a subscription.
public struct SubscriptionSort: Hashable, Sendable {
    /// The key path sorted by.
    public var keyPath: String
    /// Whether smaller values come first.
    public var ascending: Bool

    /// A sort key as described.
    public init(keyPath: String, ascending: Bool) {
        self.keyPath = keyPath
        self.ascending = ascending
    }
}

/// What the server made of a subscription: complete (its objects are in
/// the download that came before), or refused with a reason.
public struct SubscriptionStatus: Hashable, Sendable {
    /// The subscription's name.
    public var name: String
    /// Why the server cannot evaluate it (an unknown class or property, a
    /// malformed predicate), or nil when its objects are synced.
    public var error: String?

    /// A status as described.
    public init(name: String, error: String?) {
        self.name = name
        self.error = error
    }
}

/// An object as a whole: its class and identity.
public struct ObjectReference: Hashable, Sendable, CustomStringConvertible {
    /// The object's class.
    public var className: String
    /// The object's identity.
    public var identity: ObjectIdentity

    /// A reference to the object `identity` of `className`.
    public init(className: String, identity: ObjectIdentity) {
        self.className = className
        self.identity = identity
    }

    public var description: String { "\(className)[\(identity)]" }
}

/// The objects a download takes out of a query-based client's Realm
/// because they left its view: removed there without being deleted (no
/// tombstone, no change uploaded), so that they come back whole if they
/// enter the view again.
public enum Eviction: Hashable, Sendable {
    /// None.
    case none
    /// These objects (each with what it embeds).
    case objects([ObjectReference])
    /// Every object the client did not receive since it bound, except
    /// those its changesets not yet acknowledged create: the download
    /// completes the client's whole view.
    case allNotSent
}
