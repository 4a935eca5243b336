import Foundation
import Logging
import RealmSyncWire

/// What the authentication API does, apart from HTTP: logs users in with
/// each provider, issues and refreshes tokens, changes passwords, and
/// answers the administrators' questions.
///
/// Every refusal is a ``Problem`` made where the decision is taken; a
/// refused request changes nothing stored.
struct AuthService: Sendable {
    let store: any UserStore
    let tokens: TokenIssuer
    let passwords: PasswordHasher
    let external: ExternalIdentityVerifier
    let limiter: FailedLoginLimiter
    let providers: SyncServer.Providers
    let logger: Logger

    /// The longest username, nickname or provider token accepted.
    static let maximumNameLength = 256
    static let maximumTokenLength = 16 * 1024

    // MARK: Logging in

    func logIn(_ request: LoginRequest) async throws(Problem) -> LoginResponse {
        let user: UserRecord
        switch request.provider {
        case .usernamePassword:
            user = try await logInWithPassword(request)
        case .nickname where providers.allowsNickname:
            try Self.requireName(request.data, "nickname")
            let isAdmin = request.isAdmin ?? false
            guard !isAdmin || providers.allowsNicknameAdmins else {
                throw Problem.invalidParameters("this server makes no administrators from nicknames")
            }
            user = try await findOrCreate(.nickname, request.data, isAdmin: isAdmin, updatesAdmin: false)
        case .anonymous where providers.allowsAnonymous:
            user = try await findOrCreate(.anonymous, Self.newIdentity(), isAdmin: false, updatesAdmin: false)
        default:
            guard external.handles(request.provider) else {
                throw Problem.invalidParameters("the provider '\(request.provider)' is not enabled on this server")
            }
            guard !request.data.isEmpty, request.data.utf8.count <= Self.maximumTokenLength else {
                throw Problem.invalidParameters("the token is empty or longer than \(Self.maximumTokenLength) bytes")
            }
            let identity = try await external.verify(request.data, provider: request.provider)
            let metadata = (request.userInfo ?? [:]).compactMapValues { value -> String? in
                if case .string(let text) = value { return text }
                return nil
            }
            user = try await findOrCreate(request.provider, identity.providerUserIdentity, isAdmin: identity.isAdmin ?? false,
                                          updatesAdmin: identity.isAdmin != nil, metadata: metadata)
        }
        return try await grant(user)
    }

    private func logInWithPassword(_ request: LoginRequest) async throws(Problem) -> UserRecord {
        let username = request.data
        try Self.requireName(username, "username")
        guard let password = request.password else {
            throw Problem.invalidParameters("a password is required")
        }
        try PasswordHasher.requireAcceptable(password)
        if request.register == true {
            let hash = await passwords.hash(password)
            let user = UserRecord(identity: Self.newIdentity(), isAdmin: false, created: Date())
            let account = AccountRecord(provider: .usernamePassword, providerUserIdentity: username,
                                        userIdentity: user.identity, passwordHash: hash)
            do {
                try await store.createUser(user, account: account)
            } catch UserStoreError.accountExists {
                throw Problem.userAlreadyExists("the username '\(username)' is taken")
            } catch {
                throw storeFailure(error)
            }
            logger.info("registered a user", metadata: ["user": "\(user.identity)"])
            return user
        }
        if let delay = limiter.beginAttempt(for: username) {
            throw Problem.tooManyAttempts(retryAfter: delay)
        }
        guard let account = try await storeCall({ try await store.account(provider: .usernamePassword, providerUserIdentity: username) }) else {
            throw Problem.userDoesNotExist("no user is registered as '\(username)'")
        }
        guard let hash = account.passwordHash, await passwords.verify(password, against: hash) else {
            throw Problem.invalidCredential("the password is wrong")
        }
        limiter.recordSuccess(for: username)
        guard let user = try await storeCall({ try await store.user(identity: account.userIdentity) }) else {
            throw Problem.userDoesNotExist("the account '\(username)' has no user")
        }
        return user
    }

    /// The user of an external or development account, made at its first
    /// login.
    private func findOrCreate(_ provider: IdentityProvider, _ providerUserIdentity: String, isAdmin: Bool, updatesAdmin: Bool,
                              metadata: [String: String] = [:]) async throws(Problem) -> UserRecord {
        for _ in 0..<2 {
            if let account = try await storeCall({ try await store.account(provider: provider, providerUserIdentity: providerUserIdentity) }),
               var user = try await storeCall({ try await store.user(identity: account.userIdentity) }) {
                if updatesAdmin, user.isAdmin != isAdmin {
                    try await storeCall { try await store.setAdmin(isAdmin, userIdentity: user.identity) }
                    user.isAdmin = isAdmin
                }
                return user
            }
            let user = UserRecord(identity: Self.newIdentity(), isAdmin: isAdmin, created: Date(), metadata: metadata)
            do {
                try await store.createUser(user, account: AccountRecord(provider: provider, providerUserIdentity: providerUserIdentity,
                                                                        userIdentity: user.identity))
                return user
            } catch UserStoreError.accountExists {
                // Another login made the user first: use theirs.
                continue
            } catch {
                throw storeFailure(error)
            }
        }
        throw Problem.internalError
    }

    private func grant(_ user: UserRecord) async throws(Problem) -> LoginResponse {
        let refresh = tokens.refreshToken(for: user.identity)
        try await storeCall { try await store.insertRefreshToken(refresh.record) }
        let access = try await accessToken(for: user)
        return LoginResponse(identity: user.identity, isAdmin: user.isAdmin, accessToken: access, refreshToken: refresh.token)
    }

    // MARK: Tokens

    func refresh(_ request: RefreshTokenRequest) async throws(Problem) -> RefreshResponse {
        let hash = TokenIssuer.hash(ofRefreshToken: request.refreshToken)
        guard let record = try await storeCall({ try await store.refreshToken(hash: hash) }) else {
            throw Problem.invalidAccessToken("the refresh token is unknown or was revoked")
        }
        guard record.expires > Date() else {
            _ = try await storeCall { try await store.deleteRefreshToken(hash: hash) }
            throw Problem.invalidAccessToken("the refresh token has expired; log in again")
        }
        guard let user = try await storeCall({ try await store.user(identity: record.userIdentity) }) else {
            throw Problem.invalidAccessToken("the refresh token's user no longer exists")
        }
        return RefreshResponse(accessToken: try await accessToken(for: user), isAdmin: user.isAdmin)
    }

    func revoke(_ request: RefreshTokenRequest) async throws(Problem) {
        let hash = TokenIssuer.hash(ofRefreshToken: request.refreshToken)
        guard try await storeCall({ try await store.deleteRefreshToken(hash: hash) }) else {
            throw Problem.invalidAccessToken("the refresh token is unknown or was revoked")
        }
    }

    /// The caller of an authenticated route, from its `Authorization`
    /// header's bearer token.
    func caller(authorization: String?) async throws(Problem) -> AccessClaims {
        guard let authorization, authorization.hasPrefix("Bearer ") else {
            throw Problem.invalidAccessToken("the request has no 'Authorization: Bearer' access token")
        }
        return try await tokens.verify(accessToken: String(authorization.dropFirst("Bearer ".count)))
    }

    private func accessToken(for user: UserRecord) async throws(Problem) -> AccessTokenGrant {
        do {
            return try await tokens.accessToken(for: user)
        } catch {
            logger.error("signing an access token failed: \(error)")
            throw Problem.internalError
        }
    }

    // MARK: Passwords and administration

    func changePassword(_ request: ChangePasswordRequest, caller: AccessClaims) async throws(Problem) {
        try PasswordHasher.requireAcceptable(request.newPassword)
        let target = request.userID ?? caller.userIdentity
        if target != caller.userIdentity {
            try await requireAdmin(caller)
        }
        guard try await storeCall({ try await store.user(identity: target) }) != nil else {
            throw Problem.userNotFound("no user has the identity '\(target)'")
        }
        let accounts = try await storeCall { try await store.accounts(ofUser: target) }
        guard let account = accounts.first(where: { $0.provider == .usernamePassword }) else {
            throw Problem.invalidParameters("the user '\(target)' does not log in with a username and password")
        }
        let hash = await passwords.hash(request.newPassword)
        try await storeCall { try await store.setPasswordHash(hash, provider: .usernamePassword, providerUserIdentity: account.providerUserIdentity) }
        limiter.recordSuccess(for: account.providerUserIdentity)
        logger.info("changed a password", metadata: ["user": "\(target)", "by": "\(caller.userIdentity)"])
    }

    func userInfo(provider: IdentityProvider, providerUserIdentity: String, caller: AccessClaims) async throws(Problem) -> UserInfoResponse {
        try await requireAdmin(caller)
        guard let account = try await storeCall({ try await store.account(provider: provider, providerUserIdentity: providerUserIdentity) }),
              let user = try await storeCall({ try await store.user(identity: account.userIdentity) }) else {
            throw Problem.userNotFound("no user logs in as '\(providerUserIdentity)' with '\(provider)'")
        }
        let accounts = try await storeCall { try await store.accounts(ofUser: user.identity) }
        return UserInfoResponse(identity: user.identity, isAdmin: user.isAdmin,
                                accounts: accounts.map { AccountDescription(provider: $0.provider, providerUserIdentity: $0.providerUserIdentity) },
                                metadata: user.metadata)
    }

    /// Refuses a caller who is not an administrator now (the token's claim
    /// may be older than a demotion).
    private func requireAdmin(_ caller: AccessClaims) async throws(Problem) {
        let user = try await storeCall { try await store.user(identity: caller.userIdentity) }
        guard user?.isAdmin == true else {
            throw Problem.accessDenied("only an administrator may do this")
        }
    }

    // MARK: Start-up

    /// Creates the configured first administrator, or promotes them.
    func ensureAdmin(_ admin: SyncServer.InitialAdmin) async throws {
        if let account = try await store.account(provider: .usernamePassword, providerUserIdentity: admin.username) {
            try await store.setAdmin(true, userIdentity: account.userIdentity)
            return
        }
        let user = UserRecord(identity: Self.newIdentity(), isAdmin: true, created: Date())
        let hash = await passwords.hash(admin.password)
        try await store.createUser(user, account: AccountRecord(provider: .usernamePassword, providerUserIdentity: admin.username,
                                                                userIdentity: user.identity, passwordHash: hash))
        logger.info("created the administrator '\(admin.username)'")
    }

    // MARK: Helpers

    /// A new server identity: 32 lowercase hex digits.
    static func newIdentity() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    private static func requireName(_ name: String, _ what: String) throws(Problem) {
        guard !name.isEmpty, name.utf8.count <= maximumNameLength else {
            throw Problem.invalidParameters("a \(what) is 1 to \(maximumNameLength) bytes")
        }
    }

    private func storeCall<T>(_ body: () async throws -> T) async throws(Problem) -> T {
        do {
            return try await body()
        } catch {
            throw storeFailure(error)
        }
    }

    private func storeFailure(_ error: any Error) -> Problem {
        if case UserStoreError.closed = error {
            // A request racing `stop()`: the client may try again elsewhere.
            logger.info("a request reached the user store after the server closed it")
            return Problem.stopping
        }
        logger.error("the user store failed: \(error)")
        return Problem.internalError
    }
}
