import Foundation
import RealmCore
import RealmSyncWire

/// A list's elements as sync names them: in order, each with its identity
/// and position key. RealmCore's list rows are renumbered by inserts and
/// rebuilt by moves, so the identities live here, kept in step with every
/// index-based change (Docs/SyncDesign.md, "Storage").
struct ListMirror {
    struct Element: Equatable {
        var key: GlobalKey
        var position: PositionKey
    }

    var elements: [Element]

    /// The mirror stored for a list, if any.
    static func stored(_ list: ListHandle, property: String, _ transaction: Transaction) throws(RealmError) -> ListMirror? {
        let select = try transaction.replicationStatement("SELECT elements FROM sync_lists WHERE class = ? AND owner = ? AND property = ?")
        defer { select.reset() }
        select.bind(list.owningClass.className, at: 1)
        select.bind(list.owner.rawValue, at: 2)
        select.bind(property, at: 3)
        guard try select.step() else { return nil }
        return try decode(Array(select.data(at: 0)))
    }

    func save(_ list: ListHandle, property: String, _ transaction: Transaction) throws(RealmError) {
        let upsert = try transaction.replicationStatement("INSERT OR REPLACE INTO sync_lists (class, owner, property, elements) VALUES (?, ?, ?, ?)")
        upsert.bind(list.owningClass.className, at: 1)
        upsert.bind(list.owner.rawValue, at: 2)
        upsert.bind(property, at: 3)
        upsert.bind(Data(encoded()), at: 4)
        try upsert.run()
    }

    /// The position key for `element` inserted at `index` (before the
    /// element now there).
    func position(forInsertionAt index: Int, of element: GlobalKey) -> PositionKey {
        PositionKey.between(index > 0 ? elements[index - 1].position : nil,
                            and: index < elements.count ? elements[index].position : nil, for: element)
    }

    private func encoded() -> [UInt8] {
        var writer = BinaryWriter()
        writer.varint(UInt64(elements.count))
        for element in elements {
            writer.varint(element.key.client)
            writer.varint(element.key.counter)
            writer.lengthPrefixed(element.position.bytes)
        }
        return writer.bytes
    }

    private static func decode(_ bytes: [UInt8]) throws(RealmError) -> ListMirror {
        var reader = BinaryReader(bytes)
        do {
            let count = try reader.count(minimumSize: 3)
            var elements: [Element] = []
            elements.reserveCapacity(count)
            for _ in 0..<count {
                let key = GlobalKey(client: try reader.varint(), counter: try reader.varint())
                elements.append(Element(key: key, position: PositionKey(Array(try reader.lengthPrefixed()))))
            }
            return ListMirror(elements: elements)
        } catch {
            throw RealmError(.corruptFile, "A synced list's element identities cannot be read: \(error)")
        }
    }
}
