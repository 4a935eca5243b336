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
    /// not exist, encrypted with `destinationKey` or plain.
    public static func copy(_ path: String, encryptionKey: Data?, to destination: String, destinationKey: Data?) throws(ToolError) {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw ToolError("\(destination): the file exists; a copy never overwrites one")
        }
        let file = try RealmFile(path: path, encryptionKey: encryptionKey, readOnly: true)
        do {
            try file.transaction.writeCopy(toPath: destination, encryptionKey: destinationKey)
        } catch {
            throw ToolError(error, while: "\(destination)")
        }
    }

    /// Replaces the file with a copy under another key: `from` is the key
    /// it has (nil when plain), `to` the key it gets (nil to decrypt).
    public static func rekey(_ path: String, from oldKey: Data?, to newKey: Data?) throws(ToolError) {
        try requireUnused(path)
        let temporary = path + ".rekey-\(getpid())"
        _ = try? AuxiliaryFiles.deleteFiles(for: temporary)
        try copy(path, encryptionKey: oldKey, to: temporary, destinationKey: newKey)
        do throws(ToolError) {
            // The copy must open with its new key before the original goes.
            _ = try RealmFile(path: temporary, encryptionKey: newKey, readOnly: true)
            for companion in AuxiliaryFiles.paths(for: temporary).dropFirst() {
                try? FileManager.default.removeItem(atPath: companion)
            }
            do {
                try AuxiliaryFiles.deleteFiles(for: path)
            } catch {
                throw ToolError(error, while: path)
            }
            guard rename(temporary, path) == 0 else {
                throw ToolError("\(path): the file was replaced by its copy \(temporary), which could not be renamed: \(String(cString: strerror(errno)))")
            }
        } catch {
            if FileManager.default.fileExists(atPath: path) { _ = try? AuxiliaryFiles.deleteFiles(for: temporary) }
            throw error
        }
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
