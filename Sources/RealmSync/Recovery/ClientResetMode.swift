import Foundation
import RealmObjects

/// What a synced Realm does when the server tells it to reset (its history
/// no longer reaches the client: the server was restored from a backup):
/// Realm 10's `ClientResetMode`, beyond seed 001's manual procedure.
///
/// Every mode keeps a backup of the file as it was, under
/// `io.realm.object-server-recovered-realms` in the sync root folder:
/// nothing written locally is lost, whatever the mode.
///
/// The automatic modes reset the file in place, in one write, while its
/// Realms stay open: they see every object go and come back as a change
/// notification, and an object held across the reset is invalidated (look
/// it up again by its primary key).
public enum ClientResetMode: Sendable {
    /// Seed 001's procedure (the default): the error reaches `errorHandler`
    /// (or, when nil, ``SyncManager/errorHandler``) with its backup path
    /// and action token (``SyncError/clientResetInfo()``); the file is
    /// backed up and deleted at ``SyncSession/immediatelyHandleError(_:)``
    /// or at the next launch, and the next open downloads a fresh copy.
    case manual(errorHandler: (@Sendable (SyncError, SyncSession?) -> Void)? = nil)
    /// The file becomes the server's fresh copy; its unsynced changes are
    /// only in the backup. `beforeReset` gets a read-only Realm of the file
    /// as it was; `afterReset` that Realm and the Realm as it is now.
    case discardUnsyncedChanges(beforeReset: (@Sendable (Realm) -> Void)? = nil,
                                afterReset: (@Sendable (_ before: Realm, _ after: Realm) -> Void)? = nil)
    /// The file becomes the server's fresh copy with its unsynced changes
    /// replayed on it by the ordinary conflict rules (list moves and
    /// removals by element, never a copy of the list), then uploaded. When
    /// they cannot be replayed (a schema the server no longer takes), or
    /// the reset cannot be done, it falls back to ``manual(errorHandler:)``;
    /// a fresh copy the network keeps from arriving is tried again after
    /// the usual wait.
    case recoverUnsyncedChanges(beforeReset: (@Sendable (Realm) -> Void)? = nil,
                                afterReset: (@Sendable (_ before: Realm, _ after: Realm) -> Void)? = nil)
    /// As ``recoverUnsyncedChanges(beforeReset:afterReset:)``, falling back
    /// to ``discardUnsyncedChanges(beforeReset:afterReset:)`` when the
    /// changes cannot be replayed.
    case recoverOrDiscardUnsyncedChanges(beforeReset: (@Sendable (Realm) -> Void)? = nil,
                                         afterReset: (@Sendable (_ before: Realm, _ after: Realm) -> Void)? = nil)

    /// Realm 10.3's name for ``discardUnsyncedChanges(beforeReset:afterReset:)``.
    @available(*, deprecated, renamed: "discardUnsyncedChanges")
    public static func discardLocal(beforeReset: (@Sendable (Realm) -> Void)? = nil,
                                    afterReset: (@Sendable (_ before: Realm, _ after: Realm) -> Void)? = nil) -> ClientResetMode {
        .discardUnsyncedChanges(beforeReset: beforeReset, afterReset: afterReset)
    }

    /// The callbacks of an automatic mode; nil for manual.
    var callbacks: (before: (@Sendable (Realm) -> Void)?, after: (@Sendable (Realm, Realm) -> Void)?)? {
        switch self {
        case .manual: nil
        case .discardUnsyncedChanges(let before, let after), .recoverUnsyncedChanges(let before, let after),
             .recoverOrDiscardUnsyncedChanges(let before, let after): (before, after)
        }
    }
}
