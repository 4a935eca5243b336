import Foundation
import RealmObjects

/// The permissions that concern a user, live: Realm's
/// `SyncPermissionResults`, from ``SyncUser/retrievePermissions(callbackQueue:callback:)``.
///
/// It lists the permissions granted to the user or to every user, and
/// those granted on the user's own Realms, and updates as they change on
/// the server: observe it to hear of changes, with the fine-grained
/// indices of any Realm collection. The server writes the list into the
/// user's permission Realm (`/~/__permission`); this reads it there.
///
/// Like a `Results`, it belongs to the queue it was delivered on.
public final class SyncPermissionResults: RandomAccessCollection, CustomStringConvertible {
    private let results: Results<PermissionObject>

    init(_ results: Results<PermissionObject>) {
        self.results = results
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { results.count }

    /// The permission at `position`.
    public subscript(position: Int) -> SyncPermission { results[position].permission }

    /// The index of a permission equal to `permission`, if it is listed.
    public func index(of permission: SyncPermission) -> Int? {
        firstIndex(of: permission)
    }

    /// The same permissions, sorted by `property`.
    public func sorted(by property: SyncPermissionSortProperty, ascending: Bool = true) -> SyncPermissionResults {
        SyncPermissionResults(results.sorted(byKeyPath: property.rawValue, ascending: ascending))
    }

    /// Calls `block` with the permissions now, then after each change on the
    /// server, on the queue the results belong to, until the token is
    /// invalidated.
    public func observe(_ block: @escaping (RealmCollectionChange<SyncPermissionResults>) -> Void) -> NotificationToken {
        results.observe { [self] change in
            switch change {
            case .initial: block(.initial(self))
            case .update(_, let deletions, let insertions, let modifications):
                block(.update(self, deletions: deletions, insertions: insertions, modifications: modifications))
            case .error(let error): block(.error(error))
            }
        }
    }

    public var description: String {
        "SyncPermissionResults <\n" + map { "\t\($0)" }.joined(separator: ",\n") + "\n>"
    }
}
