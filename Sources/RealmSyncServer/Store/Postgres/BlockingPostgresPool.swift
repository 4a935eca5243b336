import Dispatch
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// Connections to PostgreSQL for work that runs on a dispatch queue and
/// waits for each statement: a synced Realm's integration holds a SQLite
/// write of its copy open across its PostgreSQL transaction, on the
/// Realm's queue, and cannot suspend there (``PostgresRealmLog``).
///
/// At most `size` connections are in use at once; a caller beyond that
/// waits for one to be returned. A connection that failed is closed and
/// replaced by a new one at the next use, so that a restarted database is
/// reconnected to.
///
/// Never used from an event loop: waiting for a future there deadlocks,
/// and NIO stops the process.
final class BlockingPostgresPool: Sendable {
    private let configuration: PostgresConnection.Configuration
    private let idle = Mutex<(connections: [PostgresConnection], isShutDown: Bool)>(([], false))
    private let slots: DispatchSemaphore
    private let nextID = Atomic<Int>(1)
    private let logger: Logger

    init(configuration: PostgresConnection.Configuration, size: Int, logger: Logger) {
        self.configuration = configuration
        slots = DispatchSemaphore(value: size)
        self.logger = logger
    }

    /// Runs `body` with a connection of the pool's, waiting for one when
    /// all are in use.
    func withConnection<T>(_ body: (BlockingPostgresConnection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let reused = try idle.withLock { idle throws(PostgresPoolError) -> PostgresConnection? in
            guard !idle.isShutDown else { throw PostgresPoolError.shutDown }
            return idle.connections.popLast()
        }
        let connection: PostgresConnection
        if let reused, !reused.isClosed {
            connection = reused
        } else {
            connection = try PostgresConnection.connect(on: PostgresConnection.defaultEventLoopGroup.any(), configuration: configuration,
                                                        id: nextID.add(1, ordering: .relaxed).oldValue, logger: logger).wait()
        }
        let blocking = BlockingPostgresConnection(connection: connection, logger: logger)
        do {
            let result = try body(blocking)
            giveBack(connection)
            return result
        } catch {
            // A connection in an unknown state (a transaction left open by
            // a failed rollback, a broken socket) is not reused.
            if blocking.isInTransaction || connection.isClosed {
                close(connection)
            } else {
                giveBack(connection)
            }
            throw error
        }
    }

    private func giveBack(_ connection: PostgresConnection) {
        let kept = idle.withLock { idle -> Bool in
            guard !idle.isShutDown else { return false }
            idle.connections.append(connection)
            return true
        }
        if !kept { close(connection) }
    }

    /// Closes the idle connections; those in use close when returned.
    func shutdown() {
        let connections = idle.withLock { idle -> [PostgresConnection] in
            idle.isShutDown = true
            defer { idle.connections = [] }
            return idle.connections
        }
        for connection in connections { close(connection) }
    }
}

/// Closes `connection`, keeping it until it is closed: PostgresNIO
/// requires a connection to be closed before it goes.
private func close(_ connection: PostgresConnection) {
    let closing: EventLoopFuture<Void> = connection.close()
    closing.whenComplete { _ in withExtendedLifetime(connection) {} }
}

/// The pool has been shut down.
enum PostgresPoolError: Error, CustomStringConvertible {
    case shutDown

    var description: String { "the server's PostgreSQL connections are closed" }
}

/// A connection of ``BlockingPostgresPool``, lent for one call: each
/// statement waits for its result.
final class BlockingPostgresConnection {
    private let connection: PostgresConnection
    private let logger: Logger
    /// Between ``begin()`` and ``commit()`` or ``rollback()``.
    private(set) var isInTransaction = false

    fileprivate init(connection: PostgresConnection, logger: Logger) {
        self.connection = connection
        self.logger = logger
    }

    /// Runs `query` and returns its rows.
    @discardableResult
    func query(_ query: PostgresQuery) throws -> PostgresQueryResult {
        try connection.query(query, logger: logger).wait()
    }

    func begin() throws {
        try query("BEGIN")
        isInTransaction = true
    }

    func commit() throws {
        try query("COMMIT")
        isInTransaction = false
    }

    func rollback() throws {
        try query("ROLLBACK")
        isInTransaction = false
    }

    /// Runs `body` in a transaction, committed when `body` returns (unless
    /// it committed or rolled back itself) and rolled back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try begin()
        do {
            let result = try body()
            if isInTransaction { try commit() }
            return result
        } catch {
            if isInTransaction { try? rollback() }
            throw error
        }
    }
}
