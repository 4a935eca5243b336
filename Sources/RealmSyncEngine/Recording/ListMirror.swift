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
///
/// An element whose object was deleted is *hidden*, not erased: it has no
/// row in the list, but keeps its place, its identity and its stamps, so
/// that a later write of its value (another object, by a replica that had
/// not seen the deletion) shows it again on every replica alike. Rows are
/// the visible elements in order; ``row(ofElementAt:)`` and
/// ``elementIndex(ofRow:)`` translate.
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
        /// For an object of a class keyed by its integer primary key, the
        /// incarnation it had: such an object deleted and made again has
        /// the same local key, and is another object.
        var targetIncarnation: UInt32?
        /// Whether the object it holds is gone, so that it has no row.
        var isHidden: Bool

        init(key: GlobalKey, position: PositionKey, valueStamp: Stamp? = nil, positionStamp: Stamp? = nil, target: Int64? = nil,
             targetIncarnation: UInt32? = nil, isHidden: Bool = false) {
            self.key = key
            self.position = position
            self.valueStamp = valueStamp
            self.positionStamp = positionStamp
            self.target = target
            self.targetIncarnation = targetIncarnation
            self.isHidden = isHidden
        }

        /// Holds `target` from now on, named by `value`.
        mutating func hold(_ target: Int64?, _ value: SyncValue) {
            self.target = target
            if case .link(_, .primaryKey(_, let incarnation)) = value { targetIncarnation = incarnation } else { targetIncarnation = nil }
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

    /// The number of rows: the elements not hidden.
    var rowCount: Int { elements.count { !$0.isHidden } }

    /// The mirror of a list of objects that now has `count` rows: the
    /// elements whose objects no longer exist (deleted, which took their
    /// rows) hidden.
    func reconciled(withCount count: Int, exists: (Int64, UInt32?) throws(RealmError) -> Bool) throws(RealmError) -> ListMirror {
        guard rowCount != count else { return self }
        var reconciled = self
        for index in reconciled.elements.indices where !reconciled.elements[index].isHidden {
            let element = reconciled.elements[index]
            if let target = element.target, try !exists(target, element.targetIncarnation) { reconciled.elements[index].isHidden = true }
        }
        return reconciled
    }

    /// The stored mirror of `list` (empty when none is stored), with the
    /// elements whose objects were deleted since hidden; nil when it still
    /// does not match the list's rows.
    static func inStep(with list: ListHandle, property: String, _ transaction: Transaction) throws(RealmError) -> ListMirror? {
        let count = try transaction.count(of: list)
        let stored = try ListMirror.stored(list, property: property, transaction) ?? ListMirror(elements: [])
        let mirror = try stored.reconciled(withCount: count) { (key: Int64, incarnation: UInt32?) throws(RealmError) -> Bool in
            try ListMirror.objectExists(key, incarnation: incarnation, in: list, transaction)
        }
        return mirror.rowCount == count ? mirror : nil
    }

    /// The row of the element at `index`, or of the next visible one when
    /// it is hidden: the visible elements before it.
    func row(ofElementAt index: Int) -> Int {
        elements[..<index].count { !$0.isHidden }
    }

    /// The index of the element in row `row`.
    func elementIndex(ofRow row: Int) -> Int {
        var remaining = row
        for (index, element) in elements.enumerated() where !element.isHidden {
            if remaining == 0 { return index }
            remaining -= 1
        }
        preconditionFailure("ListMirror: row \(row) of a list of \(rowCount) rows")
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
        let select = try transaction.queryStatement("SELECT elements FROM sync_lists WHERE class = ? AND owner = ? AND property = ?")
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

    /// Where `element`, inserted as row `row`, goes: right after the
    /// element of the row before (ahead of hidden elements after that
    /// one), with a position key between its neighbours there.
    func insertion(atRow row: Int, of element: GlobalKey) -> (index: Int, position: PositionKey) {
        let index = row > 0 ? elementIndex(ofRow: row - 1) + 1 : 0
        let position = PositionKey.between(index > 0 ? elements[index - 1].position : nil,
                                           and: index < elements.count ? elements[index].position : nil, for: element)
        return (index, position)
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
            // Flags: 1, a target follows; 2, hidden; 4, the target's
            // incarnation follows.
            writer.byte((element.target == nil ? 0 : 1) | (element.isHidden ? 2 : 0) | (element.targetIncarnation == nil ? 0 : 4))
            if let target = element.target { writer.signed(target) }
            if let incarnation = element.targetIncarnation { writer.varint(UInt64(incarnation)) }
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
                let flags = try reader.byte()
                guard flags <= 7 else { return nil }
                let target: Int64? = flags & 1 != 0 ? try reader.signed() : nil
                let incarnation: UInt32? = flags & 4 != 0 ? UInt32(truncatingIfNeeded: try reader.varint()) : nil
                elements.append(Element(key: key, position: position, valueStamp: valueStamp, positionStamp: positionStamp, target: target,
                                        targetIncarnation: incarnation, isHidden: flags & 2 != 0))
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
    static func objectExists(_ key: Int64, incarnation: UInt32?, in list: ListHandle, _ transaction: Transaction) throws(RealmError) -> Bool {
        let schema = try transaction.objectSchema(list.owningClass)
        guard let targetClass = schema.properties[list.property].objectClassName else { return true }
        let handle = try transaction.classHandle(named: targetClass)
        guard try transaction.objectExists(ObjectKey(key), in: handle) else { return false }
        // The same key may name a later incarnation of the primary key.
        guard let incarnation, let primaryKey = try transaction.objectSchema(handle).primaryKeyProperty,
              let index = try transaction.objectSchema(handle).properties.firstIndex(of: primaryKey) else { return true }
        let value = try SyncValue(scalar: try transaction.value(of: ObjectKey(key), property: index, in: handle))
        return try SyncTables.incarnation(className: targetClass, primaryKey: value, transaction) == incarnation
    }
}

extension Value {
    /// The local key a link holds, for the mirror of a list of objects.
    var objectKey: Int64? {
        if case .object(let key) = self { return key.rawValue }
        return nil
    }
}
