import Foundation
import RealmCore
import RealmObjects
import RealmQuery
import RealmSyncEngine
import RealmSyncWire

/// Where a query-based sync subscription stands (Realm 3's states).
public enum SyncSubscriptionState: Equatable, Sendable {
    /// Being made: not yet written to the Realm.
    case creating
    /// Written, and waiting for the server.
    case pending
    /// The server has evaluated it: its objects (and what they link to)
    /// are in the Realm, and stay in step with the server.
    case complete
    /// Removed.
    case invalidated
    /// The server cannot evaluate it (an unknown class or property, a
    /// malformed predicate), or it cannot travel (it compares with an
    /// object).
    case error(any Error)

    public static func == (lhs: SyncSubscriptionState, rhs: SyncSubscriptionState) -> Bool {
        switch (lhs, rhs) {
        case (.creating, .creating), (.pending, .pending), (.complete, .complete), (.invalidated, .invalidated): true
        case (.error(let a), .error(let b)): "\(a)" == "\(b)"
        default: false
        }
    }
}

/// A subscription of a query-based synced Realm: the objects of one class
/// that match a query, which the server syncs to this Realm with every
/// object they link to (seed 001, "Query-based synchronization"; Realm
/// 3's `SyncSubscription`).
///
/// Made by ``RealmObjects/Results/subscribe(named:limit:)``; the Realm
/// keeps it (across launches) until ``unsubscribe()``. Confined to the
/// thread of its Realm, as the Realm is.
public final class SyncSubscription<T: Object>: Equatable {
    /// The subscription's name: nil when ``RealmObjects/Results/subscribe(named:limit:)``
    /// was given none (the Realm then names it from its query, the name
    /// ``RealmObjects/Realm/subscriptions()`` shows).
    public let name: String?
    /// The name the Realm keeps it under.
    private let storedName: String
    private let realm: Realm
    /// Set when the query cannot travel: the subscription was never made.
    private let localError: (any Error)?

    init(name: String?, storedName: String, realm: Realm, localError: (any Error)? = nil) {
        self.name = name
        self.storedName = storedName
        self.realm = realm
        self.localError = localError
    }

    /// The subscription's state, as the Realm's current version has it.
    public var state: SyncSubscriptionState {
        if let localError { return .error(localError) }
        let name = storedName
        let stored: StoredSubscription?
        do {
            stored = try StoredSubscription.named(name, realm.storageTransaction)
        } catch {
            return .error(SyncError(.clientInternalError, "The subscription '\(name)' cannot be read: \(error.message)"))
        }
        guard let stored else { return .invalidated }
        switch stored.state {
        case .pending: return .pending
        case .complete: return .complete
        case .error: return .error(SyncError(.clientSessionError, "The subscription '\(name)' failed: \(stored.error ?? "unknown error")"))
        }
    }

    public static func == (lhs: SyncSubscription, rhs: SyncSubscription) -> Bool {
        lhs.storedName == rhs.storedName && lhs.realm.configuration.fileURL == rhs.realm.configuration.fileURL
    }

    /// Calls `block` with the subscription's state whenever it changes (and
    /// at once with `.initial`), on the Realm's thread, as the Realm's own
    /// notifications arrive; until the token is invalidated.
    ///
    /// - Parameter keyPath: `\.state`, the only property observed.
    public func observe(_ keyPath: KeyPath<SyncSubscription, SyncSubscriptionState>, options: NSKeyValueObservingOptions = [],
                        _ block: @escaping (SyncSubscriptionState) -> Void) -> NotificationToken {
        var last = state
        if options.contains(.initial) { block(last) }
        return realm.observe { [self] _, _ in
            let now = state
            guard now != last else { return }
            last = now
            block(now)
        }
    }

    /// Removes the subscription. The objects only it selected leave the
    /// Realm once the server has heard (they are evicted, not deleted: the
    /// server keeps them); offline, that waits for the next connection.
    /// Subscribing twice and unsubscribing once leaves none, as in Realm.
    public func unsubscribe() {
        guard localError == nil else { return }
        let name = storedName
        do {
            try realm.writingSubscriptions { transaction throws(RealmError) in
                _ = try StoredSubscription.remove(named: name, transaction)
            }
        } catch {
            realm.syncConfiguration?.user.reportSubscriptionFailure(error, realm: realm)
        }
    }
}

extension Results where Element: Object {
    /// Subscribes to this query in a query-based synced Realm: the server
    /// syncs the objects it selects to the Realm, with every object they
    /// link to, and keeps them in step (Realm 3's `subscribe(named:limit:)`).
    ///
    /// The same name and query give the same subscription; a name taken by
    /// another query gives a subscription in the `.error` state. A query
    /// comparing with an object cannot travel, and is in `.error` too.
    ///
    /// - Parameters:
    ///   - name: the subscription's name; without one, it is named from its
    ///     query.
    ///   - limit: the most objects it selects, counted in this Results'
    ///     order (objects they link to are not counted).
    public func subscribe(named name: String? = nil, limit: Int? = nil) -> SyncSubscription<Element> {
        guard let realm else { preconditionFailure("Only managed Results (of a Realm) can be subscribed to.") }
        guard realm.syncConfiguration?.isPartial == true else {
            preconditionFailure("Subscriptions are only for query-based synced Realms: open the Realm with SyncConfiguration(isPartial: true).")
        }
        let subscription: SubscriptionQuery
        do {
            subscription = try SubscriptionQuery(query, named: name, limit: limit)
        } catch {
            return SyncSubscription(name: name, storedName: name ?? "", realm: realm, localError: error)
        }
        do {
            try realm.writingSubscriptions { transaction throws(RealmError) in _ = try StoredSubscription.add(subscription, transaction) }
        } catch {
            return SyncSubscription(name: name, storedName: subscription.name, realm: realm, localError: SyncError(.clientUserError, error.message))
        }
        return SyncSubscription(name: name, storedName: subscription.name, realm: realm)
    }
}

extension Realm {
    /// Subscribes to the objects of `type` matching `predicate` in a
    /// query-based synced Realm, and calls `completion` once: with the
    /// live results when the server has synced them, or with the error
    /// that prevents it (seed 001, "Query-based synchronization"). Realm
    /// 3.4 deprecated it for ``RealmObjects/Results/subscribe(named:limit:)``;
    /// the seed documents it, so it is kept undeprecated.
    public func subscribe<T: Object>(to type: T.Type, where predicate: String,
                                     completion: @escaping (Results<T>?, (any Swift.Error)?) -> Void) {
        let results: Results<T>
        do {
            results = try objects(type).checkedFilter(predicate)
        } catch {
            completion(nil, error)
            return
        }
        let subscription = results.subscribe()
        nonisolated(unsafe) var token: NotificationToken?
        var answered = false
        let answer = { (state: SyncSubscriptionState) in
            guard !answered else { return }
            switch state {
            case .complete:
                answered = true
                completion(results, nil)
            case .error(let error):
                answered = true
                completion(nil, error)
            case .invalidated:
                answered = true
                completion(nil, SyncError(.clientUserError, "The subscription to '\(predicate)' was removed before it completed."))
            case .creating, .pending:
                return
            }
            token?.invalidate()
            token = nil
        }
        token = subscription.observe(\SyncSubscription<T>.state, options: .initial, answer)
        if answered {
            token?.invalidate()
            token = nil
        }
    }

    /// The Realm's subscriptions, oldest first (Realm 3's `subscriptions()`,
    /// an array here: `Results` holds objects only).
    public func subscriptions() -> [SyncSubscription<Object>] {
        guard let stored = try? StoredSubscription.all(storageTransaction) else { return [] }
        return stored.map { SyncSubscription(name: $0.query.name, storedName: $0.query.name, realm: self) }
    }

    /// The subscription named `name`, if the Realm has it.
    public func subscription(named name: String) -> SyncSubscription<Object>? {
        guard (try? StoredSubscription.named(name, storageTransaction)) != nil else { return nil }
        return SyncSubscription(name: name, storedName: name, realm: self)
    }

    /// The sync configuration of a synced Realm.
    var syncConfiguration: SyncConfiguration? { configuration.syncConfiguration }

    /// Runs `body` on the Realm's transaction inside a write: the write
    /// under way, or one of its own. The session hears of the change when
    /// the write commits.
    func writingSubscriptions(_ body: (Transaction) throws(RealmError) -> Void) throws(RealmError) {
        do {
            if isInWriteTransaction {
                try body(storageTransaction)
            } else {
                try write { try body(storageTransaction) }
            }
        } catch let error as RealmError {
            throw error
        } catch {
            throw RealmError(.storage, "\(error)")
        }
    }
}

extension SubscriptionQuery {
    /// The subscription a Results' query makes, as it travels.
    ///
    /// - Throws: ``SyncError`` for a query that cannot travel: of a list
    ///   rather than a class, or comparing with an object.
    init(_ query: Query, named name: String?, limit: Int?) throws {
        guard query.source == .table else {
            throw SyncError(.clientUserError, "Only queries of a class can be subscribed to, not of a list or linking objects.")
        }
        let (format, arguments) = query.predicate.formatted()
        let converted = try arguments.map { argument throws -> SubscriptionArgument in
            switch argument {
            case .value(let value): .value(try Self.travelling(value))
            case .keyPath(let keyPath): .keyPath(keyPath)
            case .values(let values): .values(try values.map(Self.travelling))
            }
        }
        let sort = query.sort.map { SubscriptionSort(keyPath: $0.keyPath, ascending: $0.ascending) }
        var madeName = "[\(query.className)] \(query.predicate.description)"
        if !sort.isEmpty { madeName += " SORT(\(query.sort.map(\.description).joined(separator: ", ")))" }
        if !query.distinct.isEmpty { madeName += " DISTINCT(\(query.distinct.joined(separator: ", ")))" }
        if let limit { madeName += " LIMIT(\(limit))" }
        self.init(name: name ?? madeName, className: query.className, predicate: format, arguments: converted, sort: sort,
                  distinct: query.distinct, limit: limit.map { UInt64(max(0, $0)) })
    }

    private static func travelling(_ value: Value) throws -> SyncValue {
        if case .object = value {
            throw SyncError(.clientUserError, "A subscription's query cannot compare with an object: the server names objects otherwise. Compare with its primary key.")
        }
        do {
            return try SyncValue(scalar: value)
        } catch {
            throw SyncError(.clientUserError, "A value of a subscription's query cannot travel: \(error.message)")
        }
    }
}

extension SyncUser {
    /// A subscription could not be written: reported as sync errors are.
    func reportSubscriptionFailure(_ error: RealmError, realm: Realm) {
        SyncManager.shared.logger.error("a subscription of \(realm.configuration.fileURL?.path ?? "a Realm") could not be written: \(error.message)")
    }
}

#if !canImport(ObjectiveC)
/// Foundation's key-value observing options, which Foundation on Linux
/// lacks (it has no key-value observing): the options
/// ``SyncSubscription/observe(_:options:_:)`` takes, as on Apple platforms.
public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The new value, in the change (always given here).
    public static let new = NSKeyValueObservingOptions(rawValue: 1 << 0)
    /// The old value, in the change (not given here).
    public static let old = NSKeyValueObservingOptions(rawValue: 1 << 1)
    /// A call at once with the current value.
    public static let initial = NSKeyValueObservingOptions(rawValue: 1 << 2)
    /// A call before each change (not given here).
    public static let prior = NSKeyValueObservingOptions(rawValue: 1 << 3)
}
#endif
