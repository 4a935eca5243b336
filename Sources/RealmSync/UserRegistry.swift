import Foundation
import Synchronization

/// The users of the process: those logged in, by identity and server, kept
/// in step with the metadata Realm.
final class UserRegistry: Sendable {
    let store: UserMetadataStore
    let manager: SyncManager
    private let users = Mutex<[String: SyncUser]>([:])

    init(store: UserMetadataStore, manager: SyncManager) {
        self.store = store
        self.manager = manager
    }

    /// At first use: backs up the synced files the server could no longer
    /// sync with, brings back the users still logged in, and deletes the
    /// synced files of those who logged out (seed 001, "Logging out").
    func restore() {
        performPendingFileActions()
        for snapshot in store.allUsers() {
            if snapshot.isLoggedOut {
                let directory = manager.directory(forUser: snapshot.identity)
                do {
                    if FileManager.default.fileExists(atPath: directory.path) {
                        try FileManager.default.removeItem(at: directory)
                    }
                    try store.remove(identity: snapshot.identity, server: snapshot.server)
                } catch {
                    manager.logger.error("could not delete the files of logged-out user \(snapshot.identity): \(error)")
                }
                continue
            }
            let user = SyncUser(snapshot: snapshot)
            users.withLock { $0[SyncUserMetadata.key(identity: snapshot.identity, server: snapshot.server)] = user }
            user.scheduleRefresh()
        }
    }

    /// Every logged-in user.
    var all: [SyncUser] {
        users.withLock { Array($0.values) }
    }

    /// Records a login: the user already registered for this identity and
    /// server gets the new tokens (so that every handle of a user is one
    /// object), or a new one is registered.
    func loggedIn(_ snapshot: UserSnapshot) async throws -> SyncUser {
        try await store.save(snapshot)
        let key = SyncUserMetadata.key(identity: snapshot.identity, server: snapshot.server)
        let (user, replacedToken) = users.withLock { users -> (SyncUser, String?) in
            if let existing = users[key] {
                return (existing, existing.update(from: snapshot))
            }
            let user = SyncUser(snapshot: snapshot)
            users[key] = user
            return (user, nil)
        }
        user.scheduleRefresh()
        if let replacedToken, replacedToken != snapshot.refreshToken {
            // The new login's refresh token replaces the old one, which the
            // server should no longer honour.
            user.revokeInBackground(replacedToken)
        }
        return user
    }

    /// Saves a user's new tokens.
    func tokensChanged(_ snapshot: UserSnapshot) async {
        do {
            try await store.save(snapshot)
        } catch {
            manager.logger.error("could not save the tokens of user \(snapshot.identity): \(error)")
        }
    }

    /// Records a logout: the user leaves the registry and is marked for the
    /// deletion of their files at the next launch.
    func loggedOut(_ user: SyncUser) {
        guard let identity = user.identity, let server = user.authenticationServer else { return }
        _ = users.withLock { $0.removeValue(forKey: SyncUserMetadata.key(identity: identity, server: server)) }
        do {
            try store.markLoggedOut(identity: identity, server: server)
        } catch {
            manager.logger.error("could not record the logout of user \(identity): \(error)")
        }
    }
}
