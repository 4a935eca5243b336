import Foundation
import RealmObjects
import RealmSyncWire

/// The server's default ``UserStore``: a Realm file (`users.realm`) in the
/// server's data folder, written through this project's own storage.
///
/// One server process owns a data folder (``SyncServer`` locks it). The
/// Realm is confined to a
/// private serial queue, so requests on any thread reach it in turn; each
/// change is one write transaction, durable (`synchronous = FULL`) when the
/// call returns.
public final class EmbeddedUserStore: UserStore, @unchecked Sendable {
    // @unchecked: `realm` is set once in init and then used only from
    // blocks running on `queue`, to which it is confined.
    private let queue = DispatchQueue(label: "io.realm.sync.server.users")
    private var realm: Realm?

    /// The file of the store in `directory`.
    public static func fileURL(in directory: URL) -> URL {
        directory.appendingPathComponent("users.realm")
    }

    /// Opens (or creates) the store in `directory`.
    ///
    /// - Throws: `Realm.Error` when the file cannot be opened.
    public init(directory: URL) throws {
        var configuration = Realm.Configuration(fileURL: Self.fileURL(in: directory))
        configuration.objectTypes = [StoredUser.self, StoredAccount.self, StoredRefreshToken.self, StoredPermission.self, StoredOffer.self]
        // 1: permissions and offers.
        configuration.schemaVersion = 1
        try queue.sync {
            realm = try Realm(configuration: configuration, queue: queue)
        }
    }

    /// Closes the file, once every call under way has returned; later
    /// calls throw ``UserStoreError/closed``. A server closes the store it
    /// opened when it stops, so that its data folder can be copied (a
    /// backup) once `stop()` returns: a file copied or replaced under an
    /// open connection is undone when that connection closes, as SQLite
    /// then deletes the write-ahead log by name.
    package func close() {
        queue.sync { realm = nil }
    }

    public func user(identity: String) async throws -> UserRecord? {
        try await perform { realm in realm.object(ofType: StoredUser.self, forPrimaryKey: identity)?.record }
    }

    public func account(provider: IdentityProvider, providerUserIdentity: String) async throws -> AccountRecord? {
        try await perform { realm in
            realm.object(ofType: StoredAccount.self, forPrimaryKey: StoredAccount.key(provider, providerUserIdentity))?.record
        }
    }

    public func accounts(ofUser identity: String) async throws -> [AccountRecord] {
        try await perform { realm in
            realm.objects(StoredAccount.self).filter("userIdentity == %@", identity)
                .sorted(byKeyPath: "key").map(\.record)
        }
    }

    public func createUser(_ user: UserRecord, account: AccountRecord) async throws {
        try await perform { realm in
            let key = StoredAccount.key(account.provider, account.providerUserIdentity)
            guard realm.object(ofType: StoredAccount.self, forPrimaryKey: key) == nil else {
                throw UserStoreError.accountExists
            }
            try realm.write {
                realm.add(StoredUser(user))
                realm.add(StoredAccount(account))
            }
        }
    }

    public func setPasswordHash(_ hash: String, provider: IdentityProvider, providerUserIdentity: String) async throws {
        try await perform { realm in
            guard let account = realm.object(ofType: StoredAccount.self,
                                             forPrimaryKey: StoredAccount.key(provider, providerUserIdentity)) else {
                throw UserStoreError.notFound
            }
            try realm.write { account.passwordHash = hash }
        }
    }

    public func setAdmin(_ isAdmin: Bool, userIdentity: String) async throws {
        try await perform { realm in
            guard let user = realm.object(ofType: StoredUser.self, forPrimaryKey: userIdentity) else {
                throw UserStoreError.notFound
            }
            try realm.write { user.isAdmin = isAdmin }
        }
    }

    public func insertRefreshToken(_ token: RefreshTokenRecord) async throws {
        try await perform { realm in
            try realm.write { try realm.add(StoredRefreshToken(token), update: .all) }
        }
    }

    public func refreshToken(hash: String) async throws -> RefreshTokenRecord? {
        try await perform { realm in realm.object(ofType: StoredRefreshToken.self, forPrimaryKey: hash)?.record }
    }

    @discardableResult
    public func deleteRefreshToken(hash: String) async throws -> Bool {
        try await perform { realm in
            guard let token = realm.object(ofType: StoredRefreshToken.self, forPrimaryKey: hash) else { return false }
            try realm.write { realm.delete(token) }
            return true
        }
    }

    @discardableResult
    public func deleteRefreshTokens(expiredBefore date: Date) async throws -> Int {
        try await perform { realm in
            let expired = realm.objects(StoredRefreshToken.self).filter("expires < %@", date)
            let count = expired.count
            if count > 0 { try realm.write { realm.delete(expired) } }
            return count
        }
    }

    // MARK: Permissions

    public func setPermission(_ permission: PermissionRecord) async throws {
        try await perform { realm in
            try realm.write { try realm.add(StoredPermission(permission), update: .all) }
        }
    }

    public func permissions(realmPaths: [String]) async throws -> [PermissionRecord] {
        try await perform { realm in
            realm.objects(StoredPermission.self).filter("realmPath IN %@", realmPaths).sorted(byKeyPath: "key").map(\.record)
        }
    }

    public func permissions(concerningUser identity: String) async throws -> [PermissionRecord] {
        try await perform { realm in
            realm.objects(StoredPermission.self)
                .filter("userIdentity == %@ OR userIdentity == '*' OR realmPath BEGINSWITH %@", identity, "/\(identity)/")
                .sorted(byKeyPath: "key").map(\.record)
        }
    }

    public func insertOffer(_ offer: OfferRecord) async throws {
        try await perform { realm in
            try realm.write { try realm.add(StoredOffer(offer), update: .all) }
        }
    }

    public func offer(tokenHash: String) async throws -> OfferRecord? {
        try await perform { realm in realm.object(ofType: StoredOffer.self, forPrimaryKey: tokenHash)?.record }
    }

    @discardableResult
    public func deleteOffer(tokenHash: String) async throws -> Bool {
        try await perform { realm in
            guard let offer = realm.object(ofType: StoredOffer.self, forPrimaryKey: tokenHash) else { return false }
            try realm.write { realm.delete(offer) }
            return true
        }
    }

    private func perform<T: Sendable>(_ body: @escaping @Sendable (Realm) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result {
                    guard let realm = self.realm else { throw UserStoreError.closed }
                    return try body(realm)
                })
            }
        }
    }
}
