import RealmCore
import RealmSyncWire

extension SyncedFile {
    /// Evicts what `eviction` names, inside the write of a download and
    /// without recording.
    func evict(_ eviction: Eviction, keeping received: Set<ObjectReference>) throws(RealmError) {
        switch eviction {
        case .none:
            return
        case .objects(let objects):
            for object in objects where object.identity.isTopLevel {
                guard let key = try TopLevelObjects.localKey(of: object, transaction) else { continue }
                try TopLevelObjects.evict(key, in: try transaction.classHandle(named: object.className), transaction)
            }
        case .allNotSent:
            // What this file made and the server has not acknowledged is
            // not in the view yet: it stays, and the server decides once
            // it has it.
            var kept = received
            for (_, bytes) in try SyncTables.encodedHistory(after: 0, transaction) {
                let changeset: Changeset
                do {
                    changeset = try ChangesetCoding.decode(bytes)
                } catch {
                    throw RealmError(.corruptFile, "A changeset of the synced Realm's history cannot be read: \(error)")
                }
                for case .create(let className, let identity) in changeset.instructions where identity.isTopLevel {
                    kept.insert(ObjectReference(className: className, identity: identity))
                }
            }
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
