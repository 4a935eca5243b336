import Foundation
import JWTKit

/// What an access token says: who the user is, whether they were an
/// administrator when it was issued, and until when it is valid.
struct AccessClaims: JWTPayload, Equatable {
    static let issuerName = "realm-sync-server"
    static let accessType = "access"

    /// The user's server identity.
    var sub: SubjectClaim
    var adm: Bool
    var iss: IssuerClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    /// Always ``accessType``: a token signed by the same key for another
    /// purpose is not an access token.
    var typ: String

    var userIdentity: String { sub.value }

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
        guard iss.value == Self.issuerName, typ == Self.accessType else {
            throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "not an access token of this server")
        }
    }
}
