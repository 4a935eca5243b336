import Foundation
import Logging
import RealmCore
import RealmSyncWire

/// The synced Realms of a server: opens each Realm's file once, decides
/// with ``AccessControl`` who may bind which path, and keeps each user's
/// permission Realm listing their permissions.
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
    let access: AccessControl
    let logger: Logger
    let compaction: Compaction
    /// The history shared with other processes on PostgreSQL, if any.
    let log: PostgresRealmLog?
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

    init(dataDirectory: URL, auth: AuthService, compaction: Compaction, log: PostgresRealmLog? = nil, logger: Logger) {
        root = dataDirectory.appendingPathComponent("realms", isDirectory: true)
        self.log = log
        self.auth = auth
        access = AccessControl(store: auth.store)
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

    /// The Realm at `rawPath` for the user `identity`, opened, and the
    /// user's level for it. A permission Realm is brought up to date first.
    ///
    /// - Throws: ``SessionError`` `illegalRealmPath` for a path that is not
    ///   valid, `permissionDenied` for a Realm the user may not read.
    func realm(at rawPath: String, for identity: String, isAdmin: Bool) async throws(SessionError) -> (realm: ServerRealm, level: AccessLevel) {
        guard let path = RealmPath(rawPath, userIdentity: identity) else {
            throw SessionError(.illegalRealmPath, "'\(rawPath.prefix(300))' is not a valid Realm path: 1 to \(RealmPath.maximumComponents) components of letters, digits, '_', '-' and '.', none starting with '.' or holding '.realm'.")
        }
        let level = try await access.level(of: identity, isAdmin: isAdmin, at: path)
        guard level >= .read else {
            throw SessionError(.permissionDenied, "The user \(identity) may not open the Realm '\(path)'.")
        }
        if path.isServerManaged, path == RealmPath.permissionRealm(of: path.firstComponent) {
            try await publishPermissions(of: path.firstComponent)
        }
        return (try await realm(at: path), level)
    }

    // MARK: Permission Realms

    /// Makes the permission Realm of `identity` list the permissions that
    /// concern them now.
    ///
    /// Two calls may overlap, each writing what it read from the store: one
    /// that finds permissions changed since it read them reads and writes
    /// again (a few times at most: the call made for the newest change
    /// writes it anyway), so that the last write is of the newest
    /// permissions.
    func publishPermissions(of identity: String) async throws(SessionError) {
        let realm = try await realm(at: RealmPath.permissionRealm(of: identity))
        for _ in 0..<Self.publishAttempts {
            let generation = access.generation
            let permissions: [PermissionRecord]
            do {
                permissions = try await access.store.permissions(concerningUser: identity).filter { $0.accessLevel > .none }
            } catch {
                throw SessionError(.otherSessionError, "The user store failed.", tryAgain: true)
            }
            try await realm.writeAsServer { transaction throws(RealmError) in
                try PermissionRealmContent.instructions(listing: permissions, in: transaction)
            }
            if access.generation == generation { return }
        }
    }

    private static let publishAttempts = 8

    /// Brings the open permission Realms of `identities` (of everyone, when
    /// nil) up to date after permissions changed; one closed is brought up
    /// to date when next bound.
    func publishOpenPermissionRealms(of identities: Set<String>?) async {
        let open: [String] = await withCheckedContinuation { continuation in
            opener.async {
                continuation.resume(returning: self.realms.byPath.compactMap { path, open in
                    open.realm != nil && path == RealmPath.permissionRealm(of: path.firstComponent) ? path.firstComponent : nil
                })
            }
        }
        let identities = open.filter { identities?.contains($0) ?? true }
        for identity in identities {
            do {
                try await publishPermissions(of: identity)
            } catch {
                logger.error("the permission Realm of \(identity) could not be updated: \(error)")
            }
        }
    }

    // MARK: Permission changes

    /// The permission of `user` (or `*`) for `realmPath` (a path or a
    /// pattern) changed: the sessions of the Realms it covers decide their
    /// levels again, and the open permission Realms that list it (the
    /// user's, or everyone's, and the owner's) are brought up to date, in
    /// this process and, on PostgreSQL, in every other.
    func permissionsChanged(realmPath: String, user: String) async {
        await applyPermissionChange(realmPath: realmPath, user: user)
        guard let log else { return }
        do {
            try await offloaded { try log.notifyPermissionsChanged(realmPath: realmPath, user: user) }
        } catch {
            logger.error("other server processes could not be told that permissions of \(realmPath) changed: \(error)")
        }
    }

    /// What a permission change means for this process.
    func applyPermissionChange(realmPath: String, user: String) async {
        access.permissionsChanged(realmPath: realmPath)
        var concerned: Set<String>? = nil
        if user != "*" {
            concerned = [user]
            let owner = realmPath.split(separator: "/").first.map(String.init)
            if realmPath != "*", let owner { concerned?.insert(owner) }
        }
        await publishOpenPermissionRealms(of: concerned)
    }

    // MARK: Other processes

    /// Another process committed version `version` of the Realm at `path`:
    /// this process's copy, if open, catches up and wakes its sessions.
    func realmChanged(path: String, version: UInt64) async {
        let path = RealmPath(components: path.split(separator: "/").map(String.init))
        let realm: ServerRealm? = await withCheckedContinuation { continuation in
            opener.async { continuation.resume(returning: self.realms.byPath[path]?.realm) }
        }
        realm?.catchUpSoon(to: version)
    }

    /// Listening to other processes again, after notifications may have
    /// been missed: every open Realm catches up, and every level is
    /// decided again.
    func otherProcessesMayHaveChanged() async {
        for realm in await openRealms() { realm.catchUpSoon(to: .max) }
        await applyPermissionChange(realmPath: "*", user: "*")
    }

    private func openRealms() async -> [ServerRealm] {
        await withCheckedContinuation { continuation in
            opener.async { continuation.resume(returning: self.realms.byPath.values.compactMap(\.realm)) }
        }
    }

    private func offloaded<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
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
            let realm = try ServerRealm(path: path, fileURL: path.fileURL(under: root), log: log)
            realms.byPath = realms.byPath.filter { $0.value.realm != nil }
            realms.byPath[path] = WeakRealm(realm: realm)
            return realm
        } catch {
            logger.error("the synced Realm \(path) cannot be opened: \(error)")
            throw SessionError(.otherSessionError, "The server cannot open the synced Realm '\(path)'.", tryAgain: true)
        }
    }
}
