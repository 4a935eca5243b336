import Foundation
import RealmCore
import RealmSyncWire

/// A query-based sync subscription as its client file keeps it, in the
/// `sync_subscriptions` table: written by the app's thread when it
/// subscribes, sent at every bind, and given its state by the server.
package struct StoredSubscription: Equatable, Sendable {
    /// Where the server has got with a subscription.
    package enum State: Int64, Sendable {
        /// Not yet answered by the server.
        case pending = 0
        /// Its objects are in the file.
        case complete = 1
        /// The server cannot evaluate it (``StoredSubscription/error``).
        case error = 2
    }

    package var query: SubscriptionQuery
    package var state: State
    package var error: String?

    package init(query: SubscriptionQuery, state: State = .pending, error: String? = nil) {
        self.query = query
        self.state = state
        self.error = error
    }

    /// The file's subscriptions, oldest first.
    package static func all(_ transaction: Transaction) throws(RealmError) -> [StoredSubscription] {
        guard try tableExists(transaction) else { return [] }
        let select = try transaction.queryStatement("SELECT query, state, error FROM sync_subscriptions ORDER BY created, name")
        defer { select.reset() }
        var found: [StoredSubscription] = []
        while try select.step() {
            found.append(try row(select))
        }
        return found
    }

    /// The subscription named `name`, if the file has it.
    package static func named(_ name: String, _ transaction: Transaction) throws(RealmError) -> StoredSubscription? {
        guard try tableExists(transaction) else { return nil }
        let select = try transaction.queryStatement("SELECT query, state, error FROM sync_subscriptions WHERE name = ?")
        defer { select.reset() }
        select.bind(name, at: 1)
        return try select.step() ? try row(select) : nil
    }

    /// Adds `query` (inside a write), unless a subscription of its name
    /// exists: then that one is returned, and the query must be the same.
    /// The write's commit tells the file's session.
    ///
    /// - Throws: `invalidValue` when the name is taken by another query.
    package static func add(_ query: SubscriptionQuery, _ transaction: Transaction) throws(RealmError) -> StoredSubscription {
        try SyncTables.prepare(transaction)
        if let existing = try named(query.name, transaction) {
            guard existing.query == query else {
                throw RealmError(.invalidValue, "A subscription named '\(query.name)' exists with another query.")
            }
            return existing
        }
        let count = try transaction.queryStatement("SELECT COALESCE(MAX(created), 0) + 1 FROM sync_subscriptions")
        _ = try count.step()
        let created = count.int64(at: 0)
        count.reset()
        let insert = try transaction.replicationStatement("INSERT INTO sync_subscriptions (name, query, state, error, created) VALUES (?, ?, 0, NULL, ?)")
        insert.bind(query.name, at: 1)
        insert.bind(Data(SyncMessageCoding.encode(subscriptions: [query])), at: 2)
        insert.bind(created, at: 3)
        try insert.run()
        (transaction.replicationObserver as? ChangesetRecorder)?.announceCommit(of: transaction)
        return StoredSubscription(query: query)
    }

    /// Removes the subscription named `name` (inside a write); true when
    /// there was one. The write's commit tells the file's session.
    @discardableResult
    package static func remove(named name: String, _ transaction: Transaction) throws(RealmError) -> Bool {
        guard try tableExists(transaction), try named(name, transaction) != nil else { return false }
        let delete = try transaction.replicationStatement("DELETE FROM sync_subscriptions WHERE name = ?")
        delete.bind(name, at: 1)
        try delete.run()
        (transaction.replicationObserver as? ChangesetRecorder)?.announceCommit(of: transaction)
        return true
    }

    /// Notes what the server made of the subscriptions (inside a write);
    /// subscriptions removed since it was asked keep no state. Returns
    /// whether anything changed.
    package static func note(_ statuses: [SubscriptionStatus], _ transaction: Transaction) throws(RealmError) -> Bool {
        guard try tableExists(transaction) else { return false }
        var changed = false
        for status in statuses {
            guard let existing = try named(status.name, transaction) else { continue }
            let state: State = status.error == nil ? .complete : .error
            guard existing.state != state || existing.error != status.error else { continue }
            let update = try transaction.replicationStatement("UPDATE sync_subscriptions SET state = ?, error = ? WHERE name = ?")
            update.bind(state.rawValue, at: 1)
            if let error = status.error { update.bind(error, at: 2) } else { update.bindNull(at: 2) }
            update.bind(status.name, at: 3)
            try update.run()
            changed = true
        }
        return changed
    }

    private static func row(_ select: Statement) throws(RealmError) -> StoredSubscription {
        let queries: [SubscriptionQuery]
        do {
            queries = try SyncMessageCoding.decodeSubscriptions(Array(select.data(at: 0)))
        } catch {
            throw RealmError(.corruptFile, "A subscription of the synced Realm cannot be read: \(error)")
        }
        guard queries.count == 1 else { throw RealmError(.corruptFile, "A subscription of the synced Realm holds \(queries.count) queries.") }
        return StoredSubscription(query: queries[0], state: State(rawValue: select.int64(at: 1)) ?? .pending,
                                  error: select.isNull(at: 2) ? nil : select.string(at: 2))
    }

    /// Whether the file has the table: a file opened read-only, or synced
    /// before query-based sync, may not.
    private static func tableExists(_ transaction: Transaction) throws(RealmError) -> Bool {
        let select = try transaction.queryStatement("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'sync_subscriptions'")
        defer { select.reset() }
        _ = try select.step()
        return select.int64(at: 0) > 0
    }
}
