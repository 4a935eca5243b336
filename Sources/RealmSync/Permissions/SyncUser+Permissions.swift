import Foundation
import RealmObjects
import RealmSyncWire

// Access control (seed 001, "Access Control"): a user's permissions, and
// the ways to share a Realm.

extension SyncUser {
    // MARK: Reading permissions

    /// Retrieves the permissions that concern this user, and calls
    /// `callback` on `callbackQueue` with them (live: they update as
    /// permissions change on the server) or with the error.
    ///
    /// The permissions are listed by the server in the user's permission
    /// Realm (`/~/__permission`), which this downloads the first time and
    /// keeps in step afterwards; the results belong to `callbackQueue`.
    public func retrievePermissions(callbackQueue: DispatchQueue = .main,
                                    callback: @escaping @Sendable (SyncPermissionResults?, SyncPermissionError?) -> Void) {
        let configuration: Realm.Configuration
        do {
            configuration = try permissionRealmConfiguration()
        } catch {
            callbackQueue.async { callback(nil, error) }
            return
        }
        Realm.asyncOpen(configuration: configuration, callbackQueue: callbackQueue) { result in
            do {
                _ = try result.get()
                // A Realm of the queue rather than of the thread the
                // callback happens to run on.
                let realm = try Realm(configuration: configuration, queue: callbackQueue)
                callback(SyncPermissionResults(realm.objects(PermissionObject.self).sorted(byKeyPath: "id")), nil)
            } catch let error as SyncAuthError {
                callback(nil, error)
            } catch {
                callback(nil, SyncAuthError(.clientSessionError, "The permissions of \(self.identity ?? "") could not be retrieved: \(error)"))
            }
        }
    }

    /// The configuration of the user's permission Realm.
    private func permissionRealmConfiguration() throws(SyncAuthError) -> Realm.Configuration {
        let url = try realmURL(path: "/~/" + PermissionRealm.name)
        return Realm.Configuration(syncConfiguration: SyncConfiguration(user: self, realmURL: url), objectTypes: [PermissionObject.self])
    }

    /// The Realm URL (`realm://` or `realms://`) of `path` on the user's
    /// server.
    func realmURL(path: String) throws(SyncAuthError) -> URL {
        guard let server = authenticationServer, var components = URLComponents(url: server, resolvingAgainstBaseURL: false) else {
            throw SyncAuthError(.invalidParameters, "The user has no server.")
        }
        components.scheme = components.scheme?.lowercased() == "https" ? "realms" : "realm"
        components.path = path
        guard let url = components.url else { throw SyncAuthError(.badRemoteRealmPath, "'\(path)' is not a Realm path.") }
        return url
    }

    // MARK: Granting and revoking

    /// Grants `permission` (or changes the access it names; a level of
    /// `.none` revokes), then calls `callback` on `callbackQueue` with nil
    /// or the error. Only a user who manages the Realm may: its owner, an
    /// administrator, or a user granted `.admin`.
    public func apply(_ permission: SyncPermission, callbackQueue: DispatchQueue = .main,
                      callback: @escaping @Sendable ((any Error)?) -> Void) {
        complete(on: callbackQueue, callback) { try await self.apply(permission) }
    }

    /// Grants `permission`, or changes the access it names.
    ///
    /// - Throws: ``SyncAuthError``: `accessDeniedOrInvalidPath` when this
    ///   user does not manage the Realm, `userDoesNotExist` for an unknown
    ///   user, `invalidParameters` for a path that is not valid.
    public func apply(_ permission: SyncPermission) async throws {
        try await send(permission, accessLevel: permission.accessLevel)
    }

    /// Takes away the access `permission` gives, whatever its level, then
    /// calls `callback` on `callbackQueue` with nil or the error. Access
    /// granted to every user (`*`) stays.
    public func revoke(_ permission: SyncPermission, callbackQueue: DispatchQueue = .main,
                       callback: @escaping @Sendable ((any Error)?) -> Void) {
        complete(on: callbackQueue, callback) { try await self.revoke(permission) }
    }

    /// Takes away the access `permission` gives, whatever its level.
    public func revoke(_ permission: SyncPermission) async throws {
        try await send(permission, accessLevel: .none)
    }

    /// The issue's spelling of ``revoke(_:callbackQueue:callback:)``; Swift
    /// imports Realm's `revokePermission:callback:` as `revoke`.
    @available(*, deprecated, renamed: "revoke(_:callbackQueue:callback:)")
    public func revokePermission(_ permission: SyncPermission, callbackQueue: DispatchQueue = .main,
                                 callback: @escaping @Sendable ((any Error)?) -> Void) {
        revoke(permission, callbackQueue: callbackQueue, callback: callback)
    }

    private func send(_ permission: SyncPermission, accessLevel: SyncAccessLevel) async throws {
        let token = try await accessToken()
        let request = ApplyPermissionRequest(realmPath: permission.path, userIdentity: permission.identity,
                                             username: permission.identity == nil ? permission.value : nil, accessLevel: accessLevel.wire)
        try await client().applyPermission(request, accessToken: token)
    }

    // MARK: Offers

    /// Makes an offer of `accessLevel` to the Realm at `url` (`~` is this
    /// user), valid until `expiration` (for ever when nil), and calls
    /// `callback` on `callbackQueue` with its token or the error. Whoever
    /// accepts the token gets the access; users who accepted keep it after
    /// the offer expires.
    public func createOfferForRealm(at url: URL, accessLevel: SyncAccessLevel, expiration: Date? = nil,
                                    callbackQueue: DispatchQueue = .main,
                                    callback: @escaping @Sendable (String?, SyncPermissionError?) -> Void) {
        Task {
            do {
                let token = try await createOfferForRealm(at: url, accessLevel: accessLevel, expiration: expiration)
                callbackQueue.async { callback(token, nil) }
            } catch {
                callbackQueue.async { callback(nil, Self.permissionError(error)) }
            }
        }
    }

    /// Makes an offer of `accessLevel` to the Realm at `url`, and returns
    /// its token.
    ///
    /// - Throws: ``SyncAuthError``: `accessDeniedOrInvalidPath` when this
    ///   user does not manage the Realm, `invalidParameters` for a level of
    ///   `.none` or an expiry in the past.
    public func createOfferForRealm(at url: URL, accessLevel: SyncAccessLevel, expiration: Date? = nil) async throws -> String {
        let token = try await accessToken()
        let path = url.path.isEmpty ? "/" : url.path
        return try await client().createOffer(CreateOfferRequest(realmPath: path, accessLevel: accessLevel.wire, expires: expiration),
                                              accessToken: token).token
    }

    /// Accepts the offer with `token`, and calls `callback` on
    /// `callbackQueue` with the URL of the Realm it gives access to, or the
    /// error. Accepting adds to the access the user has; accepting again
    /// changes nothing.
    public func acceptOffer(forToken token: String, callbackQueue: DispatchQueue = .main,
                            callback: @escaping @Sendable (URL?, (any Error)?) -> Void) {
        Task {
            do {
                let url = try await acceptOffer(forToken: token)
                callbackQueue.async { callback(url, nil) }
            } catch {
                callbackQueue.async { callback(nil, error) }
            }
        }
    }

    /// Accepts the offer with `token`, and returns the URL of its Realm.
    ///
    /// - Throws: ``SyncAuthError`` `expiredPermissionOffer` when the offer
    ///   expired, was withdrawn or never existed.
    public func acceptOffer(forToken token: String) async throws -> URL {
        let accessToken = try await accessToken()
        let answer = try await client().acceptOffer(token, accessToken: accessToken)
        return try realmURL(path: answer.realmPath)
    }

    /// Withdraws the offer with `token` (its maker, or a user who manages
    /// its Realm), then calls `callback` on `callbackQueue` with nil or the
    /// error. Users who accepted it keep their access.
    public func invalidateOffer(forToken token: String, callbackQueue: DispatchQueue = .main,
                                callback: @escaping @Sendable ((any Error)?) -> Void) {
        complete(on: callbackQueue, callback) { try await self.invalidateOffer(forToken: token) }
    }

    /// Withdraws the offer with `token`.
    public func invalidateOffer(forToken token: String) async throws {
        let accessToken = try await accessToken()
        try await client().invalidateOffer(token, accessToken: accessToken)
    }

    private static func permissionError(_ error: any Error) -> SyncPermissionError {
        error as? SyncAuthError ?? SyncAuthError(.clientSessionError, "\(error)")
    }
}
