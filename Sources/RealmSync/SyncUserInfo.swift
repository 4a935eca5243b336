import RealmSyncWire

/// What the server knows of a user, as an administrator asks for it with
/// ``SyncUser/retrieveInfo(forUser:identityProvider:callbackQueue:completion:)``.
public struct SyncUserInfo: Sendable {
    /// The server's identity of the user.
    public let identity: String
    /// Whether the user administers the server.
    public let isAdmin: Bool
    /// Every way the user logs in.
    public let accounts: [SyncUserAccountInfo]
    /// What the server keeps about the user (a custom provider's user info).
    public let metadata: [String: String]

    init(_ response: UserInfoResponse) {
        identity = response.identity
        isAdmin = response.isAdmin
        accounts = response.accounts.map { SyncUserAccountInfo(provider: $0.provider, providerUserIdentity: $0.providerUserIdentity) }
        metadata = response.metadata
    }
}

/// One way a user logs in: a provider, and the user's identity there.
public struct SyncUserAccountInfo: Sendable, Equatable {
    /// The provider of the account.
    public let provider: Provider
    /// The user's identity at the provider (for username and password, the
    /// username).
    public let providerUserIdentity: String

    /// An account at `provider`.
    public init(provider: Provider, providerUserIdentity: String) {
        self.provider = provider
        self.providerUserIdentity = providerUserIdentity
    }
}
