import Foundation
import RealmCore
import RealmSyncWire

/// Where a synced file stands with the server: who it is, what it has
/// integrated, what it has made.
package struct SyncFileState: Equatable, Sendable {
    /// The client file identity.
    package var clientFileIdent: UInt64
    /// The last server version integrated.
    package var lastServerVersion: UInt64
    /// The salt of `lastServerVersion` (0 when unknown).
    package var lastServerSalt: UInt64
    /// The client version of the last changeset recorded.
    package var lastClientVersion: UInt64
}

/// What a sync session does to its Realm's file, each step a transaction
/// of its own: read what to upload, forget what the server acknowledged,
/// apply what it downloaded.
///
/// Not `Sendable`: it holds a transaction, so one thread (the session's
/// queue) uses it.
package final class SyncedFile {
    package let recorder: ChangesetRecorder
    let transaction: Transaction

    /// The file of `coordinator`, whose recorder is installed now if it has
    /// none.
    package init(coordinator: Coordinator) throws(RealmError) {
        recorder = try ChangesetRecorder.installedRecorder(on: coordinator)
        transaction = try coordinator.makeTransaction()
    }

    /// Records now, in a write of its own, the classes and properties the
    /// file of `coordinator` has and replication has not seen (a Realm
    /// just opened with its models' schema), as Realm records a synced
    /// Realm's schema when it opens: a user who may only read, opening a
    /// Realm without downloading it first, uploads a schema the server
    /// refuses (seed 001, "Access Control"). Nothing is written when
    /// replication has seen it all.
    package static func recordSchema(of coordinator: Coordinator) throws(RealmError) {
        let transaction = try coordinator.makeTransaction()
        let replicated = try SyncTables.replicatedSchema(transaction)
        let unseen = transaction.schema.objectSchemas.contains { objectSchema in
            guard let known = replicated[objectSchema.name] else { return true }
            return objectSchema.properties.contains { $0.type != .linkingObjects && !known.contains($0.name) }
        }
        guard unseen else { return }
        try transaction.beginWrite()
        do {
            try transaction.commitWrite()
        } catch {
            transaction.cancelWrite()
            throw error
        }
    }

    /// The file's state; the first time, this chooses its client file
    /// identity (in a write of its own).
    package func state() throws(RealmError) -> SyncFileState {
        try transaction.refresh()
        if let stored = try SyncTables.storedState(transaction) { return stored.fileState }
        let state = try write { () throws(RealmError) in try SyncTables.state(transaction) }
        return state.fileState
    }

    /// The encoded changesets recorded after client version `after`, in
    /// order: what is still to upload.
    package func unacknowledged(after clientVersion: UInt64) throws(RealmError) -> [(clientVersion: UInt64, bytes: [UInt8])] {
        try transaction.refresh()
        return try SyncTables.encodedHistory(after: clientVersion, transaction)
    }

    /// Forgets the changesets up to client version `clientVersion`: the
    /// server has made them durable. Returns their encoded size.
    @discardableResult
    package func acknowledge(through clientVersion: UInt64) throws(RealmError) -> UInt64 {
        try transaction.refresh()
        let bytes = try SyncTables.historyBytes(in: 0...clientVersion, transaction)
        guard bytes > 0 else { return 0 }
        // Forgetting need not wait for the disk: a power loss that undoes it
        // has the changesets uploaded again, which the server skips.
        try write(syncingTheDisk: false) { () throws(RealmError) in try SyncTables.deleteHistory(through: clientVersion, transaction) }
        return bytes
    }

    /// The last client version the server acknowledged, as this file
    /// knows it: its changesets up to there are forgotten.
    package func acknowledgedThrough() throws(RealmError) -> UInt64 {
        try transaction.refresh()
        let state = try SyncTables.storedState(transaction)
        guard let oldest = try SyncTables.oldestHistory(transaction) else { return state?.lastClientVersion ?? 0 }
        return oldest - 1
    }

    /// The encoded size of the changesets not yet acknowledged.
    package func unacknowledgedBytes() throws(RealmError) -> UInt64 {
        try transaction.refresh()
        return try SyncTables.historyBytes(in: 0...UInt64(Int64.max), transaction)
    }

    /// The client version of the newest changeset not yet acknowledged, or
    /// nil when the server has them all.
    package func newestUnacknowledged() throws(RealmError) -> UInt64? {
        try transaction.refresh()
        return try SyncTables.newestHistory(transaction)
    }

    /// Applies other clients' changesets, in server order, in one write
    /// (which notifies the file's Realms as any commit does), and notes
    /// `serverVersion` as integrated.
    ///
    /// For a query-based file, the objects that left its view are then
    /// evicted (``TopLevelObjects/evict(_:in:_:)``); `received` is what
    /// the downloads since the bind created, which ``Eviction/allNotSent``
    /// keeps. Objects this file's changesets after `acknowledged` name
    /// stay: the server decided without them.
    ///
    /// - Throws: `invalidValue` ("bad changeset") when one cannot be
    ///   applied; nothing of the write is kept then.
    package func integrate(_ changesets: [(serverVersion: UInt64, changeset: Changeset)],
                           reaching serverVersion: UInt64, salt: UInt64 = 0,
                           evicting eviction: Eviction = .none, received: Set<ObjectReference> = [],
                           acknowledged: UInt64 = 0) throws(RealmError) {
        try transaction.refresh()
        if changesets.isEmpty, eviction == .none, let stored = try SyncTables.storedState(transaction),
           stored.lastServerVersion > serverVersion || stored.lastServerVersion == serverVersion && (salt == 0 || stored.lastServerSalt == salt) { return }
        // A download is the server's to send again: its commit need not wait
        // for the disk (a power loss before the next synced commit loses it
        // with its progress, so it comes again), which spares a change its
        // third disk sync on its way from one device to another.
        try write(syncingTheDisk: false) { () throws(RealmError) in
            try ChangesetApplier.apply(changesets, in: transaction, recorder: recorder)
            try recorder.withoutRecording { () throws(RealmError) in
                try evict(eviction, keeping: received, acknowledged: acknowledged)
                try SyncTables.noteIntegrated(serverVersion: serverVersion, salt: salt == 0 ? nil : salt, timestamp: 0, transaction)
            }
        }
    }

    func write<T>(syncingTheDisk: Bool = true, _ body: () throws(RealmError) -> T) throws(RealmError) -> T {
        if syncingTheDisk {
            try transaction.beginWrite()
        } else {
            try transaction.beginWriteWithoutSyncingTheDisk()
        }
        do {
            let result = try body()
            try transaction.commitWrite()
            return result
        } catch {
            transaction.cancelWrite()
            throw error
        }
    }
}
