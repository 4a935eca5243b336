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
        observe(keyPaths: keyPaths, on: nil, block)
    }

    /// As ``observe(keyPaths:_:)``, on the registering thread (`queue`
    /// nil) or on `queue` (a serial queue), where the set passed belongs to
    /// a Realm confined to the queue.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue?,
                        _ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void) -> NotificationToken {
        if let queue {
            return observeOnQueue(self, queue: queue, failed: { .error($0) }, block) { set, block in set.observe(keyPaths: keyPaths, block) }
        }
        guard let (realm, handle) = managed else {
            preconditionFailure("Only sets of managed objects can be observed.")
        }
        realm.verifyThread()
        return realm.state.notifiers.observe(self, className: Element._objectType?.className(), model: Element._objectType, keyPaths: keyPaths,
                                             elements: { try $0.setValues(of: handle) }, block)
    }
}

extension Map {
    /// Calls `block` with `.initial`, then after each commit that changed
    /// the map, with the keys removed, added and modified: given another
    /// value, or, in a map of objects, holding an object whose properties
    /// changed (narrowed to `keyPaths`, as for a list). On the registering
    /// thread, or on `queue` (a serial queue), where the map passed belongs
    /// to a Realm confined to the queue.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmMapChange<Map<Key, Value>>) -> Void) -> NotificationToken {
        if let queue {
            return observeOnQueue(self, queue: queue, failed: { .error($0) }, block) { map, block in
                map.observe(keyPaths: keyPaths, block)
            }
        }
        guard let (realm, handle) = managed else {
            preconditionFailure("Only maps of managed objects can be observed.")
        }
        realm.verifyThread()
        // The notifier diffs the entries in key order, each entry one
        // element (key and value), so that a new value at a key is a
        // removal and an insertion there: a modification of that key. In
        // a map of objects an entry also names its object, whose changes
        // the notifier reports as modifications.
        let objectClass = Value._objectType?.className()
        var deliveredKeys = keys
        let holdsObjects = objectClass != nil
        let elements: CollectionNotifier.Elements = { transaction in
            try transaction.entries(of: handle).map { entry -> RealmCore.Value in
                holdsObjects ? MapEntryIdentity.element(key: entry.key, value: entry.value) : .string(entry.key + "\u{0}" + entry.value.description)
            }
        }
        return realm.state.notifiers.observe(self, className: objectClass, model: Value._objectType, keyPaths: keyPaths, elements: elements,
                                             objectKey: MapEntryIdentity.objectKey) { [weak self] (change: RealmCollectionChange<Map<Key, Value>>) in
            switch change {
            case .initial(let map):
                block(.initial(map))
            case .update(let map, let deletions, let insertions, let modifications):
                let keys = self?.keys ?? []
                let removed = Set(deletions.map { deliveredKeys[$0] })
                let added = Set(insertions.map { keys[$0] })
                let changedInside = Set(modifications.map { keys[$0] })
                deliveredKeys = keys
                block(.update(map, deletions: removed.subtracting(added).sorted(), insertions: added.subtracting(removed).sorted(),
                              modifications: removed.intersection(added).union(changedInside).sorted()))
            case .error(let error):
                block(.error(error))
            }
        }
    }
}

/// How a map of objects' entry is told apart by the notifier: its object's
/// key (or none, for nil) and its key, in bytes, so that the object can be
/// read back without parsing.
private enum MapEntryIdentity {
    /// A flag byte (1: an object follows), the object's key (8 bytes),
    /// then the entry's key in UTF-8.
    static func element(key: String, value: RealmCore.Value) -> RealmCore.Value {
        var bytes = [UInt8](repeating: 0, count: 9)
        if case .object(let object) = value {
            bytes[0] = 1
            withUnsafeBytes(of: object.rawValue.littleEndian) { bytes.replaceSubrange(1..<9, with: $0) }
        }
        bytes.append(contentsOf: key.utf8)
        return .data(Data(bytes))
    }

    @Sendable static func objectKey(_ element: RealmCore.Value) -> ObjectKey? {
        guard case .data(let bytes) = element else { return CollectionNotifier.elementKey(element) }
        guard bytes.count >= 9, bytes[bytes.startIndex] == 1 else { return nil }
        let raw = bytes.dropFirst().prefix(8).withUnsafeBytes { $0.loadUnaligned(as: Int64.self) }
        return ObjectKey(Int64(littleEndian: raw))
    }
}
