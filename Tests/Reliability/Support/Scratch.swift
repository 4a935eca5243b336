import Foundation

/// A directory of its own under the system's temporary directory, removed
/// when the family ends.
struct Scratch {
    let url: URL

    init(_ name: String) throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("realm-reliability-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL {
        url.appendingPathComponent(name)
    }

    /// Removes the directory, unless `RELIABILITY_KEEP` is set (to look at
    /// the files of a failing case).
    func remove() {
        if ProcessInfo.processInfo.environment["RELIABILITY_KEEP"] != nil {
            say("kept \(url.path)")
            return
        }
        try? FileManager.default.removeItem(at: url)
    }
}

/// Removes a Realm's file and its auxiliary files.
func removeRealmFiles(at url: URL) {
    for suffix in ["", "-wal", "-shm", ".lock", ".note", ".management"] {
        try? FileManager.default.removeItem(atPath: url.path + suffix)
    }
}
