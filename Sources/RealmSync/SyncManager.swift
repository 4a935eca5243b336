import Foundation
import Logging
import Synchronization

/// The sync subsystem's settings and registry of users: one per process,
/// ``shared``.
///
/// Set ``rootDirectory`` and ``metadataEncryptionKey`` before the first
/// call that needs the users (`SyncUser.logIn`, `current`, `all`): that
/// call opens the metadata Realm, restores the users still logged in and
/// deletes the synced files of users who logged out.
public final class SyncManager: Sendable {
    /// The process's sync manager.
    public static let shared = SyncManager()

    private struct Settings {
        var logLevel: SyncLogLevel = .info
        /// The logger made at the level set when the first synced Realm
        /// opened; nil before.
        var logger: Logger?
        var errorHandler: (@Sendable (any Error, SyncSession?) -> Void)?
        var rootDirectory: URL?
        var metadataEncryptionKey: Data?
        var timeoutOptions = SyncTimeoutOptions()
        var taskExecutor: (any TaskExecutor)?
    }

    private let settings = Mutex(Settings())
    private let registry = Mutex<UserRegistry?>(nil)

    private init() {}

    /// How much the client logs. Realm reads it when the first synced Realm
    /// opens; set it before. A level set later is kept here but changes
    /// nothing until the process starts again, as in Realm.
    public var logLevel: SyncLogLevel {
        get { settings.withLock { $0.logLevel } }
        set { settings.withLock { $0.logLevel = newValue } }
    }

    /// Called with errors of the subsystem, of users (a refresh token the
    /// server no longer accepts) and of sessions, on an arbitrary thread.
    public var errorHandler: (@Sendable (any Error, SyncSession?) -> Void)? {
        get { settings.withLock { $0.errorHandler } }
        set { settings.withLock { $0.errorHandler = newValue } }
    }

    /// The folder of the metadata Realm and of users' synced files: by
    /// default `realm-object-server` in the application support folder
    /// (on Linux `~/.local/share/<program name>/`).
    public var rootDirectory: URL {
        get { settings.withLock { $0.rootDirectory } ?? Self.defaultRootDirectory }
        set { settings.withLock { $0.rootDirectory = newValue } }
    }

    /// A 64-byte key that encrypts the metadata Realm (which holds the
    /// users' refresh tokens); nil leaves it plain, readable only by its
    /// owner (mode 0600).
    public var metadataEncryptionKey: Data? {
        get { settings.withLock { $0.metadataEncryptionKey } }
        set { settings.withLock { $0.metadataEncryptionKey = newValue } }
    }

    /// How long connections wait for the server; each new connection
    /// uses the options set when it starts.
    public var timeoutOptions: SyncTimeoutOptions {
        get { settings.withLock { $0.timeoutOptions } }
        set { settings.withLock { $0.timeoutOptions = newValue } }
    }

    /// The executor the client's sync work prefers: each session's loop of
    /// connecting, uploading and downloading runs there (its waits for the
    /// network cost no thread). Nil, the default: the executor the task
    /// that opened the Realm prefers, if any, or Swift's global pool.
    ///
    /// For a process whose global pool may be busy for long stretches (a
    /// test runner, a server with blocking work on it), sessions then keep
    /// answering their server in time. Sessions started later use it.
    public var taskExecutor: (any TaskExecutor)? {
        get { settings.withLock { $0.taskExecutor } }
        set { settings.withLock { $0.taskExecutor = newValue } }
    }

    /// The folder of a user's synced files.
    public func directory(forUser identity: String) -> URL {
        rootDirectory.appendingPathComponent(identity, isDirectory: true)
    }

    private static var defaultRootDirectory: URL {
        let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSTemporaryDirectory())
        let program = URL(fileURLWithPath: CommandLine.arguments.first ?? "realm").lastPathComponent
        return support.appendingPathComponent(program).appendingPathComponent("realm-object-server")
    }

    /// The registry of users, opened at first use.
    ///
    /// - Throws: ``SyncError/Code/clientInternalError`` naming the file when
    ///   the metadata Realm cannot be opened (a wrong key, a damaged file).
    ///   The file is left as it is, and the next call tries again: nobody
    ///   is logged out by a key given wrongly once.
    func users() throws(SyncError) -> UserRegistry {
        try registry.withLock { (registry: inout UserRegistry?) throws(SyncError) -> UserRegistry in
            if let registry { return registry }
            let root = rootDirectory
            do {
                let store = try UserMetadataStore(root: root, encryptionKey: metadataEncryptionKey)
                let opened = UserRegistry(store: store, manager: self)
                opened.restore()
                registry = opened
                return opened
            } catch {
                throw SyncError(.clientInternalError, "Cannot open the sync metadata Realm at '\(UserMetadataStore.fileURL(in: root).path)': \(error)")
            }
        }
    }

    /// The registry for an API that cannot throw (`SyncUser.current`,
    /// `all`): nil, with the error reported to ``errorHandler``, when the
    /// metadata Realm cannot be opened.
    var usersReportingFailure: UserRegistry? {
        do {
            return try users()
        } catch {
            report(error, session: nil)
            return nil
        }
    }

    /// The registry if it is open (it is, for any user that exists).
    var openedUsers: UserRegistry? {
        registry.withLock { $0 }
    }

    /// The client's logger: at the level ``logLevel`` had when the first
    /// synced Realm opened, or at the current one before that.
    var logger: Logger {
        settings.withLock { $0.logger } ?? Self.makeLogger(logLevel)
    }

    /// Fixes the logger's level: the first synced Realm is opening.
    func fixLogLevel() {
        settings.withLock { settings in
            if settings.logger == nil { settings.logger = Self.makeLogger(settings.logLevel) }
        }
    }

    private static func makeLogger(_ level: SyncLogLevel) -> Logger {
        guard let level = level.loggerLevel else {
            return Logger(label: "io.realm.sync", factory: { _ in SwiftLogNoOpLogHandler() })
        }
        var logger = Logger(label: "io.realm.sync")
        logger.logLevel = level
        return logger
    }

    /// Reports an error to ``errorHandler``, if set.
    func report(_ error: any Error, session: SyncSession?) {
        logger.error("\(error)")
        errorHandler?(error, session)
    }
}
