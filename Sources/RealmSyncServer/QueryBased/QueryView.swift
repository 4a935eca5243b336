import RealmCore
import RealmQuery
import RealmSyncEngine
import RealmSyncWire

/// What a query-based client sees of a Realm (Docs/SyncDesign.md,
/// "Query-based sync"): the top-level objects its subscriptions match,
/// evaluated by RealmQuery on the server's materialized state, and every
/// object they reach by links and lists (through embedded objects too),
/// each whole with what it embeds.
struct QueryView {
    /// The objects, with their keys in the server's state.
    private(set) var objects: [ObjectReference: ObjectKey] = [:]
    /// What became of each subscription: complete, or why not.
    private(set) var statuses: [SubscriptionStatus] = []

    /// The view `subscriptions` make of the state `transaction` reads,
    /// naming objects by `identities`.
    init(_ subscriptions: [SubscriptionQuery], in transaction: Transaction, identities: ViewReader.Identities) throws(RealmError) {
        var pending: [(ObjectKey, ClassHandle)] = []
        for subscription in subscriptions {
            let matches: [ObjectKey]
            let handle: ClassHandle
            do {
                (handle, matches) = try Self.matches(of: subscription, in: transaction)
            } catch let error as RealmError where [.storage, .fileAccess, .corruptFile].contains(error.kind) {
                throw error
            } catch let error as RealmError {
                statuses.append(SubscriptionStatus(name: subscription.name, error: error.message))
                continue
            } catch let error as QueryError {
                statuses.append(SubscriptionStatus(name: subscription.name, error: "\(error)"))
                continue
            } catch {
                statuses.append(SubscriptionStatus(name: subscription.name, error: "\(error)"))
                continue
            }
            statuses.append(SubscriptionStatus(name: subscription.name, error: nil))
            for key in matches { try add(key, handle, to: &pending, transaction, identities) }
        }
        // The link closure: an object in the view brings what it links to.
        while let (key, handle) = pending.popLast() {
            try followLinks(of: key, handle, into: &pending, transaction, identities)
        }
    }

    /// The objects of the view, by class, for ``StateSnapshot``.
    func keysByClass(_ references: some Sequence<ObjectReference>) -> [String: [ObjectKey]] {
        var keys: [String: [ObjectKey]] = [:]
        for reference in references {
            if let key = objects[reference] { keys[reference.className, default: []].append(key) }
        }
        return keys.mapValues { $0.sorted { $0.rawValue < $1.rawValue } }
    }

    /// The keys of the subscription's top-level matches, in its order and
    /// within its limit.
    private static func matches(of subscription: SubscriptionQuery, in transaction: Transaction) throws -> (ClassHandle, [ObjectKey]) {
        guard let objectSchema = transaction.schema[subscription.className] else {
            throw RealmError(.invalidValue, "The Realm has no class named '\(subscription.className)'.")
        }
        guard !objectSchema.isEmbedded else {
            throw RealmError(.invalidValue, "'\(subscription.className)' is embedded: subscribe to the objects that hold it.")
        }
        let arguments: [QueryArgument] = try subscription.arguments.map { (argument) throws(RealmError) -> QueryArgument in
            switch argument {
            case .value(let value): .value(try value.coreValue())
            case .keyPath(let keyPath): .keyPath(keyPath)
            case .values(let values): .values(try values.map { (value) throws(RealmError) in try value.coreValue() })
            }
        }
        let predicate = try PredicateParser.parse(subscription.predicate, arguments: arguments)
        let query = try Query(className: subscription.className, predicate: predicate,
                              sort: subscription.sort.map { SortDescriptor(keyPath: $0.keyPath, ascending: $0.ascending) },
                              distinct: subscription.distinct).validated(against: transaction.schema)
        var keys = try query.objectKeys(in: transaction)
        if let limit = subscription.limit, UInt64(keys.count) > limit { keys.removeSubrange(Int(limit)...) }
        return (try transaction.classHandle(named: subscription.className), keys)
    }

    private mutating func add(_ key: ObjectKey, _ handle: ClassHandle, to pending: inout [(ObjectKey, ClassHandle)],
                              _ transaction: Transaction, _ identities: ViewReader.Identities) throws(RealmError) {
        guard let identity = try identities.identity(of: key, in: handle, transaction) else { return }
        let reference = ObjectReference(className: handle.className, identity: identity)
        guard objects.updateValue(key, forKey: reference) == nil else { return }
        pending.append((key, handle))
    }

    /// Adds the top-level objects the object `key` links to, directly or
    /// through what it embeds.
    private mutating func followLinks(of key: ObjectKey, _ handle: ClassHandle, into pending: inout [(ObjectKey, ClassHandle)],
                                      _ transaction: Transaction, _ identities: ViewReader.Identities) throws(RealmError) {
        let schema = try transaction.objectSchema(handle)
        for (index, property) in schema.properties.enumerated() {
            if property.type == .mixed {
                // A mixed value's link names its class; it may be in a
                // collection nested in the value, at any depth.
                var values: [Value] = if property.isCollection {
                    try transaction.collectionValues(index, of: key, in: handle)
                } else {
                    [try transaction.value(of: key, property: index, in: handle)]
                }
                while let value = values.popLast() {
                    switch value {
                    case .link(let className, let linked):
                        try add(linked, try transaction.classHandle(named: className), to: &pending, transaction, identities)
                    case .collection(let nested):
                        let collection = ListHandle(owningClass: handle, owner: key, property: index, nested: nested)
                        values += nested.kind == .list ? try transaction.values(of: collection) : try transaction.entries(of: collection).map(\.value)
                    default:
                        break
                    }
                }
                continue
            }
            guard let target = property.objectClassName, property.type != .linkingObjects,
                  let targetSchema = transaction.schema[target] else { continue }
            let targetHandle = try transaction.classHandle(named: target)
            let values: [Value] = if property.isCollection {
                try transaction.collectionValues(index, of: key, in: handle)
            } else {
                [try transaction.value(of: key, property: index, in: handle)]
            }
            for case .object(let linked) in values {
                if targetSchema.isEmbedded {
                    try followLinks(of: linked, targetHandle, into: &pending, transaction, identities)
                } else {
                    try add(linked, targetHandle, to: &pending, transaction, identities)
                }
            }
        }
    }
}
