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
///   (`/shared/board`) on which no permission names its path or its first
///   component: such a Realm is open to every user until an
///   administrator restricts it.
///
/// A server-managed Realm (``RealmPath/isServerManaged``, the permission
/// Realm) is read-only for its owner and administrators and closed to
/// everyone else, whatever the permissions say.
final class AccessControl: Sendable {
    let store: any UserStore
    private let changes = Atomic<UInt64>(0)
    private let watchers = Mutex<[UInt64: AsyncStream<Void>.Continuation]>([:])
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

    /// A count of the permission changes made: a level decided at one
    /// count may be stale at a later one.
    var generation: UInt64 { changes.load(ordering: .acquiring) }

    /// Records that permissions changed (after the store has them), and
    /// wakes every watcher.
    func permissionsChanged() {
        changes.add(1, ordering: .releasing)
        for continuation in watchers.withLock({ Array($0.values) }) { continuation.yield() }
    }

    /// A stream that yields whenever permissions change.
    func watch() -> (id: UInt64, changes: AsyncStream<Void>) {
        let id = nextWatcher.add(1, ordering: .relaxed).oldValue
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        watchers.withLock { $0[id] = continuation }
        return (id, stream)
    }

    func unwatch(_ id: UInt64) {
        watchers.withLock { $0.removeValue(forKey: id) }?.finish()
    }
}
