/// The paths of the server's authentication API, relative to the server's
/// URL.
public enum AuthRoute {
    /// `POST`: log in (``LoginRequest`` → ``LoginResponse``).
    public static let login = "/auth"
    /// `POST`: a new access token (``RefreshTokenRequest`` →
    /// ``RefreshResponse``).
    public static let refresh = "/auth/refresh"
    /// `POST`: revoke a refresh token (``RefreshTokenRequest``); 204.
    public static let revoke = "/auth/revoke"
    /// `PUT`, authenticated: change a password (``ChangePasswordRequest``);
    /// 204.
    public static let password = "/auth/password"
    /// `GET`, authenticated, administrators only:
    /// `/auth/users/<provider>/<provider identity>` → ``UserInfoResponse``.
    public static let users = "/auth/users"

    /// The path of the user-info route for a provider's identity, each part
    /// percent-encoded.
    public static func userInfo(provider: IdentityProvider, providerUserIdentity: String) -> String {
        "\(users)/\(escaped(provider.rawValue))/\(escaped(providerUserIdentity))"
    }

    private static func escaped(_ part: String) -> String {
        var result = ""
        for byte in part.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                 UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result
    }
}
