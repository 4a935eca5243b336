import Dispatch
import Foundation
import RealmCore

extension Realm {
    /// Writes a compacted copy of the Realm to a new file, which must not
    /// exist. Inside a write transaction the copy holds the transaction's
    /// current data, uncommitted changes included; otherwise the newest
    /// committed version.
    ///
    /// The copy is encrypted with `encryptionKey` (64 bytes), or plain when
    /// it is nil, whether or not this Realm is encrypted: a copy is how a
    /// Realm is encrypted, decrypted, or given another key.
    ///
    /// - Throws: ``Realm/Error`` with code `fileExists` when the file exists,
    ///   `fileNotFound` when its directory does not, or another file code
    ///   when it cannot be written.
    public func writeCopy(toFile fileURL: URL, encryptionKey: Data? = nil) throws {
        verifyThread()
        try Configuration.validate(encryptionKey, for: "writing a copy to '\(fileURL.path)'")
        try throwPendingError()
        do {
            try transaction.writeCopy(toPath: fileURL.path, encryptionKey: encryptionKey)
        } catch {
            throw Realm.Error(error, fileURL: fileURL)
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

    /// Whether the Realm file of `configuration` exists (never for an
    /// in-memory Realm).
    public static func fileExists(for configuration: Configuration) -> Bool {
        guard configuration.inMemoryIdentifier == nil else { return false }
        return FileManager.default.fileExists(atPath: (configuration.fileURL ?? Configuration.defaultFileURL).path)
    }

    /// Opens a Realm (running any migration) on a background queue, then
    /// calls `callback` on `callbackQueue` with a Realm for that queue's
    /// thread, or the error.
    ///
    /// A synced Realm (RealmSync's `syncConfiguration`) is handed out once
    /// it holds everything the server had when this was called (seed 001,
    /// "Asynchronously opening Realms").
    public static func asyncOpen(
        configuration: Configuration = .defaultConfiguration,
        callbackQueue: DispatchQueue = .main,
        callback: @escaping @Sendable (Result<Realm, Swift.Error>) -> Void
    ) {
        prepare(configuration) { error in
            callbackQueue.async {
                if let error {
                    callback(.failure(error))
                } else {
                    callback(Result { try Realm(configuration: configuration) })
                }
            }
        }
    }

    /// Opens a Realm as ``asyncOpen(configuration:callbackQueue:callback:)``
    /// does (the slow work, and a synced Realm's download, off the main
    /// thread), and returns it for the main actor.
    @MainActor
    public static func asyncOpen(configuration: Configuration = .defaultConfiguration) async throws -> Realm {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Swift.Error>) in
            prepare(configuration) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
        return Realm(state: try threadRealm(configuration))
    }

    /// Does the slow work of opening on a background queue (schema,
    /// migration, and, when `download` says so, a synced Realm's
    /// download), then calls `completion`.
    static func prepare(_ configuration: Configuration, download: Bool = true,
                        completion: @escaping @Sendable ((any Swift.Error)?) -> Void) {
        DispatchQueue.global().async {
            do {
                guard let synchronizer = configuration.synchronizer, download else {
                    // Opening once does the slow work; the caller's open
                    // then finds the file ready.
                    _ = try RealmOpener.open(configuration)
                    return completion(nil)
                }
                // A synced Realm downloads before its models' schema is
                // applied, as in Realm: the caller's open then finds the
                // server's classes there and adds only what they lack, so
                // that a user who may only read records no schema change
                // (seed 001, "Access Control").
                var bare = configuration
                bare.objectTypes = []
                let coordinator = try RealmOpener.open(bare).coordinator
                // The file stays open until the download is done.
                synchronizer.waitForDownload(coordinator) { error in
                    withExtendedLifetime(coordinator) { completion(error) }
                }
            } catch {
                completion(error)
            }
        }
    }
}
