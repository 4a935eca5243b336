import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire
import Synchronization

/// The connection of one synced Realm to the server (seed 001, "Sync
/// sessions"): one per user and Realm URL, made when the Realm is first
/// opened, found with ``SyncUser/session(for:)`` and
/// ``SyncUser/allSessions()``.
///
/// A session uploads every change written to its Realm, in order, and
/// keeps each until the server has made it durable; it applies other
/// devices' changes as ordinary commits, so that the Realm's notifications
/// fire for them. It reconnects by itself after a dropped connection or a
/// server restart (waiting longer after each failure, up to 30 seconds),
/// and refreshes the user's access token when the server asks.
///
/// ```swift
/// let session = user.session(for: url)!
/// session.waitForUploadCompletion { error in … }      // all local changes on the server
/// let token = session.addProgressNotification(for: .download, mode: .reportIndefinitely) { progress in
///     print(progress.fractionTransferred)
/// }
/// ```
///
/// Errors go to ``SyncManager/errorHandler`` with the session.
public final class SyncSession: Sendable, CustomStringConvertible {
    /// Where a session stands.
    public enum State: Sendable {
        /// Connected (or connecting) and in step with the server.
        case active
        /// Not connected: suspended, offline, or waiting to reconnect.
        case inactive
        /// Its user logged out: it goes on uploading the changes made
        /// before, then becomes invalid (seed 001, "Logging out").
        case dying
        /// Ended for good: the user logged out, or the server refused the
        /// session in a way trying again cannot fix.
        case invalid
    }

    /// The Realm's URL.
    public let realmURL: URL
    let syncConfiguration: SyncConfiguration
    let engine: SessionEngine

    init(configuration: SyncConfiguration, coordinator: Coordinator) throws {
        realmURL = configuration.realmURL
        syncConfiguration = configuration
        engine = try SessionEngine(configuration: configuration, coordinator: coordinator, environment: .of(SyncManager.shared))
        engine.owner = self
    }

    /// Whether the session is connected, waiting, or over.
    public var state: State { engine.state }

    /// The configuration to open another instance of the Realm with (on
    /// another thread, say); nil once the session is invalid.
    public var configuration: SyncConfiguration? {
        engine.state == .invalid ? nil : syncConfiguration
    }

    /// The user the session belongs to.
    public var parentUser: SyncUser? { syncConfiguration.user }

    public var description: String { "SyncSession(\(realmURL.absoluteString), \(state))" }

    /// What the session is doing, in detail (for tests and logs).
    package var diagnostics: String { engine.diagnostics }

    /// Stops syncing until ``resume()``: closes the connection; changes
    /// made meanwhile are kept and uploaded after.
    public func suspend() {
        engine.suspend()
    }

    /// Starts syncing again after ``suspend()``, at once.
    public func resume() {
        engine.resume()
    }

    // MARK: Waiting

    /// Calls `callback` on `queue` once every change written to the Realm
    /// before this call is on the server (nil), or with the error that
    /// ended the session. Returns false (and never calls back) for an
    /// invalid session.
    @discardableResult
    public func waitForUploadCompletion(queue: DispatchQueue = .main, callback: @escaping @Sendable ((any Error)?) -> Void) -> Bool {
        engine.waitForUpload { error in queue.async { callback(error) } }
    }

    /// Calls `callback` on `queue` once the Realm holds every change the
    /// server had when this was called (nil), or with the error that ended
    /// the session. Returns false (and never calls back) for an invalid
    /// session.
    @discardableResult
    public func waitForDownloadCompletion(queue: DispatchQueue = .main, callback: @escaping @Sendable ((any Error)?) -> Void) -> Bool {
        engine.waitForDownload { error in queue.async { callback(error) } }
    }

    /// Returns once every change written to the Realm before this call is on
    /// the server.
    ///
    /// - Throws: the error that ended the session, or `CancellationError`
    ///   when the calling task is cancelled first (the session goes on
    ///   uploading).
    public func waitForUpload() async throws {
        try await CancellableWait.run { end in
            if !engine.waitForUpload(end) { end(invalidSessionError) }
        }
    }

    /// Returns once the Realm holds every change the server had when this
    /// was called.
    ///
    /// - Throws: the error that ended the session, or `CancellationError`
    ///   when the calling task is cancelled first (the session goes on
    ///   downloading).
    public func waitForDownload() async throws {
        try await CancellableWait.run { end in
            if !engine.waitForDownload(end) { end(invalidSessionError) }
        }
    }

    // MARK: Errors

    /// Backs up and deletes, now, the local copy of a Realm the server can
    /// no longer sync with (a client reset, a permission denied), as
    /// `token` (``SyncError/clientResetInfo()``,
    /// ``SyncError/deleteRealmUserInfo()``) says; otherwise it happens at
    /// the next launch. Opening the Realm afterwards downloads a fresh
    /// copy.
    ///
    /// Close every instance of the Realm first (let every `Realm` and
    /// managed object of it go): while the file is open, nothing happens,
    /// and this returns false.
    @discardableResult
    public static func immediatelyHandleError(_ token: SyncError.ActionToken) -> Bool {
        guard let users = SyncManager.shared.usersReportingFailure else { return false }
        return users.performFileAction(token)
    }

    private var invalidSessionError: SyncError {
        SyncError(.clientSessionError, "The session of \(realmURL.absoluteString) is invalid.")
    }
}
