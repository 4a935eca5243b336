import Foundation
import RealmObjects
import RealmSyncWire

/// An object of a user's permission Realm (`/~/__permission`), which only
/// the server writes (``PermissionRealm``): the model this client reads it
/// with, its schema the same as the server declares, so that opening the
/// Realm records nothing.
final class PermissionObject: Object {
    @Persisted(primaryKey: true) var id = ""
    @Persisted var path = ""
    @Persisted var userId = ""
    @Persisted var mayRead = false
    @Persisted var mayWrite = false
    @Persisted var mayManage = false
    @Persisted var updatedAt = Date()

    override class func className() -> String { PermissionRealm.className }

    /// The permission this object lists.
    var permission: SyncPermission {
        let level: SyncAccessLevel = mayManage ? .admin : mayWrite ? .write : mayRead ? .read : .none
        return SyncPermission(path: path, identity: userId, key: nil, value: nil, accessLevel: level, updatedAt: updatedAt)
    }
}
