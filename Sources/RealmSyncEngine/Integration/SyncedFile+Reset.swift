import Foundation
import RealmCore
import RealmSyncWire

extension SyncedFile {
    /// How a client reset changed the file.
    package struct ResetOutcome: Sendable, Equatable {
        /// The unsynced changesets replayed on the fresh state, to upload.
        package var recovered: Int
    }

    /// Makes the file, in place and in one write, what a fresh copy of the
    /// Realm from the server would be: the state of `fresh` (a synced file
    /// that has just downloaded the server's state), and, when
    /// `recovering`, this file's unsynced changesets replayed on it by the
    /// ordinary rules (Docs/Sync.md, "Client reset").
    ///
    /// The file takes `fresh`'s client identity, which the server has
    /// registered, and the server version it reached; the replayed
    /// changesets are numbered anew under that identity, to be uploaded.
    /// Objects are deleted and made again, so the file's Realms see every
    /// object go and come (an object held across the reset is
    /// invalidated). Nothing of the file changes when this throws.
    ///
    /// `backup` is the copy of the file made before, at client version
    /// `backedUpThrough`: when the file has changed since (the app wrote
    /// meanwhile), a second copy is written beside it, with `-latest` added
    /// to its name, inside this write, so that nothing the reset takes away
    /// is in neither.
    ///
    /// - Throws: the applier's error (`invalidValue`, a bad changeset) when
    ///   a replayed changeset cannot be applied to the fresh state, and any
    ///   storage error.
    package func reset(toStateOf fresh: Coordinator, recovering: Bool, backup: (path: String, backedUpThrough: UInt64)) throws(RealmError) -> ResetOutcome {
        let source = try fresh.makeTransaction()
        try source.refresh()
        guard let freshState = try SyncTables.storedState(source) else {
            throw RealmError(.invalidTransactionState, "The fresh copy of the Realm has not synced.")
        }
        return try write { () throws(RealmError) -> ResetOutcome in
            let old = try SyncTables.state(transaction)
            if old.lastClientVersion != backup.backedUpThrough {
                let latest = backup.path + "-latest"
                if FileManager.default.fileExists(atPath: latest) { try? FileManager.default.removeItem(atPath: latest) }
                try transaction.writeCopy(toPath: latest, encryptionKey: encryptionKey)
            }
            let unsynced = recovering ? try SyncTables.history(after: 0, transaction) : []
            try recorder.withoutRecording { () throws(RealmError) in
                try transaction.deleteAll()
                try transaction.replicationExecute("""
                    DELETE FROM sync_history; DELETE FROM sync_objects; DELETE FROM sync_lists; DELETE FROM sync_embedded;
                    DELETE FROM sync_schema; DELETE FROM sync_incarnations; DELETE FROM sync_tombstones; DELETE FROM sync_stamps;
                    DELETE FROM sync_pending_links; DELETE FROM sync_members; DELETE FROM sync_nested;
                    """)
            }
            // The fresh file's identity and place in the history; the
            // counters go on, so that no identity this file made is made
            // again.
            try SyncTables.save(SyncState(clientFileIdent: freshState.clientFileIdent, lastServerVersion: 0, lastClientVersion: 0,
                                          lastTimestamp: max(old.lastTimestamp, freshState.lastTimestamp),
                                          nextSequence: old.nextSequence, nextCounter: old.nextCounter, lastServerSalt: 0), transaction)
            var stream = StateSnapshot.Stream(source)
            while let chunk = try stream.next() {
                try ChangesetApplier.apply(chunk.map { (freshState.lastServerVersion, $0) }, in: transaction, recorder: recorder)
            }
            try recorder.withoutRecording { () throws(RealmError) in
                try SyncTables.noteIntegrated(serverVersion: freshState.lastServerVersion, salt: freshState.lastServerSalt, timestamp: 0, transaction)
            }
            var state = try SyncTables.state(transaction)
            if recovering {
                // The classes and properties this file has and the fresh
                // copy lacks come first: changes replayed may use them
                // (their own additions were in changesets the lost history
                // acknowledged).
                let schema = try recorder.schemaAdditions(transaction)
                if !schema.isEmpty {
                    state.lastClientVersion += 1
                    let changeset = Changeset(clientFileIdent: state.clientFileIdent, clientVersion: state.lastClientVersion,
                                              lastServerVersion: freshState.lastServerVersion, timestamp: state.lastTimestamp,
                                              firstSequence: state.nextSequence, instructions: schema)
                    state.nextSequence += UInt64(schema.count)
                    try SyncTables.appendHistory(changeset, transaction)
                }
            }
            let rebase = try IncarnationRebase(unsynced, fresh: transaction)
            for changeset in unsynced {
                state.lastClientVersion += 1
                let replayed = Changeset(clientFileIdent: freshState.clientFileIdent, clientVersion: state.lastClientVersion,
                                         lastServerVersion: freshState.lastServerVersion, timestamp: changeset.timestamp,
                                         firstSequence: changeset.firstSequence, instructions: rebase.rebase(changeset).instructions)
                try ChangesetApplier.apply(replayed, serverVersion: freshState.lastServerVersion, in: transaction, recorder: recorder)
                try SyncTables.appendHistory(replayed, transaction)
            }
            var saved = try SyncTables.state(transaction)
            saved.lastClientVersion = state.lastClientVersion
            saved.nextSequence = state.nextSequence
            try SyncTables.save(saved, transaction)
            return ResetOutcome(recovered: unsynced.count)
        }
    }

    /// The file's encryption key, if it has one.
    package var encryptionKey: Data? { transaction.coordinator.configuration.encryptionKey }

    /// Writes a copy of the file, as it is now, to `path` (encrypted with
    /// the file's key, if it has one), and returns the client version it
    /// holds changes to.
    package func writeCopy(toPath path: String) throws(RealmError) -> UInt64 {
        try transaction.refresh()
        let version = try SyncTables.storedState(transaction)?.lastClientVersion ?? 0
        try transaction.writeCopy(toPath: path, encryptionKey: encryptionKey)
        return version
    }
}
