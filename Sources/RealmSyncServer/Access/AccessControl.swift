import Foundation
import RealmSyncWire
import Synchronization

/// Decides what each user may do with each synced Realm (Docs/Sync.md,
/// "Access control"), and tells open sessions when that may have changed.
///
/// A user's level for a Realm is the highest of:
/// - ``AccessLevel/admin`` for the Realm's owner (its path starts with
///   their identity) and for the server's administrators;
/// - the permissions granted to them or to every user (`*`) on the Realm's
///   path, on every Realm of its owner (`/<owner>/*`), or on every Realm
///   (`*`): grants add up, as seed 001 says of offers;
/// - ``AccessLevel/write`` for a Realm outside every user's folder
///   (`/shared/board`) on which no permission, granted or revoked, names
///   its path or its first component: such a Realm is open to every user
///   until an administrator sets its access, and stays restricted after.
///
/// A server-managed Realm (``RealmPath/isServerManaged``, the permission
/// Realm) is read-only for its owner and administrators and closed to
/// everyone else, whatever the permissions say.
final class AccessControl: Sendable {
    let store: any UserStore
    private let watchers = Mutex<[UInt64: AsyncStream<String>.Continuation]>([:])
    private let nextWatcher = Atomic<UInt64>(1)

    init(store: any UserStore) {
        self.store = store
    }

    /// The user `identity`'s level for the Realm at `path`.
    func level(of identity: String, isAdmin: Bool, at path: RealmPath) async throws(SessionError) -> AccessLevel {
        if path.isServerManaged { return identity == path.firstComponent || isAdmin ? .read : .none }
        if isAdmin || identity == path.firstComponent { return .admin }
        let owned = "/\(path.firstComponent)/*"
        let rows: [PermissionRecord]
        let ownerIsUser: Bool
        do {
            rows = try await store.permissions(realmPaths: [path.description, owned, "*"])
            ownerIsUser = try await store.user(identity: path.firstComponent) != nil
        } catch {
            throw SessionError(.otherSessionError, "The user store failed.", tryAgain: true)
        }
        let granted = rows.filter { $0.userIdentity == identity || $0.userIdentity == "*" }.map(\.accessLevel).max() ?? .none
        let isOpenToAll = !ownerIsUser && !rows.contains { $0.realmPath == path.description || $0.realmPath == owned }
        return isOpenToAll ? max(granted, .write) : granted
    }

    // MARK: Changes

    /// The permission changes made, numbered, with the Realm path (or
    /// pattern) each changed: the newest ``recentChangeLimit`` of them.
    private let changes = Mutex<(generation: UInt64, recent: [(generation: UInt64, realmPath: String)])>((0, []))
    static let recentChangeLimit = 1_024

    /// A count of the permission changes made: a level decided at one
    /// count may be stale at a later one.
    var generation: UInt64 { changes.withLock { $0.generation } }

    /// Records that the permissions of `realmPath` (a path, `/<owner>/*` or
    /// `*`) changed, once the store has them, and tells every watcher.
    func permissionsChanged(realmPath: String) {
        changes.withLock { changes in
            changes.generation += 1
            changes.recent.append((changes.generation, realmPath))
            if changes.recent.count > Self.recentChangeLimit { changes.recent.removeFirst(changes.recent.count / 2) }
        }
        for continuation in watchers.withLock({ Array($0.values) }) { continuation.yield(realmPath) }
    }

    /// Whether a change made after `generation` may have changed a level
    /// for the Realm at `path` (true when the changes are too old to tell).
    func mayHaveChanged(_ path: RealmPath, since generation: UInt64) -> Bool {
        changes.withLock { changes in
            guard changes.generation > generation else { return false }
            guard let oldest = changes.recent.first?.generation, oldest <= generation + 1 else { return true }
            return changes.recent.contains { $0.generation > generation && Self.pattern($0.realmPath, covers: path) }
        }
    }

    /// Whether permissions on `pattern` (a path, `/<owner>/*` or `*`) count
    /// for the Realm at `path`.
    static func pattern(_ pattern: String, covers path: RealmPath) -> Bool {
        pattern == "*" || pattern == path.description || pattern == "/\(path.firstComponent)/*"
    }

    /// A stream of the Realm paths (or patterns) whose permissions change.
    func watch() -> (id: UInt64, changes: AsyncStream<String>) {
        let id = nextWatcher.add(1, ordering: .relaxed).oldValue
        let (stream, continuation) = AsyncStream<String>.makeStream()
        watchers.withLock { $0[id] = continuation }
        return (id, stream)
    }

    func unwatch(_ id: UInt64) {
        watchers.withLock { $0.removeValue(forKey: id) }?.finish()
    }
}
