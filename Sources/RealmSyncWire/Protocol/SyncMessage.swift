/// A message of the sync protocol: one binary WebSocket message
/// (Docs/SyncDesign.md, "The wire"). A client binds sessions (one per
/// synced Realm) on one connection; every message but `error` names its
/// session.
public enum SyncMessage: Hashable, Sendable {
    /// Client → server: open session `session` on the Realm at `path`,
    /// as the user of `accessToken`, for the client file `clientFileIdent`,
    /// which has integrated the server's history up to `lastServerVersion`,
    /// whose salt it was sent (0 when it has none): a server restored from
    /// a backup has other salts for the versions it made again, and tells
    /// the client to reset. A query-based client names its subscriptions
    /// (nil for a client that syncs the whole Realm).
    case bind(session: UInt64, path: String, accessToken: String, clientFileIdent: UInt64, lastServerVersion: UInt64,
              lastServerVersionSalt: UInt64 = 0, subscriptions: [SubscriptionQuery]? = nil)
    /// Server → client: the client file is registered; its changesets are
    /// awaited after `lastIntegratedClientVersion`.
    case ident(session: UInt64, clientFileIdent: UInt64, lastIntegratedClientVersion: UInt64)
    /// Client → server: changesets, or parts of one too large for a
    /// message, in client-version order.
    case upload(session: UInt64, parts: [ChangesetPart])
    /// Server → client: other clients' changesets in server-version order;
    /// `serverVersion`, the server version the client has integrated once
    /// it has applied them (its own changesets in between are not sent
    /// back), and that version's salt (a random number the server gave it,
    /// 0 when unknown); what of this client's uploads the server has made
    /// durable; and the progress figures. To a query-based client, also
    /// the objects that left its view (applied after the changesets).
    case download(session: UInt64, serverVersion: UInt64, serverVersionSalt: UInt64 = 0, parts: [ChangesetPart],
                  acknowledgedClientVersion: UInt64, progress: TransferProgress, eviction: Eviction = .none)
    /// Either way: answered once everything sent before it has been
    /// integrated ("am I caught up").
    case mark(session: UInt64, request: UInt64)
    /// Client → server: a query-based session's subscriptions are now
    /// these (all of them: the server forgets those not named).
    case subscribe(session: UInt64, subscriptions: [SubscriptionQuery])
    /// Server → client: what the server made of each subscription of the
    /// set `generation` (0 for the bind's, then one more per `subscribe`
    /// on the connection), once the downloads before this message bring
    /// its objects. A client that has sent a newer set waits for its
    /// answer.
    case subscriptionStatus(session: UInt64, generation: UInt64, statuses: [SubscriptionStatus])
    /// Client → server: a new access token for a bound session.
    case refresh(session: UInt64, accessToken: String)
    /// Client → server: the session ends.
    case unbind(session: UInt64)
    /// Server → client: what went wrong (Realm's sync error codes), for a
    /// session or (nil) the connection, and whether trying again may help.
    case error(session: UInt64?, code: Int, message: String, tryAgain: Bool)
}

/// A changeset as it travels, encoded (``ChangesetCoding``), whole or in
/// parts: a changeset larger than a message is sent as consecutive parts
/// that ``ChangesetReassembler`` puts back together.
public struct ChangesetPart: Hashable, Sendable {
    /// The server version of the changeset (downloads), or 0 (uploads,
    /// which name their client version inside).
    public var serverVersion: UInt64
    /// The size of the whole encoded changeset.
    public var totalSize: Int
    /// Where this part's bytes start in it.
    public var offset: Int
    /// This part's bytes.
    public var bytes: [UInt8]

    /// A part of an encoded changeset.
    public init(serverVersion: UInt64, totalSize: Int, offset: Int, bytes: [UInt8]) {
        self.serverVersion = serverVersion
        self.totalSize = totalSize
        self.offset = offset
        self.bytes = bytes
    }

    /// Whether this part completes its changeset.
    public var isLast: Bool { offset + bytes.count == totalSize }

    /// The parts of an encoded changeset, none over `maximumSize` bytes.
    public static func parts(of encoded: [UInt8], serverVersion: UInt64, maximumSize: Int) -> [ChangesetPart] {
        precondition(maximumSize > 0, "ChangesetPart.parts: a part holds at least one byte")
        guard !encoded.isEmpty else { return [] }
        return stride(from: 0, to: encoded.count, by: maximumSize).map { start in
            ChangesetPart(serverVersion: serverVersion, totalSize: encoded.count, offset: start,
                          bytes: Array(encoded[start..<min(start + maximumSize, encoded.count)]))
        }
    }
}

/// Progress figures, in bytes of encoded changesets (seed 001's
/// transferred and transferrable bytes).
public struct TransferProgress: Hashable, Sendable {
    /// Bytes of the server's history this client has downloaded.
    public var downloaded: UInt64
    /// Bytes of the server's history there are for this client.
    public var downloadable: UInt64
    /// Bytes of this client's changesets the server has.
    public var uploaded: UInt64
    /// Bytes of this client's changesets there are.
    public var uploadable: UInt64

    /// Progress as described.
    public init(downloaded: UInt64, downloadable: UInt64, uploaded: UInt64, uploadable: UInt64) {
        self.downloaded = downloaded
        self.downloadable = downloadable
        self.uploaded = uploaded
        self.uploadable = uploadable
    }
}
