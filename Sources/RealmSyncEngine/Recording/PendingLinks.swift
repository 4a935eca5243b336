import Foundation
import RealmCore
import RealmSyncWire

/// Links whose target this replica does not have, yet: a to-one link or a
/// list element whose winning write names an object that is not here.
///
/// Such a link reads nil (the element is hidden) meanwhile, as a link to a
/// deleted object does. In a replica of the whole Realm the target can only
/// be gone for good (erased), but a query-based replica may simply not hold
/// it *yet*: an unsynced change replayed on the fresh state of a client
/// reset, or an object evicted while one the replica keeps still links to
/// it. When an object of the target's identity arrives, the link is set
/// (the element shown) with the stamp of the write that named it unchanged,
/// as the server has it (Docs/SyncDesign.md, "Links to objects not here").
///
/// Rows of `sync_pending_links` are keyed by the link: the owner's class
/// and key, the property, and the list element's identity (empty for a
/// to-one link). A later winning write of the link replaces or removes its
/// row; forgetting the owner (``SyncTables/forgetObject(_:className:_:)``)
/// removes its rows.
enum PendingLinks {
    /// A link that waits for its target.
    struct Link: Equatable {
        var className: String
        var owner: ObjectKey
        var property: String
        /// The list element, or nil for a to-one link.
        var element: GlobalKey?
    }

    static let createTable = """
        CREATE TABLE IF NOT EXISTS sync_pending_links (
            class TEXT NOT NULL,
            object_key INTEGER NOT NULL,
            property TEXT NOT NULL,
            element BLOB NOT NULL,
            target_class TEXT NOT NULL,
            target BLOB NOT NULL,
            PRIMARY KEY (class, object_key, property, element)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS sync_pending_links_by_target ON sync_pending_links (target_class, target);
        """

    /// Whether any link waits: most files never have one, and the checks
    /// made on every creation and link write are skipped then.
    static func exist(_ transaction: Transaction) throws(RealmError) -> Bool {
        let select = try transaction.queryStatement("SELECT EXISTS (SELECT 1 FROM sync_pending_links)")
        defer { select.reset() }
        _ = try select.step()
        return select.int64(at: 0) != 0
    }

    /// Notes that `link` names `target`, which this replica does not have.
    static func note(_ link: Link, waitsFor target: ObjectReference, _ transaction: Transaction) throws(RealmError) {
        let upsert = try transaction.replicationStatement("""
            INSERT OR REPLACE INTO sync_pending_links (class, object_key, property, element, target_class, target)
            VALUES (?, ?, ?, ?, ?, ?)
            """)
        bind(link, to: upsert)
        upsert.bind(target.className, at: 5)
        upsert.bind(Data(ChangesetCoding.encode(identity: target.identity)), at: 6)
        try upsert.run()
    }

    /// `link` was written again: it waits no more.
    static func forget(_ link: Link, _ transaction: Transaction) throws(RealmError) {
        let delete = try transaction.replicationStatement(
            "DELETE FROM sync_pending_links WHERE class = ? AND object_key = ? AND property = ? AND element = ?")
        bind(link, to: delete)
        try delete.run()
    }

    /// The links waiting for `target`, which stop waiting: it has arrived,
    /// or it is erased and never will.
    static func take(target: ObjectReference, _ transaction: Transaction) throws(RealmError) -> [Link] {
        let encoded = Data(ChangesetCoding.encode(identity: target.identity))
        let select = try transaction.queryStatement(
            "SELECT class, object_key, property, element FROM sync_pending_links WHERE target_class = ? AND target = ?")
        select.bind(target.className, at: 1)
        select.bind(encoded, at: 2)
        var links: [Link] = []
        do {
            defer { select.reset() }
            while try select.step() {
                guard let element = decodeElement(select.data(at: 3)) else {
                    throw RealmError(.corruptFile, "A link of '\(select.string(at: 0)).\(select.string(at: 2))' waiting for \(target) names a malformed list element.")
                }
                links.append(Link(className: select.string(at: 0), owner: ObjectKey(select.int64(at: 1)), property: select.string(at: 2),
                                  element: element))
            }
        }
        guard !links.isEmpty else { return [] }
        let delete = try transaction.replicationStatement("DELETE FROM sync_pending_links WHERE target_class = ? AND target = ?")
        delete.bind(target.className, at: 1)
        delete.bind(encoded, at: 2)
        try delete.run()
        return links
    }

    private static func bind(_ link: Link, to statement: Statement) {
        statement.bind(link.className, at: 1)
        statement.bind(link.owner.rawValue, at: 2)
        statement.bind(link.property, at: 3)
        statement.bind(encode(link.element), at: 4)
    }

    /// Empty for a to-one link; a list element's client and counter, 8
    /// bytes each, big-endian.
    private static func encode(_ element: GlobalKey?) -> Data {
        guard let element else { return Data() }
        var bytes = [UInt8]()
        bytes.reserveCapacity(16)
        for value in [element.client, element.counter] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        return Data(bytes)
    }

    /// The element `encode` wrote: nil for a malformed one, `.some(nil)`
    /// for a to-one link.
    private static func decodeElement(_ data: Data) -> GlobalKey?? {
        if data.isEmpty { return .some(nil) }
        guard data.count == 16 else { return nil }
        let bytes = [UInt8](data)
        func value(at start: Int) -> UInt64 { bytes[start..<start + 8].reduce(0) { $0 << 8 | UInt64($1) } }
        return .some(GlobalKey(client: value(at: 0), counter: value(at: 8)))
    }
}
