import Foundation

extension Transaction {
    /// Writes a compacted copy of the file to `destination`, which must not
    /// exist: inside a write transaction, with its uncommitted changes (as
    /// Realm's `writeCopy` does); otherwise, at the newest committed version.
    ///
    /// - Throws: `fileExists` when `destination` exists; a file error when
    ///   it cannot be written.
    public func writeCopy(toPath destination: String) throws(RealmError) {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw RealmError(.fileExists, "Cannot write a copy of the Realm to '\(destination)': the file exists.")
        }
        if isInWriteTransaction {
            // VACUUM cannot run inside a transaction, and another connection
            // would not see the uncommitted changes: this connection copies
            // what it sees, which makes a compact file by itself.
            let copy = try Connection(path: destination, readOnly: false)
            do {
                try copy.execute("PRAGMA journal_mode = WAL")
                try connection.copyContents(into: copy)
            } catch {
                try? FileManager.default.removeItem(atPath: destination)
                throw error
            }
        } else {
            // A connection of its own, since VACUUM cannot run inside the
            // read transaction this one may hold open.
            let source = try Connection(path: coordinator.path, readOnly: true)
            let statement = try source.prepare("VACUUM INTO ?")
            statement.bind(.string(destination), at: 1)
            try statement.run()
        }
    }
}
