import Foundation
import RealmCore
import RealmSyncWire

/// The registers of sets and maps (Docs/SyncDesign.md, "Sets and maps"):
/// one per set member or map key ever written, holding the winning write's
/// value (nil once an erase won) and its stamp.
///
/// What RealmCore shows is a function of the registers and of the objects
/// this replica holds: a set holds each present member whose value is not
/// a link, or links to an object here; a map holds each present key, with
/// nil for a link to an object not here. An object that arrives later is
/// found by ``linking(to:_:)`` and shown.
///
/// Rows of `sync_members` are keyed by the collection (its owner's class
/// and local key, the property) and the member: a set member's canonical
/// value (``member(of:)``), or a map key's UTF-8 bytes. `target` repeats a
/// link value's target, indexed, for arrivals. Forgetting the owner
/// (``SyncTables/forgetObject(_:className:_:)``) removes its rows.
enum MemberRegisters {
    /// A set or map of this replica.
    struct Collection {
        var className: String
        var owner: ObjectKey
        var property: String
    }

    /// One member's or key's register.
    struct Register {
        /// ``member(of:)`` of a set's member, or a map's key as UTF-8.
        var member: [UInt8]
        /// The value of the write that won; nil when an erase won.
        var value: SyncValue?
        var stamp: Stamp
    }

    /// What a set or map instruction writes: its collection, the member
    /// or key, and the value (nil for an erase).
    struct Write {
        var reference: ListReference
        var member: [UInt8]
        var value: SyncValue?

        /// The write of a `setInsert`, `setErase`, `mapSet` or `mapErase`
        /// of a file with `schema`; nil for any other instruction.
        init?(_ instruction: Instruction, _ schema: Schema) {
            func setMember(_ value: SyncValue, of set: ListReference) -> [UInt8] {
                let property = schema[set.ownerClass]?.properties.first { $0.name == set.property }
                return MemberRegisters.member(of: value, mixed: property?.type == .mixed)
            }
            switch instruction {
            case .setInsert(let set, let value): (reference, member, self.value) = (set, setMember(value, of: set), value)
            case .setErase(let set, let value): (reference, member, self.value) = (set, setMember(value, of: set), nil)
            case .mapSet(let map, let key, let value): (reference, member, self.value) = (map, MemberRegisters.member(ofKey: key), value)
            case .mapErase(let map, let key): (reference, member, value) = (map, MemberRegisters.member(ofKey: key), nil)
            default: return nil
            }
        }
    }

    static let createTable = """
        CREATE TABLE IF NOT EXISTS sync_members (
            class TEXT NOT NULL,
            owner INTEGER NOT NULL,
            property TEXT NOT NULL,
            member BLOB NOT NULL,
            value BLOB,
            target BLOB,
            timestamp INTEGER NOT NULL,
            client INTEGER NOT NULL,
            sequence INTEGER NOT NULL,
            PRIMARY KEY (class, owner, property, member)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS sync_members_by_target ON sync_members (target) WHERE target IS NOT NULL;
        """

    // MARK: Members

    /// How a set names `value`: the same bytes for values the set takes
    /// for one (`1.5` and `1.50`, `0.0` and `-0.0`, and in a set of mixed
    /// values the int `1` and the double `1.0`), so that two replicas never
    /// hold two registers for what RealmCore stores once.
    static func member(of value: SyncValue, mixed: Bool) -> [UInt8] {
        ChangesetCoding.encode(values: [mixed ? canonicalMixed(value) : canonical(value)])
    }

    /// A map key's member bytes.
    static func member(ofKey key: String) -> [UInt8] {
        Array(key.utf8)
    }

    private static func canonical(_ value: SyncValue) -> SyncValue {
        switch value {
        // A NaN is named by its bits, as RealmCore stores it.
        case .double(let number):
            return .double(number == 0 ? 0 : number)
        case .float(let number):
            return .float(number == 0 ? 0 : number)
        case .decimal(let text):
            // A text that does not parse is refused when applied; named as
            // it is meanwhile.
            return .decimal(Decimal128(exactText: text)?.numericKey ?? text)
        default:
            return value
        }
    }

    /// As ``canonical(_:)``, for a set of mixed values, which stores ints
    /// and doubles as SQLite numbers (equal when their values are) and
    /// every other type apart, floats by their bits (MixedEncoding).
    private static func canonicalMixed(_ value: SyncValue) -> SyncValue {
        switch value {
        case .double(let number) where !number.isNaN:
            if number == number.rounded(), number >= -0x1p63, number < 0x1p63 { return .int(Int64(number)) }
            return value
        case .float:
            return value
        default:
            return canonical(value)
        }
    }

    // MARK: Reading

    /// The register of `member` in `collection`, if it was ever written.
    static func register(_ member: [UInt8], of collection: Collection, _ transaction: Transaction) throws(RealmError) -> Register? {
        let select = try transaction.queryStatement("""
            SELECT value, timestamp, client, sequence FROM sync_members
            WHERE class = ? AND owner = ? AND property = ? AND member = ?
            """)
        defer { select.reset() }
        bind(collection, to: select)
        select.bind(Data(member), at: 4)
        guard try select.step() else { return nil }
        return Register(member: member, value: try value(select, at: 0, collection), stamp: stamp(select, from: 1))
    }

    /// Every register of `collection`, by member.
    static func registers(of collection: Collection, _ transaction: Transaction) throws(RealmError) -> [Register] {
        let select = try transaction.queryStatement("""
            SELECT member, value, timestamp, client, sequence FROM sync_members
            WHERE class = ? AND owner = ? AND property = ? ORDER BY member
            """)
        defer { select.reset() }
        bind(collection, to: select)
        var registers: [Register] = []
        while try select.step() {
            registers.append(Register(member: Array(select.data(at: 0)), value: try value(select, at: 1, collection),
                                      stamp: stamp(select, from: 2)))
        }
        return registers
    }

    /// Whether any register holds a link: most files have none, and the
    /// look on every arrival is skipped then.
    static func holdLinks(_ transaction: Transaction) throws(RealmError) -> Bool {
        let select = try transaction.queryStatement("SELECT EXISTS (SELECT 1 FROM sync_members WHERE target IS NOT NULL)")
        defer { select.reset() }
        _ = try select.step()
        return select.int64(at: 0) != 0
    }

    /// The present members and keys whose value links to `target`, with
    /// their collections.
    static func linking(to target: ObjectReference, _ transaction: Transaction) throws(RealmError) -> [(Collection, Register)] {
        let select = try transaction.queryStatement("""
            SELECT class, owner, property, member, value, timestamp, client, sequence FROM sync_members WHERE target = ?
            """)
        defer { select.reset() }
        select.bind(Data(ChangesetCoding.encode(objects: [target])), at: 1)
        var found: [(Collection, Register)] = []
        while try select.step() {
            let collection = Collection(className: select.string(at: 0), owner: ObjectKey(select.int64(at: 1)), property: select.string(at: 2))
            found.append((collection, Register(member: Array(select.data(at: 3)), value: try value(select, at: 4, collection),
                                               stamp: stamp(select, from: 5))))
        }
        return found
    }

    // MARK: Writing

    /// Stores `register` as the one of its member in `collection`.
    static func write(_ register: Register, of collection: Collection, _ transaction: Transaction) throws(RealmError) {
        let upsert = try transaction.replicationStatement("""
            INSERT OR REPLACE INTO sync_members (class, owner, property, member, value, target, timestamp, client, sequence)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        bind(collection, to: upsert)
        upsert.bind(Data(register.member), at: 4)
        if let value = register.value {
            upsert.bind(Data(ChangesetCoding.encode(values: [value])), at: 5)
        } else {
            upsert.bindNull(at: 5)
        }
        if case .link(let className, let identity)? = register.value {
            upsert.bind(Data(ChangesetCoding.encode(objects: [ObjectReference(className: className, identity: identity)])), at: 6)
        } else {
            upsert.bindNull(at: 6)
        }
        upsert.bind(register.stamp.timestamp, at: 7)
        upsert.bind(Int64(bitPattern: register.stamp.client), at: 8)
        upsert.bind(Int64(bitPattern: register.stamp.sequence), at: 9)
        try upsert.run()
    }

    // MARK: Private

    private static func bind(_ collection: Collection, to statement: Statement) {
        statement.bind(collection.className, at: 1)
        statement.bind(collection.owner.rawValue, at: 2)
        statement.bind(collection.property, at: 3)
    }

    private static func value(_ statement: Statement, at column: Int32, _ collection: Collection) throws(RealmError) -> SyncValue? {
        guard !statement.isNull(at: column) else { return nil }
        return try decoded(Array(statement.data(at: column)), collection)
    }

    /// The member of a set that `register` names: its bytes are the
    /// member's canonical value.
    static func setMember(of register: Register, in collection: Collection) throws(RealmError) -> SyncValue {
        try decoded(register.member, collection)
    }

    private static func decoded(_ bytes: [UInt8], _ collection: Collection) throws(RealmError) -> SyncValue {
        do {
            let values = try ChangesetCoding.decodeValues(bytes)
            guard values.count == 1 else { throw WireFormatError(offset: 0, reason: "\(values.count) values") }
            return values[0]
        } catch {
            throw RealmError(.corruptFile, "A register of '\(collection.className).\(collection.property)' in sync_members cannot be read: \(error)")
        }
    }

    private static func stamp(_ statement: Statement, from column: Int32) -> Stamp {
        Stamp(timestamp: statement.int64(at: column), client: UInt64(bitPattern: statement.int64(at: column + 1)),
              sequence: UInt64(bitPattern: statement.int64(at: column + 2)))
    }
}
