/// The codes of the sync protocol's `error` message: Realm's sync protocol
/// error codes, so that logs and error handlers read as Realm's do.
/// Codes below 200 concern the connection, the others one session.
public enum SyncProtocolError: Int, Sendable, CaseIterable {
    /// The connection is closing normally.
    case connectionClosed = 100
    /// Something else went wrong with the connection.
    case otherError = 101
    /// A message of a kind the peer does not know.
    case unknownMessage = 102
    /// A message that cannot be read.
    case badSyntax = 103
    /// A message over a limit (size, sessions per connection).
    case limitsExceeded = 104
    /// A protocol version the peer does not speak.
    case wrongProtocolVersion = 105
    /// A session number that is not bound, or bound already.
    case badSessionIdent = 106
    /// A message the session's state does not allow (an upload before
    /// `ident`, a second `bind`).
    case badMessageOrder = 109

    /// Something else went wrong with the session.
    case otherSessionError = 201
    /// The access token has expired: refresh it and bind again.
    case tokenExpired = 202
    /// The access token is not valid.
    case badAuthentication = 203
    /// The Realm path is not a valid path.
    case illegalRealmPath = 204
    /// The user may not open this Realm.
    case permissionDenied = 206
    /// The client file identity is another client's, or was never this
    /// Realm's.
    case badClientFileIdent = 208
    /// The client says it has integrated server versions the server never
    /// had (the server was restored from a backup): client reset.
    case badServerVersion = 209
    /// An uploaded changeset's client version does not follow the last one.
    case badClientVersion = 210
    /// The client's history and the server's disagree: client reset.
    case divergingHistories = 211
    /// A changeset the server cannot integrate: one that contradicts the
    /// Realm's schema (a destructive schema change) or cannot be read.
    case badChangeset = 212
    /// The client has been offline past the server's history compaction:
    /// client reset.
    case clientFileExpired = 222

    /// Whether the client must reset its copy of the Realm to the
    /// server's (seed 001, "Client reset").
    public var requiresClientReset: Bool {
        switch self {
        case .badServerVersion, .divergingHistories, .clientFileExpired: true
        default: false
        }
    }

    /// Whether the error concerns the whole connection rather than one
    /// session.
    public var isConnectionLevel: Bool { rawValue < 200 }
}
