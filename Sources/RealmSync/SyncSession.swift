import Foundation

/// The connection of one synced Realm to the server (seed 001,
/// "Sessions"); ``SyncManager/errorHandler`` names the session an error
/// concerns, or nil for errors of the subsystem or of a user.
///
/// Sessions are made by opening synced Realms, which come with the next
/// part of sync; until then every error is reported with a nil session.
public final class SyncSession: Sendable {
    private init() {}
}
