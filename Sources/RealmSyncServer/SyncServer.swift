import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOSSL
import RealmSyncEngine
import RealmSyncWire
import ServiceLifecycle
import UnixSignals
import Synchronization

/// The self-hosted sync server: users, authentication and synced Realms,
/// over HTTP and WebSocket on one port (the sync protocol at `/sync`).
///
/// ```swift
/// var configuration = SyncServer.Configuration(dataDirectory: folder)
/// configuration.port = 0                       // any free port
/// let server = try await SyncServer(configuration: configuration)
/// try await server.start()
/// print(server.url)                            // http://127.0.0.1:PORT
/// …
/// await server.stop()                          // finishes requests in flight
/// ```
///
/// `realm server` runs one from the command line, stopping gracefully on
/// SIGINT or SIGTERM (``run()``).
public final class SyncServer: Sendable {
    /// What went wrong starting a server.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// The configuration cannot be used: a provider's key, the TLS files.
        case configuration(String)
        /// The server could not start listening.
        case startFailed(String)
        /// Another socket has the address the server was to listen on.
        case addressInUse(host: String, port: Int)

        public var description: String {
            switch self {
            case .configuration(let message): "Invalid server configuration: \(message)"
            case .startFailed(let message): "The server could not start: \(message)"
            case .addressInUse(let host, let port): "The server could not start: \(host):\(port) is in use"
            }
        }
    }

    /// The settings the server was made with.
    public let configuration: Configuration
    private let application: HTTPService
    private let state = Mutex<RunState>(.idle)
    private let startup = StartupSignal()
    private let logger: Logger
    /// Held while the server exists: one server per data folder.
    private let dataLock: DataDirectoryLock
    /// What the server opened on PostgreSQL, closed when it stops.
    private let database: OwnedDatabase

    /// The user store, synced Realms' history and listener a server opens
    /// on PostgreSQL, or the user store it opens in its data folder: what
    /// it closes when it stops.
    private struct OwnedDatabase {
        var store: PostgresUserStore?
        /// The store in the data folder, when the server opened it.
        var embedded: EmbeddedUserStore?
        var log: PostgresRealmLog?
        var listener: PostgresChangeListener?

        func shutdown() async {
            await listener?.shutdown()
            log?.shutdown()
            await store?.shutdown()
            embedded?.close()
        }
    }

    /// The connections of a server's ``PostgresRealmLog``: the synced
    /// Realms writing or catching up at once.
    static let realmLogConnections = 10

    private enum RunState {
        case idle
        case running(ServiceGroup, Task<Void, any Swift.Error>)
        case stopped
    }

    /// Prepares a server: opens its store, loads or makes its token secret,
    /// checks its providers' keys and creates the initial administrator.
    ///
    /// - Throws: ``Error/configuration(_:)`` for unusable settings, or the
    ///   store's error when the data folder cannot be used.
    public init(configuration: Configuration) async throws {
        self.configuration = configuration
        var logger = Logger(label: "realm.sync.server")
        logger.logLevel = configuration.logLevel
        self.logger = logger
        try Self.validate(configuration)

        try FileManager.default.createDirectory(at: configuration.dataDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        dataLock = try DataDirectoryLock(configuration.dataDirectory)
        var (store, database) = try await Self.openStore(configuration, logger: logger)
        do {
            let purged = try await store.deleteRefreshTokens(expiredBefore: Date())
            if purged > 0 { logger.info("forgot \(purged) expired refresh tokens") }
            let service = AuthService(
                store: store,
                tokens: try await TokenIssuer(dataDirectory: configuration.dataDirectory, store: store,
                                              accessTokenLifetime: configuration.accessTokenLifetime,
                                              refreshTokenLifetime: configuration.refreshTokenLifetime),
                passwords: PasswordHasher(cost: configuration.passwordHashCost),
                external: try await ExternalIdentityVerifier(configuration.providers, logger: logger),
                limiter: FailedLoginLimiter(limit: configuration.failedLoginLimit, window: configuration.failedLoginWindow),
                providers: configuration.providers,
                logger: logger)
            if let admin = configuration.initialAdmin {
                try await service.ensureAdmin(admin)
            }

            // On PostgreSQL, synced Realms are shared with every process
            // on the database: their history is there, and each process
            // hears of the others' changes.
            let url = try configuration.databaseURL.map(PostgresURL.init)
            database.log = url.map { PostgresRealmLog(url: $0, connections: Self.realmLogConnections, logger: logger) }
            let sync = SyncService(dataDirectory: configuration.dataDirectory, auth: service,
                                   compaction: SyncService.Compaction(interval: configuration.historyCompactionInterval,
                                                                      retention: configuration.clientHistoryRetention),
                                   log: database.log, logger: logger)
            if let url {
                database.listener = PostgresChangeListener(
                    configuration: url.connectionConfiguration,
                    handler: .init(realmChanged: { path, version in await sync.realmChanged(path: path, version: version) },
                                   permissionsChanged: { realmPath, user in await sync.applyPermissionChange(realmPath: realmPath, user: user) },
                                   reconnected: { await sync.otherProcessesMayHaveChanged() }),
                    logger: logger)
            }

            let router = Router(context: BasicRequestContext.self)
            router.add(middleware: ProblemMiddleware(routes: AuthController.routes.merging(PermissionController.routes) { $1 },
                                                     routePrefixes: AuthController.routePrefixes))
            AuthController(service: service, maxBodySize: configuration.maxRequestBodySize).register(on: router)
            PermissionController(service: PermissionService(sync: sync, logger: logger), auth: service,
                                 maxBodySize: configuration.maxRequestBodySize).register(on: router)
            // A connection idle for a minute is closed, so that clients that
            // open connections and send nothing cannot hold them for ever; a
            // sync connection, once upgraded, is kept alive by pings instead.
            let channel = HTTP1WebSocketUpgradeChannel.Configuration(
                http1: HTTP1Channel.Configuration(idleTimeout: .seconds(60)),
                ws: WebSocketServerConfiguration(maxFrameSize: 1 << 16, autoPing: .enabled(timePeriod: configuration.keepAlivePeriod)))
            let http = HTTPServerBuilder { responder in
                MalformedRequestGuard(wrapped: HTTP1WebSocketUpgradeChannel(responder: responder, configuration: channel) { request, _, logger in
                    guard request.path == SyncService.route else { return .dontUpgrade }
                    return .upgrade([:]) { inbound, outbound, _ in
                        // A WebSocket stays open as long as its client
                        // wants: stopping the server ends it, or the
                        // graceful shutdown would wait for every client
                        // to leave (and its deadline's cancellation for
                        // connections that never do).
                        await cancelWhenGracefulShutdown {
                            await ServerConnection(service: sync, outbound: outbound, logger: logger).run(inbound)
                        }
                    }
                })
            }
            let serverBuilder: HTTPServerBuilder
            if let tls = configuration.tls {
                do {
                    let chain = try NIOSSLCertificate.fromPEMFile(tls.certificateChain.path).map { NIOSSLCertificateSource.certificate($0) }
                    let key = try NIOSSLPrivateKey(file: tls.privateKey.path, format: .pem)
                    serverBuilder = try .tls(http, tlsConfiguration: .makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key)))
                } catch {
                    throw Error.configuration("the TLS certificate or key cannot be read: \(error)")
                }
            } else {
                serverBuilder = http
            }
            let startup = startup
            application = try HTTPService(
                router: router,
                server: serverBuilder,
                address: .hostname(configuration.host, port: configuration.port), serverName: "realm-sync-server",
                onServerRunning: { channel in startup.listening(on: channel.localAddress?.port ?? 0) },
                logger: logger)
        } catch {
            await database.shutdown()
            throw error
        }
        self.database = database
    }

    /// The store `configuration` names: its own, a PostgreSQL database, or
    /// the embedded one in its data folder; with what of it the server
    /// owns, and so closes when it stops (the two last).
    private static func openStore(_ configuration: Configuration, logger: Logger) async throws -> (any UserStore, OwnedDatabase) {
        if let store = configuration.userStore { return (store, OwnedDatabase()) }
        if let url = configuration.databaseURL {
            let store = try await PostgresUserStore(url: url, logger: logger)
            logger.info("keeping users in \(PostgresURL.redacted(url))")
            return (store, OwnedDatabase(store: store))
        }
        let embedded = try EmbeddedUserStore(directory: configuration.dataDirectory)
        return (embedded, OwnedDatabase(embedded: embedded))
    }

    /// The port the server listens on, once started.
    public var port: Int? {
        let port = startup.port
        return port == 0 ? nil : port
    }

    /// The server's URL (`http://` or `https://`), once started.
    public var url: URL? {
        guard let port else { return nil }
        let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        return URL(string: "\(configuration.tls == nil ? "http" : "https")://\(host):\(port)")
    }

    /// Starts listening and returns once the port is bound.
    ///
    /// - Throws: ``Error/addressInUse(host:port:)`` when another socket has
    ///   the address; ``Error/startFailed(_:)`` when it cannot be bound
    ///   otherwise. Either way the server has let go of what it opened.
    public func start() async throws {
        try await start(gracefulShutdownSignals: [])
    }

    private func start(gracefulShutdownSignals: [UnixSignal]) async throws {
        var groupConfiguration = ServiceGroupConfiguration(services: [application], gracefulShutdownSignals: gracefulShutdownSignals,
                                                           logger: logger)
        // Requests in flight get this long to finish; then they are cut.
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(30)
        let group = ServiceGroup(configuration: groupConfiguration)
        let startup = startup
        try state.withLock { state in
            guard case .idle = state else { throw Error.startFailed("a server starts once") }
            let task = Task.preferringCurrentExecutor {
                do {
                    try await group.run()
                    startup.ended(.success(()))
                } catch {
                    startup.ended(.failure(error))
                    throw error
                }
            }
            state = .running(group, task)
        }
        do {
            _ = try await startup.waitForPort()
        } catch {
            // What the server opened (its data folder's lock, its store)
            // is let go, so that the caller may start another on the folder.
            await stop()
            if case .failure(let ending) = startup.ending, let io = ending as? IOError, io.errnoCode == EADDRINUSE {
                throw Error.addressInUse(host: configuration.host, port: configuration.port)
            }
            throw error
        }
        logger.info("listening on \(url?.absoluteString ?? "?")")
    }

    /// Stops accepting connections, lets requests in flight finish, then
    /// returns.
    public func stop() async {
        let running: (ServiceGroup, Task<Void, any Swift.Error>)? = state.withLock { state in
            guard case .running(let group, let task) = state else { return nil }
            state = .stopped
            return (group, task)
        }
        guard let (group, task) = running else { return }
        await group.triggerGracefulShutdown()
        _ = await task.result
        await database.shutdown()
        dataLock.release()
        logger.info("stopped")
    }

    /// Runs until SIGINT or SIGTERM, then stops gracefully: requests in
    /// flight finish first.
    ///
    /// - Parameter onListening: called with the server's URL once it
    ///   listens.
    public func run(onListening: @Sendable (URL) -> Void = { _ in }) async throws {
        try await start(gracefulShutdownSignals: [.sigterm, .sigint])
        if let url { onListening(url) }
        let task: Task<Void, any Swift.Error>? = state.withLock { state in
            guard case .running(_, let task) = state else { return nil }
            return task
        }
        defer { dataLock.release() }
        let outcome = await task?.result
        await database.shutdown()
        try outcome?.get()
        logger.info("stopped")
    }

    /// Refuses settings the server could not honour.
    private static func validate(_ configuration: Configuration) throws {
        guard PasswordHasher.costs.contains(configuration.passwordHashCost) else {
            throw Error.configuration("the password hash cost is \(configuration.passwordHashCost); bcrypt takes \(PasswordHasher.costs)")
        }
        if let admin = configuration.initialAdmin {
            guard !admin.username.isEmpty, admin.username.utf8.count <= AuthService.maximumNameLength else {
                throw Error.configuration("the administrator's username is empty or over \(AuthService.maximumNameLength) bytes")
            }
            do {
                try PasswordHasher.requireAcceptable(admin.password)
            } catch {
                throw Error.configuration("the administrator's password: \(error.detail ?? error.title)")
            }
        }
        guard configuration.accessTokenLifetime > 0, configuration.refreshTokenLifetime > 0 else {
            throw Error.configuration("token lifetimes must be positive")
        }
        guard configuration.failedLoginLimit > 0, configuration.maxRequestBodySize > 0 else {
            throw Error.configuration("the failed-login limit and the body size limit must be positive")
        }
    }
}
