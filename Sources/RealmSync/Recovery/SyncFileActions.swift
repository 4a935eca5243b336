import Foundation
import RealmCore

/// What becomes of a synced Realm's file when the server can no longer sync
/// with it (seed 001, "Client reset" and "Permission denied errors"): the
/// file is backed up under `io.realm.object-server-recovered-realms` in the
/// sync root folder and deleted, so that the next open downloads a fresh
/// copy. It happens at the next launch, or at once when the app asks
/// (``SyncSession/immediatelyHandleError(_:)``) once it has closed every
/// instance of the Realm.
///
/// The action is recorded in the metadata Realm before the error reaches
/// the app, so that it survives the app stopping.
extension UserRegistry {
    /// The folder of backed-up Realms, Realm's name for it.
    static let recoveredRealmsFolder = "io.realm.object-server-recovered-realms"

    /// Records that the file at `path` must be backed up and deleted, and
    /// returns the token that does it now; a file with an action recorded
    /// keeps it (and its backup path).
    func scheduleFileAction(for path: String) throws -> SyncError.ActionToken {
        if let recorded = store.fileAction(originalPath: path) { return recorded }
        let action = SyncError.ActionToken(originalPath: path, backupPath: Self.newBackupPath(root: manager.rootDirectory))
        try store.addFileAction(action)
        return action
    }

    /// Backs up and deletes the file of `action` now. False, with the
    /// action left for the next launch, when the Realm is still open (in
    /// this process or another) or the files cannot be moved.
    @discardableResult
    func performFileAction(_ action: SyncError.ActionToken) -> Bool {
        do {
            // Done before, its record not forgotten: the file at the path
            // now is a new copy, not the one to back up.
            if !FileManager.default.fileExists(atPath: action.backupPath) {
                try AuxiliaryFiles.moveFiles(for: action.originalPath, to: action.backupPath)
            }
            try store.removeFileAction(originalPath: action.originalPath)
            manager.logger.info("backed up the synced Realm '\(action.originalPath)' to '\(action.backupPath)'")
            return true
        } catch {
            manager.logger.error("could not back up the synced Realm '\(action.originalPath)': \(error)")
            return false
        }
    }

    /// At launch: performs the actions recorded before.
    func performPendingFileActions() {
        for action in store.fileActions() { performFileAction(action) }
    }

    /// A new path in the recovered-Realms folder: `recovered_realm-` with
    /// the date and time and a random suffix, as Realm names them.
    static func newBackupPath(root: URL) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        return root.appendingPathComponent(recoveredRealmsFolder, isDirectory: true)
            .appendingPathComponent("recovered_realm-\(formatter.string(from: Date()))-\(suffix)").path
    }
}
