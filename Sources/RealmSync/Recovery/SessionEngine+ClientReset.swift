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
    /// Resets the file as the configuration's mode says, after the server
    /// asked for a reset with `error`; false when the mode is manual or the
    /// reset failed (the manual procedure follows then).
    func resetAutomatically(after error: SyncError) async -> Bool {
        let mode = configuration.clientResetMode
        guard let callbacks = mode.callbacks else { return false }
        let path = configuration.localFileURL.path
        let scratchPath = path + ".fresh"
        defer {
            resetScratch = nil
            _ = try? AuxiliaryFiles.deleteFiles(for: scratchPath)
        }
        do {
            _ = try? AuxiliaryFiles.deleteFiles(for: scratchPath)
            let key = try withFile { file throws(RealmError) in file.encryptionKey }
            let fresh = try Coordinator.open(Coordinator.Configuration(location: .file(scratchPath), encryptionKey: key))
            resetScratch = try SyncedFile(coordinator: fresh)
            try await downloadFreshState()
            resetScratch = nil

            let root = SyncManager.shared.rootDirectory
            let backupPath = UserRegistry.newBackupPath(root: root)
            try FileManager.default.createDirectory(atPath: (backupPath as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try withFile { file throws(RealmError) in try file.writeCopy(toPath: backupPath) }
            let beforeConfiguration = Realm.Configuration(fileURL: URL(fileURLWithPath: backupPath), encryptionKey: key, readOnly: true)
            let before = try Realm(configuration: beforeConfiguration)
            callbacks.before?(before)

            let outcome = try resetFile(to: fresh, mode: mode, backupPath: backupPath)
            acknowledged = 0
            retargetUploadWaiters()
            logger.info("reset \(path) to the server's copy, \(outcome.recovered) unsynced changesets replayed; the file as it was is in \(backupPath)")
            if let after = callbacks.after {
                var afterConfiguration = Realm.Configuration(syncConfiguration: configuration, encryptionKey: key)
                afterConfiguration.syncConfiguration = configuration
                after(before, try Realm(configuration: afterConfiguration))
            }
            return true
        } catch {
            logger.error("the automatic client reset of \(path) failed (\(error)); the manual procedure follows")
            return false
        }
    }

    /// Makes the file the fresh state, recovering its unsynced changes when
    /// the mode says (and discarding them when they cannot be replayed and
    /// the mode allows).
    private func resetFile(to fresh: Coordinator, mode: ClientResetMode, backupPath: String) throws(RealmError) -> SyncedFile.ResetOutcome {
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
            return try withFile { file throws(RealmError) in try file.reset(toStateOf: fresh, recovering: recovering) }
        } catch {
            let isStorage = [RealmError.Kind.storage, .fileAccess, .corruptFile].contains(error.kind)
            guard recovering, discardingOnFailure, !isStorage else { throw error }
            logger.warning("the unsynced changes of \(configuration.localFileURL.path) cannot be replayed (\(error.message)); they are discarded, and kept in \(backupPath)")
            return try withFile { file throws(RealmError) in try file.reset(toStateOf: fresh, recovering: false) }
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
            try await sender.send(.bind(session: number, path: path, accessToken: token, clientFileIdent: state.clientFileIdent,
                                        lastServerVersion: 0))
            for try await message in inbound {
                switch try SyncMessageCoding.decode(message) {
                case .ident:
                    try await sender.send(.mark(session: number, request: 1))
                case .download(_, let serverVersion, let salt, let parts, _, _):
                    var complete: [(serverVersion: UInt64, changeset: Changeset)] = []
                    for part in parts {
                        if let changeset = try reassembler.add(part) { complete.append(changeset) }
                    }
                    guard let scratch = resetScratch else { return .failure(SyncError(.clientInternalError, "The reset was abandoned.")) }
                    try scratch.integrate(complete, reaching: serverVersion, salt: salt)
                case .mark:
                    return .success(())
                case .error(_, let code, let text, _):
                    return .failure(Self.error(code: code, message: text, path: path))
                case .bind, .upload, .refresh, .unbind:
                    return .failure(SyncError(.clientSessionError, "A message only clients send, from the server."))
                }
            }
            return .failure(SyncError(.clientSessionError, "The server closed the connection during the reset of \(path)."))
        } catch {
            return .failure(SyncError(.clientSessionError, "The fresh copy of \(path) could not be downloaded: \(error)"))
        }
    }
}
