/// How long the sync client waits for the server before it takes a
/// connection as lost (Realm's `SyncTimeoutOptions`): set it on
/// ``SyncManager/timeoutOptions`` before opening synced Realms; each new
/// connection uses the values set then.
///
/// A session whose connection is lost connects again, after a wait that
/// grows from a quarter of a second to 30 seconds while attempts fail
/// (Docs/Sync.md, "Connections").
public struct SyncTimeoutOptions: Sendable, Equatable {
    /// How long establishing a connection may take, in milliseconds: the
    /// TCP connection, TLS, and the server's answer to the WebSocket
    /// upgrade, all together. Past it the attempt is given up and tried
    /// again. 15,000 by default.
    public var connectTimeout: UInt = 15_000
    /// How often the client pings the server, in milliseconds. 15,000 by
    /// default.
    public var pingKeepalivePeriod: UInt = 15_000
    /// How long the client waits for the server to answer a ping, in
    /// milliseconds, before it closes the connection as dead and connects
    /// again. A connection that a network silently stopped carrying is
    /// noticed within `pingKeepalivePeriod + pongKeepaliveTimeout`.
    /// 15,000 by default.
    public var pongKeepaliveTimeout: UInt = 15_000

    /// The defaults.
    public init() {}
}
