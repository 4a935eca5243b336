import Foundation
import Logging
import PostgresNIO

/// What other server processes on the database say they changed
/// (PostgreSQL's `LISTEN`/`NOTIFY`, on a connection of its own): new
/// versions of a Realm, and permissions.
///
/// A notification comes only once its transaction has committed, so what
/// it names is in the database when it arrives. One lost while the
/// connection was down is made up for by ``Handler/reconnected()``: the
/// process brings every open Realm up to date and decides every level
/// again.
final class PostgresChangeListener: Sendable {
    /// What a notification asks of this process.
    struct Handler: Sendable {
        /// The Realm at the path is at the version now.
        var realmChanged: @Sendable (_ path: String, _ version: UInt64) async -> Void
        /// The permissions of the Realm path (or pattern) changed, for the
        /// user (or `*`).
        var permissionsChanged: @Sendable (_ realmPath: String, _ user: String) async -> Void
        /// Listening again after the connection was lost (or at first):
        /// notifications may have been missed.
        var reconnected: @Sendable () async -> Void
    }

    private let task: Task<Void, Never>

    /// Starts listening, and keeps listening (reconnecting every second
    /// while the database cannot be reached) until ``shutdown()``.
    init(configuration: PostgresConnection.Configuration, handler: Handler, logger: Logger) {
        task = Task {
            var attempt = 0
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                    attempt = 0
                    defer { Task { try? await connection.close() } }
                    try await connection.listen(on: PostgresRealmLog.changeChannel) { notifications in
                        await handler.reconnected()
                        for try await notification in notifications {
                            await Self.deliver(notification.payload, to: handler)
                        }
                    }
                } catch {
                    if Task.isCancelled { return }
                    attempt += 1
                    if attempt == 1 { logger.error("listening to PostgreSQL failed, trying again every second: \(String(reflecting: error))") }
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private static func deliver(_ payload: String, to handler: Handler) async {
        // "<version> <path>" for a Realm; "p <realm path> <user>" for
        // permissions, on the same channel so that one `LISTEN` serves both.
        let fields = payload.split(separator: " ", maxSplits: 2).map(String.init)
        if fields.count == 3, fields[0] == "p" {
            await handler.permissionsChanged(fields[1], fields[2])
        } else if fields.count == 2, let version = UInt64(fields[0]) {
            await handler.realmChanged(fields[1], version)
        }
    }

    /// Stops listening.
    func shutdown() async {
        task.cancel()
        await task.value
    }
}
