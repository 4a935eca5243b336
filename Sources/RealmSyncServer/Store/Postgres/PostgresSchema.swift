import Logging
import PostgresNIO

/// The tables a server keeps in PostgreSQL (issue 37), made and upgraded
/// by the first server to start on a database: users, accounts, tokens,
/// permissions and offers (``PostgresUserStore``), and the synced Realms'
/// histories, clients and snapshots (``PostgresRealmLog``).
///
/// `realm_store_version` holds the version of the tables; a server refuses
/// a database a newer server has changed.
enum PostgresSchema {
    /// The version of the tables this server makes and reads.
    static var version: Int { migrations.count }

    /// Makes the tables the database lacks, in one transaction, and refuses
    /// a database a newer server has changed.
    static func migrate(_ client: PostgresClient, logger: Logger) async throws {
        try await client.withTransaction(logger: logger) { connection in
            // One server at a time makes the tables.
            try await connection.query("SELECT pg_advisory_xact_lock(7463001)", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS realm_store_version (version INTEGER NOT NULL)", logger: logger)
            let rows = try await connection.query("SELECT version FROM realm_store_version", logger: logger)
            var found: Int?
            for try await version in rows.decode(Int.self) { found = version }
            let current = found ?? 0
            if current > version {
                throw SyncServer.Error.configuration("the database's tables are of version \(current), made by a newer server; this one reads \(version)")
            }
            guard current < version else { return }
            for migration in migrations[current...] {
                for statement in migration {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
            if found == nil {
                try await connection.query("INSERT INTO realm_store_version (version) VALUES (\(version))", logger: logger)
            } else {
                try await connection.query("UPDATE realm_store_version SET version = \(version)", logger: logger)
            }
        }
    }

    /// The statements that bring the tables from each version to the next:
    /// the first makes the users' tables, the second adds the shared token
    /// secret, the third the synced Realms'.
    private static let migrations: [[String]] = [version1, version2, version3]

    private static let version3 = [
        // One row per synced Realm: its newest server version, the history
        // compacted away, and the server's own changes (permission Realms).
        // Writers of a Realm take its row's lock: the database decides the
        // order of its history.
        """
        CREATE TABLE realm_realms (
            path TEXT PRIMARY KEY,
            latest_version BIGINT NOT NULL DEFAULT 0,
            compacted_through BIGINT NOT NULL DEFAULT 0,
            compacted_salt BIGINT NOT NULL DEFAULT 0,
            snapshot_version BIGINT NOT NULL DEFAULT 0,
            own_client_version BIGINT NOT NULL DEFAULT 0,
            own_timestamp BIGINT NOT NULL DEFAULT 0
        )
        """,
        """
        CREATE TABLE realm_history (
            path TEXT NOT NULL,
            server_version BIGINT NOT NULL,
            client_file_ident BIGINT NOT NULL,
            client_version BIGINT NOT NULL,
            changeset BYTEA NOT NULL,
            salt BIGINT NOT NULL,
            PRIMARY KEY (path, server_version)
        )
        """,
        """
        CREATE TABLE realm_clients (
            path TEXT NOT NULL,
            client_file_ident BIGINT NOT NULL,
            owner TEXT NOT NULL,
            last_client_version BIGINT NOT NULL DEFAULT 0,
            last_server_version BIGINT NOT NULL DEFAULT 0,
            last_seen BIGINT NOT NULL DEFAULT 0,
            query_based BOOLEAN NOT NULL DEFAULT false,
            PRIMARY KEY (path, client_file_ident)
        )
        """,
        // The Realm's state at `realm_realms.snapshot_version`, for a
        // process whose copy is behind the compacted history: the
        // changesets of a ``StateSnapshot``, framed, in parts.
        """
        CREATE TABLE realm_snapshots (
            path TEXT NOT NULL,
            part INTEGER NOT NULL,
            changesets BYTEA NOT NULL,
            PRIMARY KEY (path, part)
        )
        """,
    ]

    private static let version2 = [
        "CREATE TABLE realm_secrets (name TEXT PRIMARY KEY, value BYTEA NOT NULL)",
    ]

    private static let version1 = [
        """
        CREATE TABLE realm_users (
            identity TEXT PRIMARY KEY,
            is_admin BOOLEAN NOT NULL,
            created TIMESTAMPTZ NOT NULL,
            metadata JSONB NOT NULL
        )
        """,
        """
        CREATE TABLE realm_accounts (
            provider TEXT NOT NULL,
            provider_user_identity TEXT NOT NULL,
            user_identity TEXT NOT NULL REFERENCES realm_users (identity),
            password_hash TEXT,
            PRIMARY KEY (provider, provider_user_identity)
        )
        """,
        "CREATE INDEX realm_accounts_by_user ON realm_accounts (user_identity)",
        """
        CREATE TABLE realm_refresh_tokens (
            token_hash TEXT PRIMARY KEY,
            user_identity TEXT NOT NULL,
            issued TIMESTAMPTZ NOT NULL,
            expires TIMESTAMPTZ NOT NULL
        )
        """,
        "CREATE INDEX realm_refresh_tokens_by_expiry ON realm_refresh_tokens (expires)",
        """
        CREATE TABLE realm_permissions (
            realm_path TEXT NOT NULL,
            user_identity TEXT NOT NULL,
            access_level SMALLINT NOT NULL,
            updated TIMESTAMPTZ NOT NULL,
            PRIMARY KEY (realm_path, user_identity)
        )
        """,
        "CREATE INDEX realm_permissions_by_user ON realm_permissions (user_identity)",
        """
        CREATE TABLE realm_offers (
            token_hash TEXT PRIMARY KEY,
            realm_path TEXT NOT NULL,
            access_level SMALLINT NOT NULL,
            creator TEXT NOT NULL,
            created TIMESTAMPTZ NOT NULL,
            expires TIMESTAMPTZ
        )
        """,
    ]
}
