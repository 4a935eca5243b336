import Foundation

/// Which synced Realm a configuration opens and as whom (seed 001,
/// "Opening a synchronized Realm"): a user and the Realm's URL.
///
/// ```swift
/// let url = URL(string: "realm://127.0.0.1:9080/~/notes")!
/// var config = Realm.Configuration()
/// config.syncConfiguration = SyncConfiguration(user: user, realmURL: url)
/// let realm = try Realm(configuration: config)
/// ```
///
/// `realm://` is a plain connection and `realms://` a TLS one, to the
/// server the user logged in to; `~` in the path is the user's identity.
/// The file lives in the user's folder under
/// ``SyncManager/rootDirectory``; setting a configuration's `fileURL` or
/// `inMemoryIdentifier` makes it an ordinary, unsynced one again.
public struct SyncConfiguration: Sendable, CustomStringConvertible {
    /// The user the Realm is opened as.
    public let user: SyncUser
    /// The Realm's URL, `realm://host:port/path` or `realms://…`.
    public let realmURL: URL
    /// Whether a `realms://` server's certificate is checked (turn off only
    /// for a test server with a self-signed certificate).
    public var enableSSLValidation: Bool
    /// What the Realm does when the server tells it to reset
    /// (``ClientResetMode``): seed 001's manual procedure unless set.
    public var clientResetMode: ClientResetMode = .manual()
    /// Timeouts for this Realm's connections in place of
    /// ``SyncManager/timeoutOptions`` (tests that must notice a dead
    /// connection quickly, without changing the process's).
    package var timeoutOptions: SyncTimeoutOptions?

    /// Whether the Realm syncs only the objects its subscriptions select
    /// (seed 001, "Query-based synchronization"), rather than the whole
    /// Realm.
    public var isPartial: Bool = false
    /// Whether the Realm syncs whole (the opposite of ``isPartial``, by
    /// Realm 3.7's name).
    public var fullSynchronization: Bool {
        get { !isPartial }
        set { isPartial = !newValue }
    }

    /// The synced Realm at `realmURL`, opened as `user`; with `isPartial`,
    /// syncing only the objects its subscriptions select.
    public init(user: SyncUser, realmURL: URL, enableSSLValidation: Bool = true, isPartial: Bool = false) {
        self.user = user
        self.realmURL = realmURL
        self.enableSSLValidation = enableSSLValidation
        self.isPartial = isPartial
    }

    /// The synced Realm at `realmURL`, opened as `user`, resetting as
    /// `clientResetMode` says.
    public init(user: SyncUser, realmURL: URL, enableSSLValidation: Bool = true, clientResetMode: ClientResetMode) {
        self.init(user: user, realmURL: realmURL, enableSSLValidation: enableSSLValidation)
        self.clientResetMode = clientResetMode
    }

    public var description: String { "SyncConfiguration(user: \(user.identity ?? "nil"), realmURL: \(realmURL.absoluteString))" }

    /// The Realm's path on the server, `~` resolved to the user's identity.
    var resolvedPath: String {
        let path = realmURL.path.isEmpty ? "/" : realmURL.path
        guard let identity = user.identity else { return path }
        if path == "/~" { return "/" + identity }
        if path.hasPrefix("/~/") { return "/" + identity + path.dropFirst(2) }
        return path
    }

    /// The WebSocket URL of the sync protocol on the Realm's server.
    var webSocketURL: String {
        var components = URLComponents()
        switch realmURL.scheme?.lowercased() {
        case "realms", "https", "wss": components.scheme = "wss"
        default: components.scheme = "ws"
        }
        components.host = realmURL.host
        components.port = realmURL.port
        components.path = "/sync"
        return components.string ?? "ws://127.0.0.1/sync"
    }

    /// Where this device keeps the Realm: in the user's folder, named by
    /// the server and path (escaped), so that every Realm of every server
    /// has a file of its own.
    var localFileURL: URL {
        // ASCII only, so that the name can be cut anywhere.
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        let server = "\(realmURL.host ?? "localhost")_\(realmURL.port ?? 0)"
        var name = (server + resolvedPath).addingPercentEncoding(withAllowedCharacters: allowed) ?? server
        if name.utf8.count > 180 {
            // File names stop at 255 bytes: a long path keeps its start and
            // a hash of the whole.
            let hash = (server + resolvedPath).utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
            name = String(name.prefix(160)) + "-" + String(hash, radix: 16)
        }
        return SyncManager.shared.directory(forUser: user.identity ?? "unknown")
            .appendingPathComponent(name).appendingPathExtension("realm")
    }

    /// What names the session: one per user and Realm URL.
    var sessionKey: String { "\(realmURL.scheme ?? "realm")://\(realmURL.host ?? ""):\(realmURL.port ?? 0)\(resolvedPath)" }
}
