import Foundation
import RealmCore
import RealmObjects
#if canImport(Glibc)
import Glibc
#endif

/// Whole-file work: compacting, copying, encrypting and decrypting.
///
/// Work that replaces a file in place (compact, encrypt, decrypt) refuses
/// to run while another process has the Realm open: it would pull the file
/// from under that process.
public enum FileMaintenance {
    /// The bytes a Realm occupies: the file and its write-ahead log.
    public static func size(of path: String) -> Int {
        [path, path + "-wal"].reduce(0) { total, path in
            total + (((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0)
        }
    }

    /// Rewrites the file without its free pages; returns the sizes before
    /// and after.
    public static func compact(_ path: String, encryptionKey: Data?) throws(ToolError) -> (before: Int, after: Int) {
        _ = try RealmFile(path: path, encryptionKey: encryptionKey, readOnly: true)  // a Realm, and the key fits
        try requireUnused(path)
        let before = size(of: path)
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: path), encryptionKey: encryptionKey,
                                                shouldCompactOnLaunch: { _, _ in true }, objectTypes: [])
        do {
            try autoreleasepool {
                _ = try Realm(configuration: configuration)
            }
        } catch {
            throw ToolError("\(path): \(error.localizedDescription)")
        }
        return (before, size(of: path))
    }

    /// Writes a compacted copy of the Realm to `destination`, which must
    /// not exist, encrypted with `destinationKey` or plain; returns the
    /// version copied.
    @discardableResult
    public static func copy(_ path: String, encryptionKey: Data?, to destination: String, destinationKey: Data?) throws(ToolError) -> UInt64 {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw ToolError("\(destination): the file exists; a copy never overwrites one")
        }
        let file = try RealmFile(path: path, encryptionKey: encryptionKey, readOnly: true)
        do {
            try file.transaction.writeCopy(toPath: destination, encryptionKey: destinationKey)
        } catch {
            throw ToolError(error, while: "\(destination)")
        }
        return file.version
    }

    /// Replaces the file with a copy under another key: `from` is the key
    /// it has (nil when plain), `to` the key it gets (nil to decrypt).
    ///
    /// The original stays whole until the copy, checked to open with its
    /// key, replaces it with one `rename`: its log is first checkpointed
    /// into it (a stale log must not outlive it), and the work is given up
    /// if another process committed meanwhile. The copy keeps the
    /// original's permissions.
    public static func rekey(_ path: String, from oldKey: Data?, to newKey: Data?) throws(ToolError) {
        _ = try RealmFile(path: path, encryptionKey: oldKey, readOnly: true)  // a Realm, and the key fits
        try requireUnused(path)
        let temporary = path + ".rekey-\(getpid())"
        _ = try? AuxiliaryFiles.deleteFiles(for: temporary)
        let copied = try copy(path, encryptionKey: oldKey, to: temporary, destinationKey: newKey)
        do throws(ToolError) {
            _ = try RealmFile(path: temporary, encryptionKey: newKey, readOnly: true)
            for companion in AuxiliaryFiles.paths(for: temporary).dropFirst() {
                try? FileManager.default.removeItem(atPath: companion)
            }
            try requireUnused(path)
            guard try RealmFile(path: path, encryptionKey: oldKey, readOnly: true).version == copied else {
                throw ToolError("\(path) changed while it was being copied; nothing was replaced, run the command again")
            }
            if let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] {
                try? FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: temporary)
            }
            try checkpoint(path, encryptionKey: oldKey)
            for companion in [path + "-wal", path + "-shm", path + ".note"] {
                try? FileManager.default.removeItem(atPath: companion)
            }
            guard rename(temporary, path) == 0 else {
                throw ToolError("\(path): its copy \(temporary) could not replace it: \(String(cString: strerror(errno)))")
            }
        } catch {
            _ = try? AuxiliaryFiles.deleteFiles(for: temporary)
            throw error
        }
    }

    /// Moves everything in the file's write-ahead log into the file and
    /// empties the log, so that deleting the log loses nothing.
    private static func checkpoint(_ path: String, encryptionKey: Data?) throws(ToolError) {
        do {
            let connection = try Connection(path: path, readOnly: false, encryptionKey: encryptionKey)
            try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        } catch {
            throw ToolError(error, while: "\(path): checkpointing its log")
        }
        let log = ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int) ?? 0
        guard log == 0 else { throw ToolError("\(path): its log could not be emptied; nothing was replaced") }
    }

    /// Throws when another process has the Realm open.
    static func requireUnused(_ path: String) throws(ToolError) {
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { return }
        defer { close(lock) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            throw ToolError("\(path) is open in another process; close it first")
        }
        flock(lock, LOCK_UN)
    }
}
