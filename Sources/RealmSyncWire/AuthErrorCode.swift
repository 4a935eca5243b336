/// The codes the server's authentication API gives its errors: Realm
/// Object Server's, so that clients can tell the cases apart as Realm's
/// `SyncAuthError` does.
public enum AuthErrorCode: Int, Sendable, Codable {
    /// A request that is not what the route takes: malformed JSON, a
    /// missing field, a body over the size limit.
    case invalidParameters = 601
    /// The credentials were refused: a wrong password, a bad or expired
    /// token, a provider that is not enabled.
    case invalidCredential = 611
    /// Logging in a user who has not registered, or asking about one who
    /// does not exist.
    case userDoesNotExist = 612
    /// Registering a username that is taken.
    case userAlreadyExists = 613
    /// The caller may not do this (an admin API called by a non-admin), or
    /// the route does not exist.
    case accessDeniedOrInvalidPath = 614
    /// The access or refresh token is missing, malformed, forged, expired
    /// or revoked.
    case invalidAccessToken = 615
    /// A permission offer that has expired, or was withdrawn.
    case expiredPermissionOffer = 701
}
