import Crypto
import Foundation

/// A secret handed to a client once (a refresh token, a permission offer's
/// token): 256 random bits, URL-safe; the server stores only its SHA-256,
/// so a copy of the store gives nobody a secret.
enum SecretToken {
    /// A new token.
    static func make() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = generator.next() }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The stored form of `token`: its SHA-256 in hex.
    static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { byte in
            (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }
}
