import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files that sit beside a Realm file, as in Realm:
///
/// - `<name>.lock`: held with a shared `flock` by every process that has the
///   file open, so that deleting or compacting can tell whether it is in use;
/// - `<name>.note`: the channel through which processes learn of each
///   other's commits;
/// - `<name>.management/`: a directory for interprocess coordination files;
/// - SQLite's `<name>-wal` and `<name>-shm`.
public enum AuxiliaryFiles {
    /// Every path a Realm at `path` may occupy, the file itself first.
    public static func paths(for path: String) -> [String] {
        [path, path + "-wal", path + "-shm", path + ".lock", path + ".note", path + ".management"]
    }

    /// Deletes a Realm file and everything beside it. Returns whether any of
    /// them existed. Throws ``RealmError/Kind/fileInUse`` when a process has
    /// the Realm open, and ``RealmError/Kind/fileAccess`` when a file cannot
    /// be removed.
    @discardableResult
    public static func deleteFiles(for path: String) throws(RealmError) -> Bool {
        let lockPath = path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CLOEXEC)
        if descriptor >= 0 {
            defer { close(descriptor) }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                throw RealmError(.fileInUse, "Cannot delete the Realm files at '\(path)': the Realm is open in this or another process.")
            }
        }
        return try deleteUnlocked(path)
    }

    /// Moves a Realm file (with its write-ahead log, which holds committed
    /// transactions not yet in the file) to `destination`, and deletes
    /// everything else beside it: a backup that opens as the Realm was.
    /// Returns whether there was a file to move. Throws
    /// ``RealmError/Kind/fileInUse`` when a process has the Realm open (and
    /// moves nothing), ``RealmError/Kind/fileAccess`` when a file cannot be
    /// moved or removed.
    @discardableResult
    public static func moveFiles(for path: String, to destination: String) throws(RealmError) -> Bool {
        let descriptor = open(path + ".lock", O_RDWR | O_CLOEXEC)
        if descriptor >= 0 {
            defer { close(descriptor) }
            // Held while moving, so that nobody opens the Realm meanwhile.
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                throw RealmError(.fileInUse, "Cannot move the Realm files at '\(path)': the Realm is open in this or another process.")
            }
            return try moveUnlocked(path, to: destination)
        }
        return try moveUnlocked(path, to: destination)
    }

    private static func moveUnlocked(_ path: String, to destination: String) throws(RealmError) -> Bool {
        guard FileManager.default.fileExists(atPath: path) else {
            _ = try deleteUnlocked(path)
            return false
        }
        var moved: [String] = []
        do {
            try FileManager.default.createDirectory(atPath: (destination as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            for suffix in ["-wal", ""] where FileManager.default.fileExists(atPath: path + suffix) {
                try FileManager.default.moveItem(atPath: path + suffix, toPath: destination + suffix)
                moved.append(suffix)
            }
        } catch {
            // The file and its log go together or not at all.
            for suffix in moved { try? FileManager.default.moveItem(atPath: destination + suffix, toPath: path + suffix) }
            throw RealmError(.fileAccess, "Unable to move '\(path)' to '\(destination)': \(error.localizedDescription)")
        }
        _ = try deleteUnlocked(path)
        return true
    }

    private static func deleteUnlocked(_ path: String) throws(RealmError) -> Bool {
        var existed = false
        for candidate in paths(for: path) where FileManager.default.fileExists(atPath: candidate) {
            existed = true
            do {
                try FileManager.default.removeItem(atPath: candidate)
            } catch {
                throw RealmError(.fileAccess, "Unable to delete '\(candidate)': \(error.localizedDescription)")
            }
        }
        return existed
    }

    /// Creates the lock file and management directory and takes the shared
    /// lock that marks the Realm as in use. Returns the lock's descriptor,
    /// which stays open (and locked) until ``release(_:)``.
    static func acquire(for path: String) throws(RealmError) -> Int32 {
        let management = path + ".management"
        if !FileManager.default.fileExists(atPath: management) {
            try? FileManager.default.createDirectory(atPath: management, withIntermediateDirectories: false)
        }
        let descriptor = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw RealmError(.file(errno: code), "Unable to create the lock file '\(path).lock': \(String(cString: strerror(code))).")
        }
        guard flock(descriptor, LOCK_SH) == 0 else {
            let message = String(cString: strerror(errno))
            close(descriptor)
            throw RealmError(.fileAccess, "Unable to lock '\(path).lock': \(message).")
        }
        return descriptor
    }

    static func release(_ descriptor: Int32) {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}

/// The shared lock that marks a Realm file as in use (``AuxiliaryFiles``),
/// released when the last of its holders goes: the coordinator and every
/// SQLite connection it opened. A connection closing may still write the
/// file (a checkpoint) and delete its write-ahead log by name, so the
/// lock outlives it: once the lock is free, nothing of this process
/// touches the file, and it may be moved or deleted.
final class FileLock: Sendable {
    private let descriptor: Int32

    /// Takes the shared lock of the Realm at `path`.
    init(path: String) throws(RealmError) {
        descriptor = try AuxiliaryFiles.acquire(for: path)
    }

    deinit {
        AuxiliaryFiles.release(descriptor)
    }
}
