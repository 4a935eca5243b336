import RealmCore
import RealmQuery

// Queries over the objects a map holds, as Realm 10 has them: `Results` of
// optional objects, in the order of the keys, without the keys that hold
// nil.

extension Map {
    /// The objects the map holds that match `predicateFormat`.
    ///
    /// - Precondition: the map is managed.
    public func filter<Target: Object>(_ predicateFormat: String, _ arguments: Any...) -> Results<Value> where Value == Target? {
        let (realm, query) = objectQuery(Target.self)
        return Results(realm: realm, query: realm.filtered(query, by: predicateFormat, arguments: arguments))
    }

    /// The objects the map holds, sorted by the property at `keyPath`.
    ///
    /// - Precondition: the map is managed.
    public func sorted<Target: Object>(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Value> where Value == Target? {
        let (realm, query) = objectQuery(Target.self)
        var sorted = query
        sorted.sort = [RealmQuery.SortDescriptor(keyPath: keyPath, ascending: ascending)]
        return Results(realm: realm, query: realm.validated(sorted))
    }

    /// The objects the map holds, sorted by the property `keyPath` reads.
    ///
    /// - Precondition: the map is managed.
    public func sorted<Target: Object, Property: _Persistable>(by keyPath: KeyPath<Target, Property>,
                                                               ascending: Bool = true) -> Results<Value> where Value == Target? {
        sorted(byKeyPath: KeyPathNames.name(of: keyPath, in: Target.self), ascending: ascending)
    }
}
