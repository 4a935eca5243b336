import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire

/// A synced Realm whose history is in PostgreSQL, shared by several server
/// processes (``PostgresRealmLog``; Docs/SyncDesign.md, "Several server
/// processes").
///
/// The file is this process's copy: the history the database holds, in
/// the same order, and the state it folds to. It is brought up to date
///
/// - under the Realm's lock before every write, so that a write follows
///   every version any process committed;
/// - when a client binds or asks how far the Realm goes (a mark), so that
///   it is never told of less than the database holds;
/// - when another process says it committed (``catchUp()``).
///
/// A copy behind the history the database compacted away starts from the
/// database's snapshot instead, then applies the history after it.
extension ServerRealm {
    /// Runs database work, turning the database's failure into a storage
    /// failure (the server's, for the client to try again).
    func database<T>(_ body: () throws -> T) throws(RealmError) -> T {
        do {
            return try body()
        } catch let error as RealmError {
            throw error
        } catch {
            throw RealmError(.storage, "PostgreSQL failed for the synced Realm '\(path)': \(String(describing: error).prefix(500))")
        }
    }

    // MARK: Bringing the copy up to date

    /// On the queue: brings the file up to the newest version the database
    /// holds: without its lock, by reading the history after the file's
    /// version (one query, most of the time), unless that history has a
    /// gap (compacted away), which takes the lock and the snapshot.
    func catchUpNow(_ log: PostgresRealmLog) throws(RealmError) {
        while true {
            let local = try Self.serverState(transaction).latest
            let rows = try database { try log.history(of: path, after: local, limit: Int(Self.catchUpBatch)) }
            guard let first = rows.first else {
                // Nothing after the file's version: it is up to date, or
                // behind a history compacted whole, or ahead of a database
                // restored from a backup.
                let extent = try database { try log.extent(of: path) }
                if extent.latest > local { break }
                return try requireNotAhead(try Self.serverState(transaction), of: extent)
            }
            // A version missing (compacted away, or compacted meanwhile):
            // under the lock, which compaction takes too.
            guard first.serverVersion == local + 1, Self.isContiguous(rows, after: local, through: local + UInt64(rows.count)) else { break }
            try applyHistoryNow(rows, appliedThrough: local, compacted: nil)
            if rows.count < Int(Self.catchUpBatch) { return }
        }
        try database {
            try log.withLockedRealm(path) { locked in try self.catchUpNow(locked) }
        }
    }

    /// On the queue, holding the Realm's lock: brings the file up to the
    /// version the lock found.
    func catchUpNow(_ locked: PostgresRealmLog.LockedRealm) throws(RealmError) {
        var local = try Self.serverState(transaction)
        let extent = locked.extent
        try requireNotAhead(local, of: extent)
        guard extent.latest > local.latest || extent.compactedThrough > local.compactedThrough else { return }
        let compacted = (extent.compactedThrough, extent.compactedSalt)
        if local.latest >= extent.compactedThrough {
            repeat {
                let through = min(extent.latest, local.latest + Self.catchUpBatch)
                let rows = try database { try locked.history(after: local.latest, through: through) }
                try applyHistoryNow(rows, appliedThrough: local.latest, compacted: compacted)
                local = try Self.serverState(transaction)
            } while local.latest < extent.latest
            return
        }
        // The history the copy lacks is compacted away: the snapshot (of a
        // version past the compaction) brings it up to that version, as
        // it brings a client that was offline too long. Its erasures
        // remove what the copy holds and the history since deleted.
        let (snapshot, clients) = try database { (try locked.snapshot(), try locked.clientVersions()) }
        let kept = try database { try locked.history(after: extent.compactedThrough, through: extent.latest) }
        let changesets: [Changeset]
        do {
            changesets = try snapshot.map { bytes throws(WireFormatError) in try ChangesetCoding.decode(bytes) }
        } catch {
            throw RealmError(.corruptFile, "The snapshot of the synced Realm '\(path)' in the database cannot be read: \(error)")
        }
        _ = try write { () throws(RealmError) -> Result<Void, SessionError> in
            for changeset in changesets {
                try ChangesetApplier.apply(changeset, serverVersion: extent.snapshotVersion, in: transaction, recorder: recorder)
            }
            try saveLatestNow(extent.snapshotVersion)
            for (ident, version) in clients { try noteClientVersionNow(version, of: ident) }
            return .success(())
        }
        // The history between the compaction and the snapshot is in the
        // snapshot's state already; the copy keeps it for clients that
        // need it, and applies what follows.
        try applyHistoryNow(kept, appliedThrough: extent.snapshotVersion, compacted: compacted)
    }

    /// The most changesets read from the database and applied in one write.
    static let catchUpBatch: UInt64 = 5_000

    /// Refuses a copy past the database's history: the database was
    /// restored from a backup under it, and serving the copy would tell
    /// clients of versions the database does not have.
    private func requireNotAhead(_ local: (latest: UInt64, compactedThrough: UInt64), of extent: PostgresRealmLog.Extent) throws(RealmError) {
        guard local.latest > extent.latest else { return }
        throw RealmError(.corruptFile, "The copy of the synced Realm '\(path)' in the data folder is at version \(local.latest), past the database's \(extent.latest): the database was restored from a backup. Delete the data folder's copy (realms/) and start the server again.")
    }

    /// Appends `rows` to the file's history, applying those after
    /// `appliedThrough`, and deletes what the database compacted away.
    private func applyHistoryNow(_ rows: [HistoryEntry], appliedThrough: UInt64,
                                 compacted: (through: UInt64, salt: UInt64)?) throws(RealmError) {
        var newest = try Self.serverState(transaction).latest
        _ = try write { () throws(RealmError) -> Result<Void, SessionError> in
            for row in rows {
                if row.serverVersion > appliedThrough {
                    let changeset: Changeset
                    do {
                        changeset = try ChangesetCoding.decode(row.changeset)
                    } catch {
                        throw RealmError(.corruptFile, "Server version \(row.serverVersion) of '\(path)' in the database cannot be read: \(error)")
                    }
                    try ChangesetApplier.apply(changeset, serverVersion: row.serverVersion, in: transaction, recorder: recorder)
                    if row.clientFileIdent != Self.serverClientIdent { try noteClientVersionNow(row.clientVersion, of: row.clientFileIdent) }
                }
                try insertHistoryNow(row)
                newest = max(newest, row.serverVersion)
            }
            try saveLatestNow(newest)
            if let compacted, compacted.through > (try Self.serverState(transaction)).compactedThrough {
                try deleteHistoryNow(through: compacted.through, salt: compacted.salt)
            }
            return .success(())
        }
        noteLatest(newest)
    }

    /// Inside a write: notes that client version `version` of client file
    /// `ident` is integrated (what a query-based view reads).
    private func noteClientVersionNow(_ version: UInt64, of ident: UInt64) throws(RealmError) {
        let upsert = try transaction.replicationStatement("""
            INSERT INTO server_clients (client_file_ident, owner, last_client_version) VALUES (?, '', ?)
            ON CONFLICT (client_file_ident) DO UPDATE SET last_client_version = MAX(last_client_version, excluded.last_client_version)
            """)
        upsert.bind(Int64(bitPattern: ident), at: 1)
        upsert.bind(Int64(bitPattern: version), at: 2)
        try upsert.run()
    }

    private static func isContiguous(_ rows: [HistoryEntry], after: UInt64, through: UInt64) -> Bool {
        var expected = after + 1
        for row in rows {
            guard row.serverVersion == expected else { return false }
            expected += 1
        }
        return expected == through + 1
    }

    /// Brings the copy up to `version` or later, soon, on the queue: for
    /// another process's commit notification, which must not wait for it.
    /// Requests made while one is pending are one.
    func catchUpSoon(to version: UInt64) {
        guard log != nil, latestVersion < version, !catchUpPending.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Task.preferringCurrentExecutor {
            self.catchUpPending.store(false, ordering: .releasing)
            await self.catchUp()
        }
    }

    /// Brings the copy up to date after another process said it committed,
    /// and wakes the sessions when it moved.
    func catchUp() async {
        guard let log else { return }
        let before = latestVersion
        do {
            try await run { () throws(SessionError) in try self.storage { () throws(RealmError) in try self.catchUpNow(log) } }
        } catch {
            // The next bind, mark or write tries again.
            return
        }
        if latestVersion != before { wakeWatchers() }
    }

    /// The newest server version, the database asked first when there is
    /// one.
    func currentVersion() async throws(SessionError) -> UInt64 {
        guard log != nil else { return latestVersion }
        await catchUp()
        return latestVersion
    }

    // MARK: Clients

    /// Registers the client in the database (which knows what every
    /// process integrated from it) and notes it in the file.
    func registerShared(_ log: PostgresRealmLog, client ident: UInt64, owner: String, lastServerVersion: UInt64, queryBased: Bool,
                        catchUp: CatchUp) throws(RealmError) -> Result<(acknowledged: UInt64, catchUp: CatchUp), SessionError> {
        let found = try database {
            try log.register(client: ident, of: path, owner: owner, lastServerVersion: lastServerVersion, isQueryBased: queryBased,
                             seen: Self.now())
        }
        if let found, found.owner != owner {
            return .failure(SessionError(.badClientFileIdent, "The client file identity \(ident) belongs to another user's client of '\(path)'."))
        }
        let catchUp = found?.isQueryBased == true && !queryBased ? .state : catchUp
        let acknowledged = found?.lastClientVersion ?? 0
        return try write { () throws(RealmError) -> Result<(acknowledged: UInt64, catchUp: CatchUp), SessionError> in
            try noteClientVersionNow(acknowledged, of: ident)
            return .success((acknowledged, catchUp))
        }
    }

    // MARK: Compaction

    /// Compacts the database's history as ``compactIfNeeded(interval:retention:)``
    /// does the file's, under the Realm's lock, keeping the state at the
    /// newest version as the snapshot a copy behind the compaction starts
    /// from.
    func compactSharedNow(_ log: PostgresRealmLog, interval: UInt64, retention: TimeInterval) throws(RealmError) {
        // Most uploads find nothing to do, without taking the lock.
        guard try isCompactionDue(try Self.serverState(transaction), interval: interval) else { return }
        try database {
            try log.withLockedRealm(path) { locked in
                try self.catchUpNow(locked)
                let extent = locked.extent
                guard try self.isCompactionDue((extent.latest, extent.compactedThrough), interval: interval) else { return }
                let horizon = try locked.horizon(seenSince: Self.now() - Int64(retention * 1000))
                guard horizon > extent.compactedThrough else { return }
                let salt = try self.salt(of: horizon)
                try self.transaction.refresh()
                let snapshot = try StateSnapshot.changesets(self.transaction).map { ChangesetCoding.encode($0) }
                try locked.compact(through: horizon, salt: salt, snapshot: snapshot)
                try locked.commit(notifying: extent.latest)
                _ = try self.write { () throws(RealmError) -> Result<Void, SessionError> in
                    try self.deleteHistoryNow(through: horizon, salt: salt)
                    return .success(())
                }
                self.noteDataBytes(snapshot.reduce(0) { $0 + $1.count })
            }
        }
    }
}
