import Foundation
import RealmCore

/// A change to a ``Map``, by key, as Realm reports it.
public enum RealmMapChange<Collection: RealmKeyedCollection> {
    /// The first delivery: the map as it is when observing began.
    case initial(Collection)
    /// The map changed since the previous delivery: the keys removed, the
    /// keys added, and the keys whose value was replaced.
    case update(Collection, deletions: [Collection.Key], insertions: [Collection.Key], modifications: [Collection.Key])
    /// Computing the changes failed; no further notifications follow.
    case error(Swift.Error)
}

/// A collection of values by key: ``Map``.
public protocol RealmKeyedCollection {
    associatedtype Key: _MapKey
    associatedtype Value: RealmCollectionValue
}

extension Map: RealmKeyedCollection {}

extension MutableSet {
    /// Calls `block` with `.initial` now, then after each commit that
    /// changed the set (or, for sets of objects, an object in it). Indices
    /// are positions in the set's order.
    public func observe(keyPaths: [String]? = nil, _ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void) -> NotificationToken {
        guard let (realm, handle) = managed else {
            preconditionFailure("Only sets of managed objects can be observed.")
        }
        realm.verifyThread()
        return realm.state.notifiers.observe(self, className: Element._objectType?.className(), model: Element._objectType, keyPaths: keyPaths,
                                             elements: { try $0.setValues(of: handle) }, block)
    }
}

extension Map {
    /// Calls `block` with `.initial` now, then after each commit that
    /// changed the map, with the keys removed, added and given a new value.
    public func observe(_ block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void) -> NotificationToken {
        guard let (realm, handle) = managed else {
            preconditionFailure("Only maps of managed objects can be observed.")
        }
        realm.verifyThread()
        // The notifier diffs the entries in key order, each entry one
        // element (key and value), so that a new value at a key is a
        // removal and an insertion there: a modification of that key.
        var deliveredKeys = keys
        return realm.state.notifiers.observe(self, className: nil, model: nil, keyPaths: nil, elements: { transaction in
            try transaction.entries(of: handle).map { .string($0.key + "\u{0}" + $0.value.description) }
        }) { [weak self] (change: RealmCollectionChange<Map<Key, Value>>) in
            switch change {
            case .initial(let map):
                block(.initial(map))
            case .update(let map, let deletions, let insertions, _):
                let keys = self?.keys ?? []
                let removed = Set(deletions.map { deliveredKeys[$0] })
                let added = Set(insertions.map { keys[$0] })
                deliveredKeys = keys
                block(.update(map, deletions: removed.subtracting(added).sorted(), insertions: added.subtracting(removed).sorted(),
                              modifications: removed.intersection(added).sorted()))
            case .error(let error):
                block(.error(error))
            }
        }
    }
}
