import Foundation
import RealmCore
import RealmObjects
import RealmSyncEngine

/// What a synced configuration carries into RealmObjects: the sync
/// configuration, and the calls that make an opened file synced.
struct SyncBinding: RealmSynchronizer {
    let configuration: SyncConfiguration

    func prepare() throws {
        let folder = configuration.localFileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw SyncError(.clientInternalError, "The folder of synced Realms '\(folder.path)' cannot be made: \(error.localizedDescription)")
        }
    }

    func attach(to coordinator: Coordinator) throws {
        _ = try configuration.user.session(for: configuration, coordinator: coordinator)
        do {
            try SyncedFile.recordSchema(of: coordinator)
        } catch {
            throw SyncError(.clientInternalError, "The synced Realm at '\(coordinator.path)' cannot record its schema: \(error.message)")
        }
    }

    func waitForDownload(_ coordinator: Coordinator, completion: @escaping @Sendable ((any Error)?) -> Void) {
        do {
            let session = try configuration.user.session(for: configuration, coordinator: coordinator)
            if !session.engine.waitForDownload(completion) {
                completion(SyncError(.clientSessionError, "The session of \(configuration.realmURL.absoluteString) is invalid."))
            }
        } catch {
            completion(error)
        }
    }
}

extension Realm.Configuration {
    /// The synced Realm this configuration opens, or nil for a local one
    /// (seed 001, "Opening a synchronized Realm").
    ///
    /// Setting it places the file in the user's folder under
    /// ``SyncManager/rootDirectory``; setting `fileURL` or
    /// `inMemoryIdentifier` afterwards makes the configuration a local one
    /// again. A synced configuration takes no migration block.
    public var syncConfiguration: SyncConfiguration? {
        get { (synchronizer as? SyncBinding)?.configuration }
        set {
            if let newValue {
                synchronize(fileURL: newValue.localFileURL, with: SyncBinding(configuration: newValue))
            } else if synchronizer != nil {
                synchronizer = nil
            }
        }
    }

    /// A configuration of the synced Realm `syncConfiguration`.
    public init(syncConfiguration: SyncConfiguration, encryptionKey: Data? = nil, readOnly: Bool = false, schemaVersion: UInt64 = 0,
                objectTypes: [Object.Type]? = nil) {
        self.init(encryptionKey: encryptionKey, readOnly: readOnly, schemaVersion: schemaVersion, objectTypes: objectTypes)
        self.syncConfiguration = syncConfiguration
    }
}

extension SyncUser {
    /// A configuration of the synced Realm at `realmURL`, opened as this
    /// user.
    public func configuration(realmURL: URL, encryptionKey: Data? = nil, objectTypes: [Object.Type]? = nil) -> Realm.Configuration {
        Realm.Configuration(syncConfiguration: SyncConfiguration(user: self, realmURL: realmURL), encryptionKey: encryptionKey,
                            objectTypes: objectTypes)
    }
}
