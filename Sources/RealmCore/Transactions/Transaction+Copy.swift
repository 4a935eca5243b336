import Foundation

extension Transaction {
    /// Writes a compacted copy of the file to `destination`, which must not
    /// exist: inside a write transaction, with its uncommitted changes (as
    /// Realm's `writeCopy` does); otherwise, at the newest committed version.
    /// The copy is encrypted with `encryptionKey` (64 bytes), or plain when
    /// it is nil, whatever this file is.
    ///
    /// - Throws: `fileExists` when `destination` exists; a file error when
    ///   it cannot be written.
    public func writeCopy(toPath destination: String, encryptionKey: Data? = nil) throws(RealmError) {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw RealmError(.fileExists, "Cannot write a copy of the Realm to '\(destination)': the file exists.")
        }
        let sourceKey = coordinator.configuration.encryptionKey
        if isInWriteTransaction {
            // VACUUM cannot run inside a transaction, and another connection
            // would not see the uncommitted changes: this connection copies
            // what it sees, which makes a compact file by itself.
            try copyRows(from: connection, to: destination, encryptionKey: encryptionKey)
        } else if encryptionKey == nil && sourceKey == nil {
            // A connection of its own, since VACUUM cannot run inside the
            // read transaction this one may hold open.
            let source = try Connection(path: coordinator.path, readOnly: true)
            let statement = try source.prepare("VACUUM INTO ?")
            statement.bind(.string(destination), at: 1)
            try statement.run()
        } else {
            // VACUUM INTO would open the copy through the source's VFS, which
            // knows no key for it: the rows go through a destination opened
            // with its own key (or none).
            let source = try Connection(path: coordinator.path, readOnly: true, encryptionKey: sourceKey)
            try source.execute("BEGIN")
            defer { try? source.execute("COMMIT") }
            try copyRows(from: source, to: destination, encryptionKey: encryptionKey)
        }
    }

    /// Copies what `source` sees into a new file at `destination`, removed
    /// again when the copy fails.
    private func copyRows(from source: Connection, to destination: String, encryptionKey: Data?) throws(RealmError) {
        do {
            let copy = try Connection(path: destination, readOnly: false, encryptionKey: encryptionKey)
            try copy.execute("PRAGMA journal_mode = WAL")
            try source.copyContents(into: copy)
        } catch {
            for path in [destination, destination + "-wal", destination + "-shm"] {
                try? FileManager.default.removeItem(atPath: path)
            }
            throw error
        }
    }
}
