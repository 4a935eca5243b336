import Foundation
import RealmCore
import RealmSyncWire

/// A list's elements as sync names them: in order, each with its identity,
/// position key and the stamps of the last writes of its value and of its
/// position; and the identities of the elements erased. RealmCore's list
/// rows are renumbered by inserts and rebuilt by moves, so the identities
/// live here, kept in step with every index-based change
/// (Docs/SyncDesign.md, "Storage"). The elements are always in position
/// order.
struct ListMirror {
    struct Element: Equatable {
        var key: GlobalKey
        var position: PositionKey
        /// The last write of the value (its insertion or a `listSet`);
        /// nil until the write that made it commits.
        var valueStamp: Stamp?
        /// The last write of the position (its insertion or a move).
        var positionStamp: Stamp?
        /// In a list of objects, the local key of the object the element
        /// holds: when the object is deleted, RealmCore drops the element
        /// without telling replication, and the mirror follows
        /// (``reconciled(withCount:exists:)``).
        var target: Int64?

        init(key: GlobalKey, position: PositionKey, valueStamp: Stamp? = nil, positionStamp: Stamp? = nil, target: Int64? = nil) {
            self.key = key
            self.position = position
            self.valueStamp = valueStamp
            self.positionStamp = positionStamp
            self.target = target
        }
    }

    var elements: [Element]
    /// Elements erased from the list: an insertion, move or set of one of
    /// them arriving later is dropped.
    var erased: Set<GlobalKey> = []

    init(elements: [Element], erased: Set<GlobalKey> = []) {
        self.elements = elements
        self.erased = erased
    }

    /// The mirror of a list of objects that now holds `count` elements:
    /// without the elements whose objects no longer exist (deleted, which
    /// removed them from the list). Every replica drops them the same way,
    /// as every replica deletes the objects.
    func reconciled(withCount count: Int, exists: (Int64) throws(RealmError) -> Bool) throws(RealmError) -> ListMirror {
        guard elements.count != count else { return self }
        var kept: [Element] = []
        for element in elements {
            if let target = element.target, try !exists(target) { continue }
            kept.append(element)
        }
        return ListMirror(elements: kept, erased: erased)
    }

    /// The index of an element, if the list holds it.
    func index(of key: GlobalKey) -> Int? {
        elements.firstIndex { $0.key == key }
    }

    /// The index a new element at `position` takes: after every element
    /// whose key is smaller.
    func insertionIndex(for position: PositionKey) -> Int {
        var low = 0, high = elements.count
        while low < high {
            let middle = (low + high) / 2
            if elements[middle].position < position { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The mirror stored for a list, if any.
    static func stored(_ list: ListHandle, property: String, _ transaction: Transaction) throws(RealmError) -> ListMirror? {
        let select = try transaction.replicationStatement("SELECT elements FROM sync_lists WHERE class = ? AND owner = ? AND property = ?")
        defer { select.reset() }
        select.bind(list.owningClass.className, at: 1)
        select.bind(list.owner.rawValue, at: 2)
        select.bind(property, at: 3)
        guard try select.step() else { return nil }
        // File data: checked here, so that the position keys made from it
        // (which need their neighbours in order) can trust it.
        let name = "'\(list.owningClass.className).\(property)' of object \(list.owner.rawValue)"
        guard let mirror = decode(Array(select.data(at: 0))) else {
            throw RealmError(.corruptFile, "The sync identities of the elements of list \(name) cannot be read.")
        }
        for (earlier, later) in zip(mirror.elements, mirror.elements.dropFirst()) where !(earlier.position < later.position) {
            throw RealmError(.corruptFile, "The sync positions of the elements of list \(name) are out of order.")
        }
        if mirror.elements.contains(where: { $0.position.bytes.last == 0 }) {
            throw RealmError(.corruptFile, "A sync position of an element of list \(name) is malformed.")
        }
        return mirror
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
            Self.write(element.valueStamp, into: &writer)
            Self.write(element.positionStamp, into: &writer)
            if let target = element.target {
                writer.byte(1)
                writer.signed(target)
            } else {
                writer.byte(0)
            }
        }
        writer.varint(UInt64(erased.count))
        for key in erased.sorted() {
            writer.varint(key.client)
            writer.varint(key.counter)
        }
        return writer.bytes
    }

    private static func write(_ stamp: Stamp?, into writer: inout BinaryWriter) {
        guard let stamp else {
            writer.byte(0)
            return
        }
        writer.byte(1)
        writer.signed(stamp.timestamp)
        writer.varint(stamp.client)
        writer.varint(stamp.sequence)
    }

    private static func readStamp(_ reader: inout BinaryReader) throws(WireFormatError) -> Stamp? {
        guard try reader.byte() == 1 else { return nil }
        return Stamp(timestamp: try reader.signed(), client: try reader.varint(), sequence: try reader.varint())
    }

    private static func decode(_ bytes: [UInt8]) -> ListMirror? {
        var reader = BinaryReader(bytes)
        do {
            let count = try reader.count(minimumSize: 6)
            var elements: [Element] = []
            elements.reserveCapacity(count)
            for _ in 0..<count {
                let key = GlobalKey(client: try reader.varint(), counter: try reader.varint())
                let position = PositionKey(Array(try reader.lengthPrefixed()))
                let valueStamp = try readStamp(&reader)
                let positionStamp = try readStamp(&reader)
                let target: Int64? = try reader.byte() == 1 ? try reader.signed() : nil
                elements.append(Element(key: key, position: position, valueStamp: valueStamp, positionStamp: positionStamp, target: target))
            }
            let erasedCount = try reader.count(minimumSize: 2)
            var erased: Set<GlobalKey> = []
            for _ in 0..<erasedCount { erased.insert(GlobalKey(client: try reader.varint(), counter: try reader.varint())) }
            guard reader.isAtEnd else { return nil }
            return ListMirror(elements: elements, erased: erased)
        } catch {
            return nil
        }
    }
}

extension ListMirror {
    /// Whether the object with local key `key`, of the class `list`'s
    /// elements link to, still exists.
    static func objectExists(_ key: Int64, in list: ListHandle, _ transaction: Transaction) throws(RealmError) -> Bool {
        let schema = try transaction.objectSchema(list.owningClass)
        guard let targetClass = schema.properties[list.property].objectClassName else { return true }
        return try transaction.objectExists(ObjectKey(key), in: transaction.classHandle(named: targetClass))
    }
}

extension Value {
    /// The local key a link holds, for the mirror of a list of objects.
    var objectKey: Int64? {
        if case .object(let key) = self { return key.rawValue }
        return nil
    }
}
