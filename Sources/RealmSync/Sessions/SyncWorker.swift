import Logging
import NIOCore
import NIOPosix

/// The sync client's thread, as Realm's sync client has one: every
/// session's state and file work, and its WebSocket connection, run on
/// this event loop, so that a message from the server reaches its session
/// without changing threads.
///
/// A loop of its own rather than one of NIO's shared singleton group:
/// applying a large download keeps it busy for a while, which must not
/// stall other clients of that group (HTTP requests among them).
enum SyncWorker {
    static let eventLoop: any EventLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()
}

/// What a session takes from its ``SyncManager``, passed in rather than
/// reached for.
struct SessionEnvironment: Sendable {
    /// The client's logger, fixed when the first synced Realm opens.
    var logger: Logger
    /// The timeouts a new connection uses (read at each connection).
    var timeouts: @Sendable () -> SyncTimeoutOptions
    /// Reports an error to the manager's error handler.
    var report: @Sendable (any Error, SyncSession?) -> Void
    /// Records that a synced file must be backed up and deleted, and
    /// returns the token that does it now.
    var scheduleFileAction: @Sendable (_ path: String) throws -> SyncError.ActionToken

    /// The environment of `manager`, fixing its log level (the first synced
    /// Realm is opening).
    static func of(_ manager: SyncManager) -> SessionEnvironment {
        manager.fixLogLevel()
        return SessionEnvironment(logger: manager.logger, timeouts: { manager.timeoutOptions },
                                  report: { error, session in manager.report(error, session: session) },
                                  scheduleFileAction: { path in try manager.users().scheduleFileAction(for: path) })
    }
}
