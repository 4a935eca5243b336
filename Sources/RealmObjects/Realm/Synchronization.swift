import Foundation
import RealmCore

/// What makes a Realm synced, provided by the sync client (RealmSync sits
/// above this module, so it plugs in here rather than being called).
///
/// A configuration with a synchronizer has ``prepare()`` make its file's
/// place, opens the file as any other, then
/// hands the file's coordinator to ``attach(to:)`` before the Realm is
/// handed out; `asyncOpen` also waits for ``waitForDownload(_:completion:)``.
package protocol RealmSynchronizer: Sendable {
    /// Called before the file is opened: makes its folder.
    func prepare() throws
    /// Makes the open file synced: records its writes and keeps a session
    /// with the server.
    func attach(to coordinator: Coordinator) throws
    /// Calls `completion` once the file holds everything the server had
    /// when this was called (or with the error that prevents it).
    func waitForDownload(_ coordinator: Coordinator, completion: @escaping @Sendable ((any Error)?) -> Void)
}
