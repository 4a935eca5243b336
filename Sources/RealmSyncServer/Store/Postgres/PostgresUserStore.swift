import Foundation
import Logging
import PostgresNIO
import RealmSyncWire

/// A ``UserStore`` in a PostgreSQL database (issue 37): users, accounts,
/// refresh tokens, permissions and offers, shared by every server process
/// that uses the database. `realm server --database postgres://…` selects
/// it; without that option the server keeps its users in its data folder
/// (``EmbeddedUserStore``).
///
/// Each method is one statement or one transaction, committed when it
/// returns. Uniqueness is the database's: two processes creating a user
/// for one account at once make one user, because the account's primary
/// key lets one insert through.
///
/// The store runs its connection pool until ``shutdown()``.
public final class PostgresUserStore: SharedSecretStore, Sendable {
    private let client: PostgresClient
    private let running: Task<Void, Never>
    private let logger: Logger

    /// Connects to the database `url` names (`postgres://user:password@host:port/database`)
    /// and makes the store's tables if it lacks them.
    ///
    /// - Throws: ``SyncServer/Error/configuration(_:)`` for a URL that
    ///   names no database, or the database's error when it cannot be
    ///   reached or its tables are of a newer version.
    public convenience init(url: String, logger: Logger = Logger(label: "realm.sync.server.postgres")) async throws {
        try await self.init(configuration: PostgresURL(url).configuration, logger: logger)
    }

    init(configuration: PostgresClient.Configuration, logger: Logger) async throws {
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        let client = client
        running = Task { await client.run() }
        self.logger = logger
        do {
            try await PostgresSchema.migrate(client, logger: logger)
        } catch {
            await shutdown()
            throw error
        }
    }

    /// Closes the store's connections.
    public func shutdown() async {
        running.cancel()
        await running.value
    }

    // MARK: The shared secret

    public func tokenSecret(orMake candidate: Data) async throws -> Data {
        try await client.query("INSERT INTO realm_secrets (name, value) VALUES ('token', \(candidate)) ON CONFLICT DO NOTHING",
                               logger: logger)
        let rows = try await client.query("SELECT value FROM realm_secrets WHERE name = 'token'", logger: logger)
        for try await secret in rows.decode(Data.self) where secret.count >= 32 { return secret }
        throw SyncServer.Error.configuration("the database's token secret is missing or shorter than 32 bytes")
    }

    // MARK: Users and accounts

    public func user(identity: String) async throws -> UserRecord? {
        let rows = try await client.query("SELECT identity, is_admin, created, metadata::text FROM realm_users WHERE identity = \(identity)",
                                          logger: logger)
        for try await (identity, isAdmin, created, metadata) in rows.decode((String, Bool, Date, String).self) {
            return UserRecord(identity: identity, isAdmin: isAdmin, created: created, metadata: try Self.metadata(metadata))
        }
        return nil
    }

    public func account(provider: IdentityProvider, providerUserIdentity: String) async throws -> AccountRecord? {
        let rows = try await client.query("""
            SELECT provider, provider_user_identity, user_identity, password_hash FROM realm_accounts
            WHERE provider = \(provider.rawValue) AND provider_user_identity = \(providerUserIdentity)
            """, logger: logger)
        return try await Self.accounts(rows).first
    }

    public func accounts(ofUser identity: String) async throws -> [AccountRecord] {
        let rows = try await client.query("""
            SELECT provider, provider_user_identity, user_identity, password_hash FROM realm_accounts
            WHERE user_identity = \(identity) ORDER BY provider COLLATE "C", provider_user_identity COLLATE "C"
            """, logger: logger)
        return try await Self.accounts(rows)
    }

    public func createUser(_ user: UserRecord, account: AccountRecord) async throws {
        let metadata = try Self.json(user.metadata)
        do {
            try await insertUser(user, metadata: metadata, account: account)
        } catch let error as PostgresTransactionError {
            // The refusal was thrown to roll the transaction back.
            if let refusal = error.closureError as? UserStoreError { throw refusal }
            throw error
        }
    }

    private func insertUser(_ user: UserRecord, metadata: String, account: AccountRecord) async throws {
        try await client.withTransaction(logger: logger) { connection in
            try await connection.query("""
                INSERT INTO realm_users (identity, is_admin, created, metadata)
                VALUES (\(user.identity), \(user.isAdmin), \(user.created), \(metadata)::jsonb)
                """, logger: logger)
            // A concurrent creation for the same account waits here for the
            // other transaction, then inserts nothing.
            let inserted = try await connection.query("""
                INSERT INTO realm_accounts (provider, provider_user_identity, user_identity, password_hash)
                VALUES (\(account.provider.rawValue), \(account.providerUserIdentity), \(user.identity), \(account.passwordHash))
                ON CONFLICT DO NOTHING RETURNING 1
                """, logger: logger)
            var created = false
            for try await _ in inserted { created = true }
            // Thrown inside the transaction: the user row goes too.
            guard created else { throw UserStoreError.accountExists }
        }
    }

    public func setPasswordHash(_ hash: String, provider: IdentityProvider, providerUserIdentity: String) async throws {
        try await requireOneRow(client.query("""
            UPDATE realm_accounts SET password_hash = \(hash)
            WHERE provider = \(provider.rawValue) AND provider_user_identity = \(providerUserIdentity) RETURNING 1
            """, logger: logger))
    }

    public func setAdmin(_ isAdmin: Bool, userIdentity: String) async throws {
        try await requireOneRow(client.query("UPDATE realm_users SET is_admin = \(isAdmin) WHERE identity = \(userIdentity) RETURNING 1",
                                             logger: logger))
    }

    // MARK: Refresh tokens

    public func insertRefreshToken(_ token: RefreshTokenRecord) async throws {
        try await client.query("""
            INSERT INTO realm_refresh_tokens (token_hash, user_identity, issued, expires)
            VALUES (\(token.tokenHash), \(token.userIdentity), \(token.issued), \(token.expires))
            ON CONFLICT (token_hash) DO UPDATE SET user_identity = excluded.user_identity, issued = excluded.issued, expires = excluded.expires
            """, logger: logger)
    }

    public func refreshToken(hash: String) async throws -> RefreshTokenRecord? {
        let rows = try await client.query("""
            SELECT token_hash, user_identity, issued, expires FROM realm_refresh_tokens WHERE token_hash = \(hash)
            """, logger: logger)
        for try await (hash, user, issued, expires) in rows.decode((String, String, Date, Date).self) {
            return RefreshTokenRecord(tokenHash: hash, userIdentity: user, issued: issued, expires: expires)
        }
        return nil
    }

    @discardableResult
    public func deleteRefreshToken(hash: String) async throws -> Bool {
        try await count(client.query("DELETE FROM realm_refresh_tokens WHERE token_hash = \(hash) RETURNING 1", logger: logger)) > 0
    }

    @discardableResult
    public func deleteRefreshTokens(expiredBefore date: Date) async throws -> Int {
        try await count(client.query("DELETE FROM realm_refresh_tokens WHERE expires < \(date) RETURNING 1", logger: logger))
    }

    // MARK: Permissions and offers

    public func setPermission(_ permission: PermissionRecord) async throws {
        try await client.query("""
            INSERT INTO realm_permissions (realm_path, user_identity, access_level, updated)
            VALUES (\(permission.realmPath), \(permission.userIdentity), \(Int16(permission.accessLevel.rawValue)), \(permission.updated))
            ON CONFLICT (realm_path, user_identity) DO UPDATE SET access_level = excluded.access_level, updated = excluded.updated
            """, logger: logger)
    }

    public func permissions(realmPaths: [String]) async throws -> [PermissionRecord] {
        try await permissions(client.query("""
            SELECT realm_path, user_identity, access_level, updated FROM realm_permissions
            WHERE realm_path = ANY(\(realmPaths)) ORDER BY realm_path COLLATE "C", user_identity COLLATE "C"
            """, logger: logger))
    }

    public func permissions(concerningUser identity: String) async throws -> [PermissionRecord] {
        try await permissions(client.query("""
            SELECT realm_path, user_identity, access_level, updated FROM realm_permissions
            WHERE user_identity = \(identity) OR user_identity = '*' OR starts_with(realm_path, \("/\(identity)/"))
            ORDER BY realm_path COLLATE "C", user_identity COLLATE "C"
            """, logger: logger))
    }

    public func insertOffer(_ offer: OfferRecord) async throws {
        try await client.query("""
            INSERT INTO realm_offers (token_hash, realm_path, access_level, creator, created, expires)
            VALUES (\(offer.tokenHash), \(offer.realmPath), \(Int16(offer.accessLevel.rawValue)), \(offer.creator), \(offer.created), \(offer.expires))
            ON CONFLICT (token_hash) DO UPDATE SET realm_path = excluded.realm_path, access_level = excluded.access_level,
                creator = excluded.creator, created = excluded.created, expires = excluded.expires
            """, logger: logger)
    }

    public func offer(tokenHash: String) async throws -> OfferRecord? {
        let rows = try await client.query("""
            SELECT token_hash, realm_path, access_level, creator, created, expires FROM realm_offers WHERE token_hash = \(tokenHash)
            """, logger: logger)
        for try await (hash, path, level, creator, created, expires) in rows.decode((String, String, Int16, String, Date, Date?).self) {
            return OfferRecord(tokenHash: hash, realmPath: path, accessLevel: try Self.level(level), creator: creator, created: created,
                               expires: expires)
        }
        return nil
    }

    @discardableResult
    public func deleteOffer(tokenHash: String) async throws -> Bool {
        try await count(client.query("DELETE FROM realm_offers WHERE token_hash = \(tokenHash) RETURNING 1", logger: logger)) > 0
    }

    // MARK: Rows

    private static func accounts(_ rows: PostgresRowSequence) async throws -> [AccountRecord] {
        var accounts: [AccountRecord] = []
        for try await (provider, identity, user, hash) in rows.decode((String, String, String, String?).self) {
            accounts.append(AccountRecord(provider: IdentityProvider(rawValue: provider), providerUserIdentity: identity,
                                          userIdentity: user, passwordHash: hash))
        }
        return accounts
    }

    private func permissions(_ rows: PostgresRowSequence) async throws -> [PermissionRecord] {
        var permissions: [PermissionRecord] = []
        for try await (path, user, level, updated) in rows.decode((String, String, Int16, Date).self) {
            permissions.append(PermissionRecord(realmPath: path, userIdentity: user, accessLevel: try Self.level(level), updated: updated))
        }
        return permissions
    }

    private func requireOneRow(_ rows: PostgresRowSequence) async throws {
        guard try await count(rows) > 0 else { throw UserStoreError.notFound }
    }

    private func count(_ rows: PostgresRowSequence) async throws -> Int {
        var count = 0
        for try await _ in rows { count += 1 }
        return count
    }

    private static func level(_ raw: Int16) throws -> AccessLevel {
        guard let level = AccessLevel(rawValue: Int(raw)) else {
            throw SyncServer.Error.configuration("the database holds an access level of \(raw), which this server does not know")
        }
        return level
    }

    private static func json(_ metadata: [String: String]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(metadata), as: UTF8.self)
    }

    private static func metadata(_ json: String) throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
    }
}
