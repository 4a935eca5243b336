import Foundation
import RealmCore

/// `shouldCompactOnLaunch`: asks the configuration's block with the file's
/// total and used bytes, and rewrites the file without its free pages when
/// it says so and no other process has the Realm open.
///
/// The used bytes are those SQLite's `dbstat` table counts as holding data:
/// free pages and the unused space inside pages are left out, as Realm
/// leaves out the free space of its file. (Without `dbstat`, only free
/// pages are.) A file written in one transaction is packed already: then
/// the two numbers are close, and rewriting it gains little.
enum Compaction {
    static func compactIfNeeded(_ configuration: Realm.Configuration, _ shouldCompact: (Int, Int) -> Bool) throws {
        let path = (configuration.fileURL ?? Realm.Configuration.defaultFileURL).path
        guard FileManager.default.fileExists(atPath: path) else { return }
        // Taking the lock file exclusively proves no process uses the Realm;
        // otherwise compaction is skipped, as the seeds say.
        let lock = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { return }
        defer { close(lock) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else { return }
        defer { flock(lock, LOCK_UN) }
        do {
            let connection = try Connection(path: path, readOnly: false, encryptionKey: configuration.encryptionKey)
            guard let pageSize = try connection.scalar("PRAGMA page_size"),
                  let pageCount = try connection.scalar("PRAGMA page_count"),
                  let freePages = try connection.scalar("PRAGMA freelist_count") else { return }
            let total = Int(pageSize * pageCount)
            let used = (try? connection.scalar("SELECT sum(pgsize - unused) FROM dbstat")).flatMap { $0 }.map(Int.init)
                ?? Int(pageSize * (pageCount - freePages))
            if shouldCompact(total, min(used, total)) {
                try connection.execute("VACUUM")
            }
        } catch {
            throw Realm.Error(error)
        }
    }
}
