import RealmCore
import RealmSyncWire

extension SyncedFile {
    /// Evicts what `eviction` names, inside the write of a download and
    /// without recording, except what this file's changesets after client
    /// version `acknowledged` name: the server decided without them, and
    /// decides again once it has them (evicting such an object now could
    /// hide a list element this file inserted, for good).
    func evict(_ eviction: Eviction, keeping received: Set<ObjectReference>, acknowledged: UInt64) throws(RealmError) {
        guard eviction != .none else { return }
        var kept = try namedByChangesets(after: acknowledged)
        switch eviction {
        case .none:
            return
        case .objects(let objects):
            for object in objects where object.identity.isTopLevel && !kept.contains(object) {
                guard let key = try TopLevelObjects.localKey(of: object, transaction) else { continue }
                try TopLevelObjects.evict(key, in: try transaction.classHandle(named: object.className), transaction)
            }
        case .allNotSent:
            kept.formUnion(received)
            for objectSchema in transaction.schema.objectSchemas where !objectSchema.isEmbedded {
                let handle = try transaction.classHandle(named: objectSchema.name)
                for key in try transaction.objectKeys(in: handle) {
                    guard let identity = try TopLevelObjects.identity(of: key, in: handle, transaction),
                          !kept.contains(ObjectReference(className: objectSchema.name, identity: identity)) else { continue }
                    try TopLevelObjects.evict(key, in: handle, transaction)
                }
            }
        }
    }

    /// The top-level objects this file's changesets after client version
    /// `clientVersion` name.
    private func namedByChangesets(after clientVersion: UInt64) throws(RealmError) -> Set<ObjectReference> {
        var named = Set<ObjectReference>()
        for (_, bytes) in try SyncTables.encodedHistory(after: clientVersion, transaction) {
            let changeset: Changeset
            do {
                changeset = try ChangesetCoding.decode(bytes)
            } catch {
                throw RealmError(.corruptFile, "A changeset of the synced Realm's history cannot be read: \(error)")
            }
            for instruction in changeset.instructions { named.formUnion(instruction.referencedObjects) }
        }
        return named
    }
}

extension ObjectIdentity {
    /// Whether it names a top-level object (not an embedded one).
    package var isTopLevel: Bool {
        if case .embedded = self { return false }
        return true
    }
}

extension SyncedFile {
    /// The file's subscriptions as they travel, oldest first.
    package func subscriptionQueries() throws(RealmError) -> [SubscriptionQuery] {
        try transaction.refresh()
        return try StoredSubscription.all(transaction).map(\.query)
    }

    /// Whether a subscription waits for the server's answer.
    package func hasPendingSubscriptions() throws(RealmError) -> Bool {
        try transaction.refresh()
        return try StoredSubscription.all(transaction).contains { $0.state == .pending }
    }

    /// Notes what the server made of the subscriptions, in a write of its
    /// own when anything changed (which notifies the file's Realms, whose
    /// subscriptions read their state then).
    package func note(_ statuses: [SubscriptionStatus]) throws(RealmError) {
        try transaction.refresh()
        let current = try StoredSubscription.all(transaction)
        let changes = statuses.contains { status in
            current.contains { $0.query.name == status.name && ($0.error != status.error || $0.state != (status.error == nil ? .complete : .error)) }
        }
        guard changes else { return }
        try write(syncingTheDisk: false) { () throws(RealmError) in
            try recorder.withoutRecording { () throws(RealmError) in _ = try StoredSubscription.note(statuses, transaction) }
        }
    }
}
