import Foundation
import NIOSSL
import PostgresNIO

/// A PostgreSQL database as a `postgres://user:password@host:port/database`
/// URL names it (`postgresql://` too), as `realm server --database` takes
/// it: without TLS unless `?sslmode=require`.
struct PostgresURL {
    /// For a pool of connections (``PostgresUserStore``).
    let configuration: PostgresClient.Configuration
    /// For a connection of its own (``BlockingPostgresPool``, the
    /// listener of ``PostgresRealmLog``).
    let connectionConfiguration: PostgresConnection.Configuration

    /// The configuration `url` names.
    ///
    /// - Throws: ``SyncServer/Error/configuration(_:)`` for a URL that names no PostgreSQL
    ///   database, quoting it without its password.
    init(_ url: String) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let host = components.host, !host.isEmpty else {
            throw SyncServer.Error.configuration("'\(Self.redacted(url))' is not a PostgreSQL URL: write postgres://user:password@host:port/database.")
        }
        let database = components.path.drop { $0 == "/" }
        guard !database.isEmpty, !database.contains("/") else {
            throw SyncServer.Error.configuration("'\(Self.redacted(url))' names no database: write postgres://user:password@host:port/database.")
        }
        let mode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        let tls: PostgresClient.Configuration.TLS
        let connectionTLS: PostgresConnection.Configuration.TLS
        switch mode {
        case "disable": (tls, connectionTLS) = (.disable, .disable)
        case "prefer": (tls, connectionTLS) = (.prefer(.makeClientConfiguration()), .prefer(try Self.tlsContext()))
        case "require": (tls, connectionTLS) = (.require(.makeClientConfiguration()), .require(try Self.tlsContext()))
        default: throw SyncServer.Error.configuration("'\(Self.redacted(url))': sslmode is disable, prefer or require, not '\(mode)'.")
        }
        let user = components.user ?? "postgres"
        configuration = PostgresClient.Configuration(host: host, port: components.port ?? 5432, username: user,
                                                     password: components.password, database: String(database), tls: tls)
        connectionConfiguration = PostgresConnection.Configuration(host: host, port: components.port ?? 5432, username: user,
                                                                   password: components.password, database: String(database),
                                                                   tls: connectionTLS)
    }

    private static func tlsContext() throws -> NIOSSLContext {
        do {
            return try NIOSSLContext(configuration: .makeClientConfiguration())
        } catch {
            throw SyncServer.Error.configuration("TLS for PostgreSQL cannot be set up: \(error)")
        }
    }

    /// `url` without its password, for messages.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }
}
