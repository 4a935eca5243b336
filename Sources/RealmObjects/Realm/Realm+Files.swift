import Dispatch
import Foundation
import RealmCore

extension Realm {
    /// Writes a compacted copy of the Realm at its newest version to a new
    /// file, which must not exist.
    ///
    /// - Throws: ``Realm/Error`` when the file exists or cannot be written.
    public func writeCopy(toFile fileURL: URL, encryptionKey: Data? = nil) throws {
        verifyThread()
        guard encryptionKey == nil else {
            throw Realm.Error(.fail, "Encrypted copies are not available in this build: the encryption layer is not implemented yet.")
        }
        guard !FileManager.default.fileExists(atPath: fileURL.path) else {
            throw Realm.Error(.fileExists, "Cannot write a copy of the Realm to '\(fileURL.path)': the file exists.")
        }
        do {
            // VACUUM cannot run inside the transaction this Realm holds open,
            // so a connection of its own writes the copy.
            let connection = try Connection(path: state.coordinator.path, readOnly: true)
            let statement = try connection.prepare("VACUUM INTO ?")
            statement.bind(.string(fileURL.path), at: 1)
            try statement.run()
        } catch {
            throw Realm.Error(error)
        }
    }

    /// Deletes the files of the Realm a configuration names (the file, its
    /// WAL, lock, note and management files). Returns whether any existed.
    ///
    /// - Throws: ``Realm/Error`` with code `alreadyOpen` when a process has
    ///   the Realm open.
    @discardableResult
    public static func deleteFiles(for configuration: Configuration) throws -> Bool {
        guard configuration.inMemoryIdentifier == nil else { return false }
        do {
            return try AuxiliaryFiles.deleteFiles(for: (configuration.fileURL ?? Configuration.defaultFileURL).path)
        } catch {
            throw Realm.Error(error)
        }
    }

    /// Opens a Realm (running any migration) on a background queue, then
    /// calls `callback` on `callbackQueue` with a Realm for that queue's
    /// thread, or the error.
    public static func asyncOpen(
        configuration: Configuration = .defaultConfiguration,
        callbackQueue: DispatchQueue = .main,
        callback: @escaping @Sendable (Result<Realm, Swift.Error>) -> Void
    ) {
        DispatchQueue.global().async {
            let opened: Result<Void, Swift.Error>
            do {
                // Opening once does the slow work (schema, migration); the
                // callback's open then finds the file ready.
                _ = try RealmOpener.open(configuration)
                opened = .success(())
            } catch {
                opened = .failure(error)
            }
            callbackQueue.async {
                callback(opened.flatMap { Result { try Realm(configuration: configuration) } })
            }
        }
    }
}
