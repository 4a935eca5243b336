/// A changeset of a synced Realm's history as the server keeps it: in its
/// file's `server_history`, and on PostgreSQL in `realm_history` too.
struct HistoryEntry {
    var serverVersion: UInt64
    var clientFileIdent: UInt64
    var clientVersion: UInt64
    /// The changeset, encoded (``ChangesetCoding``), as it was uploaded.
    var changeset: [UInt8]
    /// The version's salt: tells it from the version of the same number a
    /// server restored from a backup made again.
    var salt: UInt64
}
