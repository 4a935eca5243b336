import Foundation
import RealmCore
import RealmSyncWire
import Synchronization

/// A user of a sync server (seed 001, "Users"): logged in with
/// ``SyncCredentials``, kept logged in across launches until ``logOut()``.
///
/// ```swift
/// let server = URL(string: "http://127.0.0.1:9080")!
/// SyncUser.logIn(with: .usernamePassword(username: "ana", password: "secret", register: true),
///                server: server, callbackQueue: queue) { user, error in … }
/// ```
///
/// A user's access token is short-lived; the user refreshes it with its
/// refresh token before it expires, in the background.
public final class SyncUser: Sendable, CustomStringConvertible {
    /// Where a user stands.
    public enum State: Sendable {
        /// Logged in.
        case active
        /// Logged out with ``logOut()``.
        case loggedOut
        /// Logged out because the server no longer accepts the user's
        /// refresh token.
        case error
    }

    private struct Tokens {
        var refreshToken: String
        var accessToken: AccessTokenGrant
        var isAdmin: Bool
        var state: State
        var lastLogin: Date
        var refreshTask: Task<Void, Never>?
        /// A refresh in flight, awaited by every caller that needs a token.
        var refreshing: Task<AccessTokenGrant, any Error>?
    }

    /// The server's identity of the user.
    public let identity: String?
    /// The server the user logged in to.
    public let authenticationServer: URL?
    private let tokens: Mutex<Tokens>
    /// The user's sessions, by Realm URL (`~` resolved).
    private let sessions = Mutex<[String: SyncSession]>([:])

    init(snapshot: UserSnapshot) {
        identity = snapshot.identity
        authenticationServer = snapshot.server
        tokens = Mutex(Tokens(refreshToken: snapshot.refreshToken,
                              accessToken: AccessTokenGrant(token: snapshot.accessToken, expires: snapshot.accessTokenExpiry),
                              isAdmin: snapshot.isAdmin, state: .active, lastLogin: snapshot.lastLogin))
    }

    /// Whether the user administers the server, as of their last login or
    /// token refresh.
    public var isAdmin: Bool { tokens.withLock { $0.isAdmin } }

    /// Whether the user is logged in.
    public var state: State { tokens.withLock { $0.state } }

    public var description: String {
        "SyncUser(identity: \(identity ?? "nil"), server: \(authenticationServer?.absoluteString ?? "nil"), state: \(state))"
    }

    // MARK: Sessions

    /// The sessions of the user's synced Realms opened in this process
    /// that are not invalid.
    public func allSessions() -> [SyncSession] {
        sessions.withLock { Array($0.values) }.filter { $0.state != .invalid }
    }

    /// The session of the synced Realm at `url`, if it has been opened in
    /// this process and is not invalid.
    public func session(for url: URL) -> SyncSession? {
        let key = SyncConfiguration(user: self, realmURL: url).sessionKey
        return sessions.withLock { $0[key] }.flatMap { $0.state == .invalid ? nil : $0 }
    }

    /// The session of `configuration`'s Realm, made (and started) for the
    /// file `coordinator` opened when there is none.
    ///
    /// - Throws: ``SyncError/Code/clientUserError`` for a user logged out.
    func session(for configuration: SyncConfiguration, coordinator: Coordinator) throws -> SyncSession {
        guard state == .active else {
            throw SyncError(.clientUserError, "The user \(identity ?? "") is logged out: \(configuration.realmURL.absoluteString) cannot be synced.")
        }
        let session = try sessions.withLock { sessions throws -> SyncSession in
            if let open = sessions[configuration.sessionKey] {
                switch open.state {
                case .invalid: break
                case .dying:
                    // Logged in again: the new session uploads what the
                    // dying one had left.
                    open.engine.invalidate(SyncError(.clientUserError, "The user \(identity ?? "") logged in again."))
                default: return open
                }
            }
            let made = try SyncSession(configuration: configuration, coordinator: coordinator)
            sessions[configuration.sessionKey] = made
            return made
        }
        session.engine.start()
        return session
    }

    // MARK: Logging in

    /// Logs a user in (registering them first for
    /// `usernamePassword(…, register: true)`), and calls `onCompletion` on
    /// `callbackQueue` with the user or the error (a ``SyncAuthError``).
    ///
    /// - Parameters:
    ///   - server: the server's URL, `http://` or `https://`.
    ///   - timeout: the seconds to wait for the server.
    public static func logIn(with credentials: SyncCredentials, server: URL, timeout: TimeInterval = 30,
                             callbackQueue: DispatchQueue = .main,
                             onCompletion: @escaping @Sendable (SyncUser?, (any Error)?) -> Void) {
        Task {
            do {
                let user = try await logIn(with: credentials, server: server, timeout: timeout)
                callbackQueue.async { onCompletion(user, nil) }
            } catch {
                callbackQueue.async { onCompletion(nil, error) }
            }
        }
    }

    /// Logs a user in; see ``logIn(with:server:timeout:callbackQueue:onCompletion:)``.
    ///
    /// - Throws: ``SyncError`` `clientInternalError` when the metadata Realm
    ///   cannot be opened (see ``SyncManager/metadataEncryptionKey``), or
    ///   ``SyncAuthError``: `invalidCredential` for a wrong password
    ///   or a token the provider refuses, `userDoesNotExist` for a login
    ///   without registering, `userAlreadyExists` for a registration of a
    ///   taken username, `invalidParameters` for a provider the server does
    ///   not enable, `clientSessionError` when the server cannot be reached.
    public static func logIn(with credentials: SyncCredentials, server: URL, timeout: TimeInterval = 30) async throws -> SyncUser {
        let manager = SyncManager.shared
        let registry = try manager.users()
        let answer = try await AuthClient(server: server, timeout: timeout).logIn(credentials.loginRequest)
        // The identity names the user's folder of synced files: a server's
        // answer must not be able to point it elsewhere.
        guard isValidIdentity(answer.identity) else {
            throw SyncAuthError(.badResponse, "The server at \(server.absoluteString) gave an identity that is not 1 to 128 letters, digits, '-' or '_'.")
        }
        let user = try await registry.loggedIn(UserSnapshot(identity: answer.identity, server: server, refreshToken: answer.refreshToken,
                                                      accessToken: answer.accessToken.token, accessTokenExpiry: answer.accessToken.expires,
                                                      isAdmin: answer.isAdmin, isLoggedOut: false, lastLogin: Date()))
        manager.logger.info("logged in user \(answer.identity) at \(server.absoluteString)")
        return user
    }

    static func isValidIdentity(_ identity: String) -> Bool {
        (1...128).contains(identity.utf8.count)
            && identity.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }

    /// The user logged in, or nil if nobody is (or if the metadata Realm
    /// cannot be opened, which is reported to
    /// ``SyncManager/errorHandler``).
    ///
    /// - Precondition: at most one user is logged in; with several, use
    ///   ``all`` (Realm throws an exception here).
    public static var current: SyncUser? {
        let users = SyncManager.shared.usersReportingFailure?.all ?? []
        precondition(users.count <= 1, "Cannot get the current user: \(users.count) users are logged in. Use SyncUser.all to choose one.")
        return users.first
    }

    /// Every user logged in, by identity.
    public static var all: [String: SyncUser] {
        Dictionary((SyncManager.shared.usersReportingFailure?.all ?? []).compactMap { user in user.identity.map { ($0, user) } },
                   uniquingKeysWith: { first, second in first.tokens.withLock { $0.lastLogin } >= second.tokens.withLock { $0.lastLogin } ? first : second })
    }

    // MARK: Logging out

    /// Logs the user out: the server revokes their refresh token (in the
    /// background), and their synced Realms are deleted from this device at
    /// the next launch. Does nothing for a user logged out already.
    public func logOut() {
        _ = beginLogOut()
    }

    /// Logs the user out as ``logOut()`` does, then calls `completion` on
    /// `callbackQueue` once the server has revoked the refresh token (nil)
    /// or could not be told (the error; the token is gone from this device
    /// either way, and the server honours it until it expires).
    public func logOut(callbackQueue: DispatchQueue = .main, completion: @escaping @Sendable ((any Error)?) -> Void) {
        let revocation = beginLogOut()
        Task {
            let error = await revocation?.value
            callbackQueue.async { completion(error) }
        }
    }

    /// Logs out locally; returns the revocation under way, or nil for a
    /// user logged out already.
    private func beginLogOut() -> Task<(any Error)?, Never>? {
        let revoked: (refreshToken: String, accessToken: (token: String, expires: Date)?)? = tokens.withLock { tokens in
            guard tokens.state == .active else { return nil }
            tokens.state = .loggedOut
            tokens.refreshTask?.cancel()
            tokens.refreshTask = nil
            let access = tokens.accessToken.expires.timeIntervalSinceNow > 5 ? (tokens.accessToken.token, tokens.accessToken.expires) : nil
            return (tokens.refreshToken, access)
        }
        guard let (refreshToken, accessToken) = revoked else { return nil }
        // The sessions upload what was written before, with the access
        // token the user has now (revoking the refresh token leaves it
        // valid until it expires), then end.
        for session in sessions.withLock({ Array($0.values) }) {
            session.engine.logOut(SyncError(.clientUserError, "The user \(identity ?? "") logged out."), accessToken: accessToken)
        }
        SyncManager.shared.openedUsers?.loggedOut(self)
        SyncManager.shared.logger.info("logged out user \(identity ?? "")")
        return revokeInBackground(refreshToken)
    }

    /// Asks the server to revoke a refresh token of this user.
    @discardableResult
    func revokeInBackground(_ refreshToken: String) -> Task<(any Error)?, Never>? {
        guard let server = authenticationServer else { return nil }
        return Task {
            do {
                try await AuthClient(server: server, timeout: 30).revoke(refreshToken)
                return nil
            } catch {
                SyncManager.shared.logger.warning("the server could not revoke a refresh token of user \(self.identity ?? ""): \(error)")
                return error
            }
        }
    }

    // MARK: Passwords and administration

    /// Changes the user's password (username/password users), then calls
    /// `completion` on `callbackQueue` with nil or the error.
    public func changePassword(_ newPassword: String, callbackQueue: DispatchQueue = .main,
                               completion: @escaping @Sendable ((any Error)?) -> Void) {
        complete(on: callbackQueue, completion) { try await self.changePassword(newPassword) }
    }

    /// Changes the password of the user `userID` (administrators only).
    public func changePassword(_ newPassword: String, forUserID userID: String, callbackQueue: DispatchQueue = .main,
                               completion: @escaping @Sendable ((any Error)?) -> Void) {
        complete(on: callbackQueue, completion) { try await self.changePassword(newPassword, forUserID: userID) }
    }

    /// Changes a password: the user's own, or (for an administrator) that of
    /// the user `userID`.
    ///
    /// - Throws: ``SyncAuthError``: `accessDeniedOrInvalidPath` for a
    ///   non-administrator changing another's password, `userDoesNotExist`
    ///   for an unknown `userID`, `invalidAccessToken` for a user logged out.
    public func changePassword(_ newPassword: String, forUserID userID: String? = nil) async throws {
        let token = try await accessToken()
        try await client().changePassword(ChangePasswordRequest(newPassword: newPassword, userID: userID), accessToken: token)
    }

    /// Asks the server about the user who logs in as `providerUserIdentity`
    /// with `provider` (administrators only), and calls `completion` on
    /// `callbackQueue` with the answer or the error.
    public func retrieveInfo(forUser providerUserIdentity: String, identityProvider provider: Provider,
                             callbackQueue: DispatchQueue = .main,
                             completion: @escaping @Sendable (SyncUserInfo?, (any Error)?) -> Void) {
        Task {
            do {
                let info = try await retrieveInfo(forUser: providerUserIdentity, identityProvider: provider)
                callbackQueue.async { completion(info, nil) }
            } catch {
                callbackQueue.async { completion(nil, error) }
            }
        }
    }

    /// Asks the server about a user (administrators only).
    ///
    /// - Throws: ``SyncAuthError``: `accessDeniedOrInvalidPath` when this
    ///   user is not an administrator, `userDoesNotExist` when nobody logs
    ///   in that way.
    public func retrieveInfo(forUser providerUserIdentity: String, identityProvider provider: Provider) async throws -> SyncUserInfo {
        let token = try await accessToken()
        return SyncUserInfo(try await client().userInfo(provider: provider, providerUserIdentity: providerUserIdentity, accessToken: token))
    }

    // MARK: Tokens

    /// The access token held now, without refreshing it.
    var currentAccessToken: AccessTokenGrant {
        tokens.withLock { $0.accessToken }
    }

    /// A valid access token: the current one, or a new one when it expires
    /// within ``refreshMargin(for:)``.
    ///
    /// - Throws: ``SyncAuthError/Code/invalidAccessToken`` for a user logged
    ///   out, or the refresh's error.
    public func accessToken() async throws -> String {
        let current: AccessTokenGrant? = try tokens.withLock { tokens in
            guard tokens.state == .active else {
                throw SyncAuthError(.invalidAccessToken, "The user \(identity ?? "") is logged out.")
            }
            return tokens.accessToken.expires.timeIntervalSinceNow > 5 ? tokens.accessToken : nil
        }
        if let current { return current.token }
        return try await refresh().token
    }

    /// Gets a new access token now (one refresh at a time; concurrent
    /// callers share it).
    @discardableResult
    func refresh() async throws -> AccessTokenGrant {
        let task: Task<AccessTokenGrant, any Error> = try tokens.withLock { tokens in
            guard tokens.state == .active else {
                throw SyncAuthError(.invalidAccessToken, "The user \(identity ?? "") is logged out.")
            }
            if let running = tokens.refreshing { return running }
            let refreshToken = tokens.refreshToken
            let running = Task { try await self.performRefresh(refreshToken) }
            tokens.refreshing = running
            return running
        }
        return try await task.value
    }

    private func performRefresh(_ refreshToken: String) async throws -> AccessTokenGrant {
        let outcome: Result<RefreshResponse, SyncAuthError>
        do {
            outcome = .success(try await client().refresh(refreshToken))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case .success(let answer):
            let snapshot: UserSnapshot? = tokens.withLock { tokens in
                tokens.refreshing = nil
                guard tokens.state == .active else { return nil }
                tokens.accessToken = answer.accessToken
                tokens.isAdmin = answer.isAdmin
                return makeSnapshot(of: tokens)
            }
            if let snapshot { await SyncManager.shared.openedUsers?.tokensChanged(snapshot) }
            SyncManager.shared.logger.debug("refreshed the access token of user \(identity ?? "")")
            scheduleRefresh()
            return answer.accessToken
        case .failure(let error):
            // The server no longer takes the refresh token (revoked, or
            // expired): the user is logged out, as in Realm, unless they
            // logged out meanwhile.
            let loggedOut = tokens.withLock { tokens in
                tokens.refreshing = nil
                guard error.code == .invalidAccessToken, tokens.state == .active else { return false }
                tokens.state = .error
                tokens.refreshTask?.cancel()
                tokens.refreshTask = nil
                return true
            }
            if loggedOut {
                SyncManager.shared.openedUsers?.loggedOut(self)
                SyncManager.shared.report(SyncError(.underlyingAuthError, "The user \(identity ?? "") was logged out: \(error.message)"),
                                          session: nil)
            }
            throw error
        }
    }

    /// The seconds before expiry at which a token is refreshed: a fifth of
    /// its lifetime, at most a minute.
    static func refreshMargin(for lifetime: TimeInterval) -> TimeInterval {
        min(60, max(0, lifetime) / 5)
    }

    /// Starts (again) the background task that refreshes the access token
    /// before it expires, retrying with backoff while the server cannot be
    /// reached.
    func scheduleRefresh() {
        tokens.withLock { tokens in
            tokens.refreshTask?.cancel()
            guard tokens.state == .active else { return }
            let expires = tokens.accessToken.expires
            let lifetime = expires.timeIntervalSince(Date())
            let delay = max(0, lifetime - Self.refreshMargin(for: lifetime))
            tokens.refreshTask = Task { [weak self] in
                var wait = delay
                var backoff: TimeInterval = 1
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(wait))
                    guard !Task.isCancelled, let self else { return }
                    do {
                        // A successful refresh schedules the next one.
                        try await self.refresh()
                        return
                    } catch let error as SyncAuthError where error.code == .invalidAccessToken {
                        return
                    } catch {
                        wait = backoff
                        backoff = min(backoff * 2, 30)
                    }
                }
            }
        }
    }

    /// Takes the tokens of a new login of the same user; returns the
    /// refresh token replaced.
    func update(from snapshot: UserSnapshot) -> String {
        tokens.withLock { tokens in
            let replaced = tokens.refreshToken
            tokens.refreshToken = snapshot.refreshToken
            tokens.lastLogin = snapshot.lastLogin
            tokens.accessToken = AccessTokenGrant(token: snapshot.accessToken, expires: snapshot.accessTokenExpiry)
            tokens.isAdmin = snapshot.isAdmin
            tokens.state = .active
            return replaced
        }
    }

    private func makeSnapshot(of tokens: Tokens) -> UserSnapshot {
        UserSnapshot(identity: identity ?? "", server: authenticationServer ?? URL(fileURLWithPath: "/"),
                     refreshToken: tokens.refreshToken, accessToken: tokens.accessToken.token,
                     accessTokenExpiry: tokens.accessToken.expires, isAdmin: tokens.isAdmin, isLoggedOut: false,
                     lastLogin: tokens.lastLogin)
    }

    func client() throws(SyncAuthError) -> AuthClient {
        guard let server = authenticationServer else {
            throw SyncAuthError(.invalidParameters, "The user has no server.")
        }
        return AuthClient(server: server, timeout: 30)
    }

    func complete(on queue: DispatchQueue, _ completion: @escaping @Sendable ((any Error)?) -> Void,
                          _ body: @escaping @Sendable () async throws -> Void) {
        Task {
            do {
                try await body()
                queue.async { completion(nil) }
            } catch {
                queue.async { completion(error) }
            }
        }
    }
}
