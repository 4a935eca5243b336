import Foundation
import Logging
import RealmSyncWire

extension SyncServer {
    /// How a server listens, where it keeps its data, and whom it lets in.
    public struct Configuration: Sendable {
        /// The address to listen on: loopback unless changed.
        public var host = "127.0.0.1"
        /// The port; 0 picks a free one (``SyncServer/port`` tells which).
        public var port = 9080
        /// The folder of the server's files: its user store and its token
        /// signing secret. Created if missing.
        public var dataDirectory: URL
        /// A PEM certificate chain and private key: when set, the server
        /// speaks HTTPS (and `realms://`) only.
        public var tls: TLSFiles?
        /// How much the server logs (to standard error, through swift-log).
        public var logLevel: Logger.Level = .info
        /// The user store; nil for the one ``databaseURL`` names, or the
        /// embedded one in ``dataDirectory``.
        public var userStore: (any UserStore)?
        /// A PostgreSQL database to keep users, accounts, refresh tokens,
        /// permissions and offers in (``PostgresUserStore``):
        /// `postgres://user:password@host:port/database`. Nil keeps them in
        /// ``dataDirectory``.
        public var databaseURL: String?
        /// The authentication providers the server accepts.
        public var providers = Providers()
        /// An administrator to create (or promote) at start: a username and
        /// password account.
        public var initialAdmin: InitialAdmin?
        /// How long an access token is accepted.
        public var accessTokenLifetime: TimeInterval = 10 * 60
        /// How long a refresh token is accepted (it is revoked by logging
        /// out before that).
        public var refreshTokenLifetime: TimeInterval = 365 * 24 * 3600
        /// The bcrypt cost of password hashes (2^cost rounds); 12 costs
        /// about a quarter of a second per hash.
        public var passwordHashCost: UInt8 = 12
        /// Failed password attempts for one username before it is refused
        /// for ``failedLoginWindow``.
        public var failedLoginLimit = 5
        /// The seconds a username is refused after ``failedLoginLimit``
        /// failures, counted from its first failure.
        public var failedLoginWindow: TimeInterval = 60
        /// The largest request body accepted.
        public var maxRequestBodySize = 64 * 1024
        /// How often the server pings each sync connection: a client that
        /// has not answered one ping when the next is due is taken as gone,
        /// and its connection closed with its sessions (30 seconds by
        /// default; a dead client is dropped within twice this).
        public var keepAlivePeriod: Duration = .seconds(30)
        /// How many server versions a synced Realm's history gathers before
        /// the server compacts it: deletes what every client has
        /// integrated. Clients behind the compacted history catch up from
        /// the Realm's state.
        public var historyCompactionInterval: UInt64 = 1000
        /// How long a client not seen keeps the history it has not
        /// integrated from compaction (a week by default); after that it
        /// catches up from the state when it returns.
        public var clientHistoryRetention: TimeInterval = 7 * 24 * 3600

        /// A server keeping its data in `dataDirectory`.
        public init(dataDirectory: URL) {
            self.dataDirectory = dataDirectory
        }
    }

    /// The files of a TLS identity.
    public struct TLSFiles: Sendable {
        /// The server's certificate, then any intermediates, in PEM.
        public var certificateChain: URL
        /// The certificate's private key, in PEM.
        public var privateKey: URL

        /// The TLS identity in these two files.
        public init(certificateChain: URL, privateKey: URL) {
            self.certificateChain = certificateChain
            self.privateKey = privateKey
        }
    }

    /// The administrator made at start.
    public struct InitialAdmin: Sendable {
        /// The administrator's username (a username/password account).
        public var username: String
        /// Used only when the user is new; an existing user keeps their
        /// password and becomes an administrator.
        public var password: String

        /// An administrator with this username and (if new) password.
        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    /// The authentication providers a server accepts. Username and
    /// password is always on; the others are off until configured.
    public struct Providers: Sendable {
        /// Providers that verify a JWT with a public key, by name: `jwt`
        /// for ``SyncCredentials.jwt``, any other name for a custom
        /// provider.
        public var jwt: [IdentityProvider: JWTProvider] = [:]
        /// Google sign-in.
        public var google: GoogleProvider?
        /// Providers whose tokens are checked by calling a URL (Facebook,
        /// CloudKit, or any other name).
        public var tokenCheck: [IdentityProvider: TokenCheckProvider] = [:]
        /// Anonymous users (a new user at each login): development only.
        public var allowsAnonymous = false
        /// Nickname users (no password): development only.
        public var allowsNickname = false
        /// Whether a nickname login may ask to be an administrator (which
        /// anyone can then do): development only, and off unless set.
        public var allowsNicknameAdmins = false

        /// Username and password only.
        public init() {}
    }

    /// A provider whose tokens are JWTs signed by a key the server is given.
    public struct JWTProvider: Sendable {
        /// The public key, PEM: RSA (RS256) or P-256 (ES256).
        public var publicKeyPEM: String
        /// The `iss` a token must carry, if any.
        public var issuer: String?
        /// An `aud` a token must include, if any.
        public var audience: String?
        /// The claim holding the user's identity at the provider.
        public var identityClaim = "sub"
        /// A Boolean claim that, when present, makes the user an
        /// administrator or not.
        public var adminClaim: String? = "isAdmin"

        /// A provider trusting tokens signed by `publicKeyPEM`'s private key,
        /// optionally only from `issuer` and for `audience`.
        public init(publicKeyPEM: String, issuer: String? = nil, audience: String? = nil) {
            self.publicKeyPEM = publicKeyPEM
            self.issuer = issuer
            self.audience = audience
        }
    }

    /// Google sign-in: OpenID Connect ID tokens signed by Google's keys.
    public struct GoogleProvider: Sendable {
        /// The OAuth client IDs a token may be issued for (its `aud`).
        public var clientIDs: [String]
        /// Google's signing keys as a JWK set (the document at
        /// https://www.googleapis.com/oauth2/v3/certs).
        public var keySetJSON: String

        /// Google sign-in for these client IDs, with these keys.
        public init(clientIDs: [String], keySetJSON: String) {
            self.clientIDs = clientIDs
            self.keySetJSON = keySetJSON
        }
    }

    /// A provider whose access tokens the server checks by asking the
    /// provider: `GET <url>?access_token=<token>` must answer 200 with a
    /// JSON object whose ``identityField`` is the user's identity (for
    /// Facebook, `https://graph.facebook.com/me` and `id`).
    public struct TokenCheckProvider: Sendable {
        /// The URL to call with the token.
        public var url: URL
        /// The field of the answer that holds the user's identity.
        public var identityField: String

        /// A provider checked at `url`, whose answer names the user in
        /// `identityField`.
        public init(url: URL, identityField: String = "id") {
            self.url = url
            self.identityField = identityField
        }
    }
}
