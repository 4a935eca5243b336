import Foundation
import Logging
import RealmCore
import RealmSyncWire

/// The synced Realms of a server: opens each Realm's file once, and
/// decides who may bind which path.
///
/// A path whose first component is a user's identity (`/~/…` resolves to
/// one) is that user's: only they and administrators may open it. Other
/// paths are open to every logged-in user until permissions exist.
final class SyncService: Sendable {
    /// The path of the WebSocket the sync protocol runs on.
    static let route = "/sync"

    /// When a Realm's history is compacted (``SyncServer/Configuration``).
    struct Compaction: Sendable {
        /// Server versions accumulated before a compaction is tried.
        var interval: UInt64
        /// How long a client not seen holds back compaction.
        var retention: TimeInterval
    }

    let auth: AuthService
    let logger: Logger
    let compaction: Compaction
    private let root: URL
    /// The Realms open, owned by `opener`: held by their sessions (and
    /// work in flight), so that a Realm nobody is bound to closes its file,
    /// and is opened again by the next bind; never two at once for one path.
    private let realms = OpenRealms()
    /// Where Realms are looked up and opened: opening one is file work
    /// (SQLite, a write that syncs the disk), kept off the server's event
    /// loops and Swift's cooperative pool, whose threads a restart's burst
    /// of binds would otherwise all block.
    private let opener = DispatchQueue(label: "realm.sync.server.open")

    private final class OpenRealms: @unchecked Sendable {
        // Read and written only on `opener`.
        var byPath: [RealmPath: WeakRealm] = [:]
    }

    private struct WeakRealm {
        weak var realm: ServerRealm?
    }

    init(dataDirectory: URL, auth: AuthService, compaction: Compaction, logger: Logger) {
        root = dataDirectory.appendingPathComponent("realms", isDirectory: true)
        self.auth = auth
        self.compaction = compaction
        self.logger = logger
    }

    /// The user an access token names, and whether they are an
    /// administrator now (the store says, not the token's claim).
    func user(ofAccessToken token: String) async throws(SessionError) -> (identity: String, isAdmin: Bool) {
        let claims: AccessClaims
        do {
            claims = try await auth.tokens.verify(accessToken: token)
        } catch {
            throw SessionError(.badAuthentication, "The access token is malformed, forged or expired.", tryAgain: true)
        }
        let record: UserRecord?
        do {
            record = try await auth.store.user(identity: claims.userIdentity)
        } catch {
            throw SessionError(.otherSessionError, "The user store failed.", tryAgain: true)
        }
        guard let record else { throw SessionError(.badAuthentication, "The access token's user no longer exists.") }
        return (record.identity, record.isAdmin)
    }

    /// The Realm at `rawPath` for the user `identity`, opened.
    ///
    /// - Throws: ``SessionError`` `illegalRealmPath` for a path that is not
    ///   valid, `permissionDenied` for another user's Realm.
    func realm(at rawPath: String, for identity: String, isAdmin: Bool) async throws(SessionError) -> ServerRealm {
        guard let path = RealmPath(rawPath, userIdentity: identity) else {
            throw SessionError(.illegalRealmPath, "'\(rawPath.prefix(300))' is not a valid Realm path: 1 to \(RealmPath.maximumComponents) components of letters, digits, '_', '-' and '.', none starting with '.' or holding '.realm'.")
        }
        if path.firstComponent != identity, !isAdmin {
            let owner: UserRecord?
            do {
                owner = try await auth.store.user(identity: path.firstComponent)
            } catch {
                throw SessionError(.otherSessionError, "The user store failed.", tryAgain: true)
            }
            if owner != nil {
                throw SessionError(.permissionDenied, "The Realm '\(path)' belongs to another user.")
            }
        }
        return try await realm(at: path)
    }

    private func realm(at path: RealmPath) async throws(SessionError) -> ServerRealm {
        let result: Result<ServerRealm, SessionError> = await withCheckedContinuation { continuation in
            opener.async {
                continuation.resume(returning: Result { () throws(SessionError) in try self.openedRealm(at: path) })
            }
        }
        return try result.get()
    }

    /// On `opener`: the open Realm at `path`, opened now if it is not.
    private func openedRealm(at path: RealmPath) throws(SessionError) -> ServerRealm {
        if let open = realms.byPath[path]?.realm { return open }
        do {
            let realm = try ServerRealm(path: path, fileURL: path.fileURL(under: root))
            realms.byPath = realms.byPath.filter { $0.value.realm != nil }
            realms.byPath[path] = WeakRealm(realm: realm)
            return realm
        } catch {
            logger.error("the synced Realm \(path) cannot be opened: \(error)")
            throw SessionError(.otherSessionError, "The server cannot open the synced Realm '\(path)'.", tryAgain: true)
        }
    }
}
