import Foundation
import RealmObjects
import RealmSync

/// The synced Realm of the client crash test: one log whose list of
/// entries grows by one per write transaction.
final class SyncedLog: Object {
    @Persisted(primaryKey: true) var id = 1
    let entries = List<Int>()

    /// Appends the next entry in a write transaction of its own; returns it.
    static func appendNext(_ realm: Realm) throws -> Int {
        try realm.write {
            let log = realm.object(ofType: SyncedLog.self, forPrimaryKey: 1) ?? realm.create(SyncedLog.self, value: ["id": 1])
            let next = (log.entries.max() ?? 0) + 1
            log.entries.append(next)
            return next
        }
    }

    /// The entries, in order.
    static func entries(_ realm: Realm) -> [Int] {
        realm.object(ofType: SyncedLog.self, forPrimaryKey: 1).map { Array($0.entries) } ?? []
    }
}
