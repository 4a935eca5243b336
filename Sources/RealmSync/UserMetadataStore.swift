import Foundation
import RealmObjects

/// A logged-in (or logged-out, not yet cleaned up) user, as the metadata
/// Realm keeps it between launches.
final class SyncUserMetadata: Object {
    /// The identity and the server, joined: one record per user and server.
    @Persisted(primaryKey: true) var key = ""
    @Persisted var identity = ""
    @Persisted var server = ""
    @Persisted var refreshToken = ""
    @Persisted var accessToken = ""
    @Persisted var accessTokenExpiry = Date()
    @Persisted var isAdmin = false
    /// Set by `logOut()`: the user's synced files go at the next launch.
    @Persisted var isLoggedOut = false
    @Persisted var lastLogin = Date()

    static func key(identity: String, server: URL) -> String {
        identity + " " + server.absoluteString
    }
}

/// A synced file to back up and delete at the next launch, unless the app
/// has it done sooner (``SyncSession/immediatelyHandleError(_:)``): Realm's
/// file action, after a client reset or a permission denied.
final class SyncFileActionMetadata: Object {
    /// The Realm file.
    @Persisted(primaryKey: true) var originalPath = ""
    /// Where it goes.
    @Persisted var backupPath = ""
}

/// The users a client has logged in, kept in a Realm of their own in the
/// sync root folder (mode 0700; the file 0600; encrypted when
/// ``SyncManager/metadataEncryptionKey`` is set), so that they stay
/// logged in across launches.
///
/// The Realm is confined to a private serial queue; calls wait for it.
final class UserMetadataStore: @unchecked Sendable {
    // @unchecked: `realm` is set in init and then used only on `queue`.
    private let queue = DispatchQueue(label: "io.realm.sync.metadata")
    private var realm: Realm!

    /// The file of the metadata Realm in the sync root folder (Realm's
    /// name for it).
    static func fileURL(in root: URL) -> URL {
        root.appendingPathComponent("io.realm.object-server-metadata.realm")
    }

    init(root: URL, encryptionKey: Data?) throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = chmod(root.path, 0o700)
        var configuration = Realm.Configuration(fileURL: Self.fileURL(in: root))
        configuration.encryptionKey = encryptionKey
        configuration.objectTypes = [SyncUserMetadata.self, SyncFileActionMetadata.self]
        // 1: file actions.
        configuration.schemaVersion = 1
        try queue.sync {
            realm = try Realm(configuration: configuration, queue: queue)
        }
        for suffix in ["", "-wal", "-shm"] {
            _ = chmod(Self.fileURL(in: root).path + suffix, 0o600)
        }
    }

    /// The records of every user, logged in or not.
    func allUsers() -> [UserSnapshot] {
        queue.sync { realm.objects(SyncUserMetadata.self).map(UserSnapshot.init) }
    }

    /// Stores (or replaces) a logged-in user's record; the durable write
    /// waits on the store's queue, not on the caller's thread.
    func save(_ user: UserSnapshot) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                continuation.resume(with: Result { try self.write(user) })
            }
        }
    }

    private func write(_ user: UserSnapshot) throws {
        try realm.write {
            let record = SyncUserMetadata()
            record.key = SyncUserMetadata.key(identity: user.identity, server: user.server)
            record.identity = user.identity
            record.server = user.server.absoluteString
            record.refreshToken = user.refreshToken
            record.accessToken = user.accessToken
            record.accessTokenExpiry = user.accessTokenExpiry
            record.isAdmin = user.isAdmin
            record.isLoggedOut = user.isLoggedOut
            record.lastLogin = user.lastLogin
            try realm.add(record, update: .all)
        }
    }

    /// Marks a user logged out, forgetting their tokens.
    func markLoggedOut(identity: String, server: URL) throws {
        try queue.sync {
            guard let record = realm.object(ofType: SyncUserMetadata.self,
                                             forPrimaryKey: SyncUserMetadata.key(identity: identity, server: server)) else { return }
            try realm.write {
                record.isLoggedOut = true
                record.refreshToken = ""
                record.accessToken = ""
            }
        }
    }

    /// Records a file action; one recorded before for the same file keeps
    /// its backup path.
    func addFileAction(_ action: SyncError.ActionToken) throws {
        try queue.sync {
            guard realm.object(ofType: SyncFileActionMetadata.self, forPrimaryKey: action.originalPath) == nil else { return }
            let record = SyncFileActionMetadata()
            record.originalPath = action.originalPath
            record.backupPath = action.backupPath
            try realm.write { realm.add(record) }
        }
    }

    /// The file action recorded for the file at `originalPath`.
    func fileAction(originalPath: String) -> SyncError.ActionToken? {
        queue.sync {
            realm.object(ofType: SyncFileActionMetadata.self, forPrimaryKey: originalPath).map {
                SyncError.ActionToken(originalPath: $0.originalPath, backupPath: $0.backupPath)
            }
        }
    }

    /// Every file action recorded.
    func fileActions() -> [SyncError.ActionToken] {
        queue.sync {
            realm.objects(SyncFileActionMetadata.self).map { SyncError.ActionToken(originalPath: $0.originalPath, backupPath: $0.backupPath) }
        }
    }

    /// Forgets the file action of the file at `originalPath`.
    func removeFileAction(originalPath: String) throws {
        try queue.sync {
            guard let record = realm.object(ofType: SyncFileActionMetadata.self, forPrimaryKey: originalPath) else { return }
            try realm.write { realm.delete(record) }
        }
    }

    /// Forgets a user entirely.
    func remove(identity: String, server: URL) throws {
        try queue.sync {
            guard let record = realm.object(ofType: SyncUserMetadata.self,
                                             forPrimaryKey: SyncUserMetadata.key(identity: identity, server: server)) else { return }
            try realm.write { realm.delete(record) }
        }
    }
}

/// A user's record, away from the metadata Realm's queue.
struct UserSnapshot: Sendable {
    var identity: String
    var server: URL
    var refreshToken: String
    var accessToken: String
    var accessTokenExpiry: Date
    var isAdmin: Bool
    var isLoggedOut: Bool
    var lastLogin: Date

    init(identity: String, server: URL, refreshToken: String, accessToken: String, accessTokenExpiry: Date, isAdmin: Bool,
         isLoggedOut: Bool, lastLogin: Date) {
        self.identity = identity
        self.server = server
        self.refreshToken = refreshToken
        self.accessToken = accessToken
        self.accessTokenExpiry = accessTokenExpiry
        self.isAdmin = isAdmin
        self.isLoggedOut = isLoggedOut
        self.lastLogin = lastLogin
    }

    init(_ record: SyncUserMetadata) {
        self.init(identity: record.identity, server: URL(string: record.server) ?? URL(fileURLWithPath: "/"),
                  refreshToken: record.refreshToken, accessToken: record.accessToken, accessTokenExpiry: record.accessTokenExpiry,
                  isAdmin: record.isAdmin, isLoggedOut: record.isLoggedOut, lastLogin: record.lastLogin)
    }
}
