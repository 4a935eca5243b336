import Foundation
import NIOCore
import RealmCore
import RealmObjects
import RealmSyncEngine
import RealmSyncWire

// Realm 10's automatic client reset (``ClientResetMode``), done in place:
// the server's fresh state is downloaded into a scratch file as a new
// client's, the file is backed up, then made that state (with its unsynced
// changes replayed on it, when recovering) in one write.

extension SessionEngine {
    /// How an automatic reset ended.
    enum AutomaticReset {
        /// The file is reset: bind again, as the fresh copy's client.
        case done
        /// The fresh copy could not be downloaded (the connection failed):
        /// try again after the usual wait; the file is untouched.
        case retryLater
        /// The mode is manual, or the reset cannot be done: the manual
        /// procedure follows.
        case manual
    }

    /// The most resets in a row, with no bind accepted between them, before
    /// the manual procedure takes over: a server that keeps asking would
    /// otherwise have the client reset (and back up) for ever.
    static let resetsInARowLimit = 3

    /// Resets the file as the configuration's mode says, after the server
    /// asked for a reset.
    func resetAutomatically() async -> AutomaticReset {
        let mode = configuration.clientResetMode
        guard let callbacks = mode.callbacks else { return .manual }
        let path = configuration.localFileURL.path
        guard resetsInARow < Self.resetsInARowLimit else {
            logger.error("\(path) was reset \(resetsInARow) times in a row and the server asks again; the manual procedure follows")
            return .manual
        }
        let scratchPath = path + ".fresh"
        defer {
            resetScratch = nil
            _ = try? AuxiliaryFiles.deleteFiles(for: scratchPath)
        }
        let fresh: Coordinator
        let key: Data?
        do {
            _ = try? AuxiliaryFiles.deleteFiles(for: scratchPath)
            key = try withFile { file throws(RealmError) in file.encryptionKey }
            fresh = try Coordinator.open(Coordinator.Configuration(location: .file(scratchPath), encryptionKey: key))
            resetScratch = try SyncedFile(coordinator: fresh)
        } catch {
            logger.error("the automatic client reset of \(path) cannot begin (\(error)); the manual procedure follows")
            return .manual
        }
        do {
            try await downloadFreshState()
        } catch {
            logger.debug("the fresh copy of \(path) could not be downloaded (\(error)); the reset is tried again")
            return .retryLater
        }
        resetScratch = nil
        do {
            let backupPath = UserRegistry.newBackupPath(root: SyncManager.shared.rootDirectory)
            try FileManager.default.createDirectory(atPath: (backupPath as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let backedUpThrough = try withFile { file throws(RealmError) in try file.writeCopy(toPath: backupPath) }
            let before = try Self.openRealm(Realm.Configuration(fileURL: URL(fileURLWithPath: backupPath), encryptionKey: key, readOnly: true))
            callbacks.before?(before)

            let outcome = try resetFile(to: fresh, mode: mode, backup: (backupPath, backedUpThrough))
            resetsInARow += 1
            acknowledged = 0
            retargetUploadWaiters()
            logger.info("reset \(path) to the server's copy, \(outcome.recovered) unsynced changesets replayed; the file as it was is in \(backupPath)")
            if let after = callbacks.after {
                after(before, try Self.openRealm(Realm.Configuration(syncConfiguration: configuration, encryptionKey: key)))
            }
            return .done
        } catch {
            logger.error("the automatic client reset of \(path) failed (\(error)); the manual procedure follows")
            return .manual
        }
    }

    /// Makes the file the fresh state, recovering its unsynced changes when
    /// the mode says (and discarding them when they cannot be replayed and
    /// the mode allows).
    private func resetFile(to fresh: Coordinator, mode: ClientResetMode,
                           backup: (path: String, backedUpThrough: UInt64)) throws(RealmError) -> SyncedFile.ResetOutcome {
        var recovering = false
        var discardingOnFailure = false
        switch mode {
        case .manual, .discardUnsyncedChanges: break
        case .recoverUnsyncedChanges: recovering = true
        case .recoverOrDiscardUnsyncedChanges:
            recovering = true
            discardingOnFailure = true
        }
        do {
            return try withFile { file throws(RealmError) in try file.reset(toStateOf: fresh, recovering: recovering, backup: backup) }
        } catch {
            let isStorage = [RealmError.Kind.storage, .fileAccess, .corruptFile].contains(error.kind)
            guard recovering, discardingOnFailure, !isStorage else { throw error }
            logger.warning("the unsynced changes of \(configuration.localFileURL.path) cannot be replayed (\(error.message)); they are discarded, and kept in \(backup.path)")
            return try withFile { file throws(RealmError) in try file.reset(toStateOf: fresh, recovering: false, backup: backup) }
        }
    }

    /// Binds the scratch file as a new client and downloads the server's
    /// state into it, until a mark says it has everything.
    private func downloadFreshState() async throws {
        guard let scratch = resetScratch else { return }
        let state = try scratch.state()
        let token = try await configuration.user.accessToken()
        let channel = try await connect()
        let outcome = try await SyncWebSocket.run(channel, timeouts: connectionTimeouts) { inbound, sender in
            await self.downloadFreshState(inbound, sender, token: token, state: state)
        }
        try outcome.get()
    }

    private func downloadFreshState(_ inbound: MessageQueue, _ sender: SerialMessageSender, token: String,
                                    state: SyncFileState) async -> Result<Void, SyncError> {
        let number = Self.sessionNumber
        let path = configuration.resolvedPath
        var reassembler = ChangesetReassembler()
        do {
            // A query-based Realm's fresh copy is its view.
            let subscriptions = configuration.isPartial ? try withFile { file throws(RealmError) in try file.subscriptionQueries() } : nil
            try await sender.send(.bind(session: number, path: path, accessToken: token, clientFileIdent: state.clientFileIdent,
                                        lastServerVersion: 0, subscriptions: subscriptions))
            for try await message in inbound {
                switch try SyncMessageCoding.decode(message) {
                case .ident:
                    try await sender.send(.mark(session: number, request: 1))
                case .download(_, let serverVersion, let salt, let parts, _, _, _):
                    var complete: [(serverVersion: UInt64, changeset: Changeset)] = []
                    for part in parts {
                        if let changeset = try reassembler.add(part) { complete.append(changeset) }
                    }
                    guard let scratch = resetScratch else { return .failure(SyncError(.clientInternalError, "The reset was abandoned.")) }
                    try scratch.integrate(complete, reaching: serverVersion, salt: salt)
                case .mark:
                    return .success(())
                case .subscriptionStatus:
                    continue
                case .error(_, let code, let text, _):
                    return .failure(Self.error(code: code, message: text, path: path))
                case .bind, .upload, .refresh, .unbind, .subscribe:
                    return .failure(SyncError(.clientSessionError, "A message only clients send, from the server."))
                }
            }
            return .failure(SyncError(.clientSessionError, "The server closed the connection during the reset of \(path)."))
        } catch {
            return .failure(SyncError(.clientSessionError, "The fresh copy of \(path) could not be downloaded: \(error)"))
        }
    }

    /// The Realm of the calling thread for `configuration`. (Named
    /// `Realm(configuration:)` in an asynchronous function, Swift picks
    /// the main actor's asynchronous initializer, as Realm's does.)
    private static func openRealm(_ configuration: Realm.Configuration) throws -> Realm {
        try Realm(configuration: configuration)
    }
}
