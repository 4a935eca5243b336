import Foundation

/// The binary form of a changeset, as it travels and as histories keep it.
///
/// ```
/// format version (1 byte: 1, or 2 when a list reference or a value names
///                 a nested collection)
/// client file identity, client version, last server version   varints
/// timestamp                                                   zigzag varint
/// first sequence                                              varint
/// names: count, then each length-prefixed UTF-8
/// instructions: count, then each a tag byte and its fields
/// ```
///
/// Class and property names are written once, in the names table, and
/// referred to by index; values are written in place. Decoding checks
/// every tag, index, length and nesting depth, and fails with a
/// ``WireFormatError`` rather than trust a peer.
public enum ChangesetCoding {
    /// The version of the format written for a changeset without nested
    /// collections (every changeset before they synchronized): the bytes
    /// of such changesets do not change.
    public static let formatVersion: UInt8 = 1
    /// The version written when a changeset names a nested collection: a
    /// list reference then carries the nested collection's name, or
    /// none, and values may make one.
    public static let nestingFormatVersion: UInt8 = 2
    /// The deepest nesting of embedded objects accepted.
    public static let maximumNesting = 32

    // MARK: Encoding

    /// The bytes of `changeset`, the same for equal changesets.
    public static func encode(_ changeset: Changeset) -> [UInt8] {
        var names = NameTable()
        var body = BinaryWriter()
        let nesting = changeset.instructions.contains(where: \.namesNestedCollection)
        body.varint(UInt64(changeset.instructions.count))
        for instruction in changeset.instructions {
            encode(instruction, into: &body, names: &names, nesting: nesting)
        }
        var output = BinaryWriter()
        output.byte(nesting ? nestingFormatVersion : formatVersion)
        output.varint(changeset.clientFileIdent)
        output.varint(changeset.clientVersion)
        output.varint(changeset.lastServerVersion)
        output.signed(changeset.timestamp)
        output.varint(changeset.firstSequence)
        output.varint(UInt64(names.list.count))
        for name in names.list { output.lengthPrefixed(Array(name.utf8)) }
        return output.bytes + body.bytes
    }

    private struct NameTable {
        var list: [String] = []
        var indices: [String: Int] = [:]

        mutating func index(_ name: String) -> UInt64 {
            if let index = indices[name] { return UInt64(index) }
            indices[name] = list.count
            list.append(name)
            return UInt64(list.count - 1)
        }
    }

    private enum Tag: UInt8 {
        case addClass = 1, addProperty, create, erase, set, addInteger, listInsert, listSet, listMove, listErase, listClear, setDefault
        case setInsert, setErase, mapSet, mapErase
    }

    /// The flags of `addProperty`: optional, then the kind of collection
    /// (at most one).
    private enum PropertyFlag {
        static let optional: UInt8 = 1
        static let list: UInt8 = 2
        static let set: UInt8 = 4
        static let map: UInt8 = 8
    }

    private static func encode(_ instruction: Instruction, into writer: inout BinaryWriter, names: inout NameTable, nesting: Bool) {
        switch instruction {
        case .addClass(let spec):
            writer.byte(Tag.addClass.rawValue)
            writer.varint(names.index(spec.name))
            writer.varint(spec.primaryKey.map { names.index($0) + 1 } ?? 0)
            writer.byte(spec.isEmbedded ? 1 : 0)
        case .addProperty(let className, let spec):
            writer.byte(Tag.addProperty.rawValue)
            writer.varint(names.index(className))
            writer.varint(names.index(spec.name))
            writer.varint(names.index(spec.type))
            writer.byte((spec.isOptional ? PropertyFlag.optional : 0) | (spec.isList ? PropertyFlag.list : 0)
                        | (spec.isSet ? PropertyFlag.set : 0) | (spec.isMap ? PropertyFlag.map : 0))
            writer.varint(spec.target.map { names.index($0) + 1 } ?? 0)
        case .create(let className, let identity):
            writer.byte(Tag.create.rawValue)
            writer.varint(names.index(className))
            encode(identity, into: &writer, names: &names)
        case .erase(let className, let identity):
            writer.byte(Tag.erase.rawValue)
            writer.varint(names.index(className))
            encode(identity, into: &writer, names: &names)
        case .set(let className, let identity, let property, let value), .setDefault(let className, let identity, let property, let value):
            if case .set = instruction { writer.byte(Tag.set.rawValue) } else { writer.byte(Tag.setDefault.rawValue) }
            writer.varint(names.index(className))
            encode(identity, into: &writer, names: &names)
            writer.varint(names.index(property))
            encode(value, into: &writer, names: &names)
        case .addInteger(let className, let identity, let property, let delta):
            writer.byte(Tag.addInteger.rawValue)
            writer.varint(names.index(className))
            encode(identity, into: &writer, names: &names)
            writer.varint(names.index(property))
            writer.signed(delta)
        case .listInsert(let list, let element, let position, let value):
            writer.byte(Tag.listInsert.rawValue)
            encode(list, into: &writer, names: &names, nesting: nesting)
            encode(element, into: &writer)
            writer.lengthPrefixed(position.bytes)
            encode(value, into: &writer, names: &names)
        case .listSet(let list, let element, let value):
            writer.byte(Tag.listSet.rawValue)
            encode(list, into: &writer, names: &names, nesting: nesting)
            encode(element, into: &writer)
            encode(value, into: &writer, names: &names)
        case .listMove(let list, let element, let position):
            writer.byte(Tag.listMove.rawValue)
            encode(list, into: &writer, names: &names, nesting: nesting)
            encode(element, into: &writer)
            writer.lengthPrefixed(position.bytes)
        case .listErase(let list, let element):
            writer.byte(Tag.listErase.rawValue)
            encode(list, into: &writer, names: &names, nesting: nesting)
            encode(element, into: &writer)
        case .listClear(let list, let elements):
            writer.byte(Tag.listClear.rawValue)
            encode(list, into: &writer, names: &names, nesting: nesting)
            writer.varint(UInt64(elements.count))
            for element in elements { encode(element, into: &writer) }
        case .setInsert(let set, let member), .setErase(let set, let member):
            writer.byte(instruction.isSetInsert ? Tag.setInsert.rawValue : Tag.setErase.rawValue)
            encode(set, into: &writer, names: &names, nesting: nesting)
            encode(member, into: &writer, names: &names)
        case .mapSet(let map, let key, let value):
            writer.byte(Tag.mapSet.rawValue)
            encode(map, into: &writer, names: &names, nesting: nesting)
            writer.lengthPrefixed(Array(key.utf8))
            encode(value, into: &writer, names: &names)
        case .mapErase(let map, let key):
            writer.byte(Tag.mapErase.rawValue)
            encode(map, into: &writer, names: &names, nesting: nesting)
            writer.lengthPrefixed(Array(key.utf8))
        }
    }

    private static func encode(_ key: GlobalKey, into writer: inout BinaryWriter) {
        writer.varint(key.client)
        writer.varint(key.counter)
    }

    private static func encode(_ list: ListReference, into writer: inout BinaryWriter, names: inout NameTable, nesting: Bool) {
        writer.varint(names.index(list.ownerClass))
        encode(list.owner, into: &writer, names: &names)
        writer.varint(names.index(list.property))
        guard nesting else { return }
        if let nested = list.nested {
            writer.byte(1)
            encode(nested, into: &writer)
        } else {
            writer.byte(0)
        }
    }

    private static func encode(_ identity: ObjectIdentity, into writer: inout BinaryWriter, names: inout NameTable) {
        switch identity {
        case .primaryKey(let value, let incarnation):
            writer.byte(1)
            encode(value, into: &writer, names: &names)
            writer.varint(UInt64(incarnation))
        case .global(let key):
            writer.byte(2)
            encode(key, into: &writer)
        case .embedded(let ownerClass, let owner, let property, let element):
            writer.byte(element == nil ? 3 : 4)
            writer.varint(names.index(ownerClass))
            encode(owner, into: &writer, names: &names)
            writer.varint(names.index(property))
            if let element { encode(element, into: &writer) }
        }
    }

    private static func encode(_ value: SyncValue, into writer: inout BinaryWriter, names: inout NameTable) {
        switch value {
        case .null: writer.byte(0)
        case .bool(let value): writer.byte(value ? 2 : 1)
        case .int(let value):
            writer.byte(3)
            writer.signed(value)
        case .float(let value):
            writer.byte(4)
            writer.fixed32(value.bitPattern)
        case .double(let value):
            writer.byte(5)
            writer.fixed64(value.bitPattern)
        case .string(let value):
            writer.byte(6)
            writer.lengthPrefixed(Array(value.utf8))
        case .data(let value):
            writer.byte(7)
            writer.lengthPrefixed(value)
        case .date(let value):
            writer.byte(8)
            writer.fixed64(value.timeIntervalSinceReferenceDate.bitPattern)
        case .objectId(let value):
            writer.byte(9)
            writer.fixed64(value.high)
            writer.fixed32(value.low)
        case .uuid(let value):
            writer.byte(10)
            let bytes = value.uuid
            for byte in [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5, bytes.6, bytes.7,
                         bytes.8, bytes.9, bytes.10, bytes.11, bytes.12, bytes.13, bytes.14, bytes.15] {
                writer.byte(byte)
            }
        case .decimal(let value):
            writer.byte(11)
            writer.lengthPrefixed(Array(value.utf8))
        case .link(let className, let identity):
            writer.byte(12)
            writer.varint(names.index(className))
            encode(identity, into: &writer, names: &names)
        case .nestedList(let name):
            writer.byte(13)
            encode(name, into: &writer)
        case .nestedDictionary(let name):
            writer.byte(14)
            encode(name, into: &writer)
        }
    }

    /// An identity alone, as a client stores it beside an object (encoded
    /// as a changeset of one `create`, so that it shares the format).
    public static func encode(identity: ObjectIdentity) -> [UInt8] {
        encode(Changeset(clientFileIdent: 0, clientVersion: 0, lastServerVersion: 0, timestamp: 0, firstSequence: 0,
                         instructions: [.create(class: "", identity)]))
    }

    /// The identity ``encode(identity:)`` wrote.
    public static func decodeIdentity(_ bytes: [UInt8]) throws(WireFormatError) -> ObjectIdentity {
        let changeset = try decode(bytes)
        guard changeset.instructions.count == 1, case .create(_, let identity) = changeset.instructions[0] else {
            throw WireFormatError(offset: 0, reason: "not a stored identity")
        }
        return identity
    }

    /// Values alone, as a subscription's arguments travel (encoded as a
    /// changeset of `set`s, so that they share the format and its checks).
    public static func encode(values: [SyncValue]) -> [UInt8] {
        let nowhere = ObjectIdentity.global(GlobalKey(client: 0, counter: 0))
        return encode(Changeset(clientFileIdent: 0, clientVersion: 0, lastServerVersion: 0, timestamp: 0, firstSequence: 0,
                                instructions: values.map { .set(class: "", nowhere, property: "", $0) }))
    }

    /// The values ``encode(values:)`` wrote.
    public static func decodeValues(_ bytes: [UInt8]) throws(WireFormatError) -> [SyncValue] {
        var values: [SyncValue] = []
        for instruction in try decode(bytes).instructions {
            guard case .set(_, _, _, let value) = instruction else { throw WireFormatError(offset: 0, reason: "not a list of values") }
            values.append(value)
        }
        return values
    }

    /// Objects alone, as evictions travel (encoded as a changeset of
    /// `erase`s, so that they share the format and its checks).
    public static func encode(objects: [ObjectReference]) -> [UInt8] {
        encode(Changeset(clientFileIdent: 0, clientVersion: 0, lastServerVersion: 0, timestamp: 0, firstSequence: 0,
                         instructions: objects.map { .erase(class: $0.className, $0.identity) }))
    }

    /// The objects ``encode(objects:)`` wrote.
    public static func decodeObjects(_ bytes: [UInt8]) throws(WireFormatError) -> [ObjectReference] {
        var objects: [ObjectReference] = []
        for instruction in try decode(bytes).instructions {
            guard case .erase(let className, let identity) = instruction else { throw WireFormatError(offset: 0, reason: "not a list of objects") }
            objects.append(ObjectReference(className: className, identity: identity))
        }
        return objects
    }

    // MARK: Decoding

    /// The changeset `bytes` encode.
    ///
    /// - Throws: ``WireFormatError`` for anything but a whole, well-formed
    ///   changeset of a known format version.
    public static func decode(_ bytes: [UInt8]) throws(WireFormatError) -> Changeset {
        var reader = BinaryReader(bytes)
        let version = try reader.byte()
        guard version == formatVersion || version == nestingFormatVersion else {
            throw WireFormatError(offset: 0, reason: "format version \(version), not \(formatVersion) or \(nestingFormatVersion)")
        }
        let clientFileIdent = try reader.varint()
        let clientVersion = try reader.varint()
        let lastServerVersion = try reader.varint()
        let timestamp = try reader.signed()
        let firstSequence = try reader.varint()
        let nameCount = try reader.count()
        var names: [String] = []
        names.reserveCapacity(nameCount)
        for _ in 0..<nameCount { names.append(try reader.string()) }
        var decoder = Decoder(reader: reader, names: names, nesting: version == nestingFormatVersion)
        let instructionCount = try decoder.reader.count()
        var instructions: [Instruction] = []
        instructions.reserveCapacity(instructionCount)
        for _ in 0..<instructionCount { instructions.append(try decoder.instruction()) }
        guard decoder.reader.isAtEnd else { throw decoder.reader.failure("\(decoder.reader.remaining) bytes after the last instruction") }
        return Changeset(clientFileIdent: clientFileIdent, clientVersion: clientVersion, lastServerVersion: lastServerVersion,
                         timestamp: timestamp, firstSequence: firstSequence, instructions: instructions)
    }

    private struct Decoder {
        var reader: BinaryReader
        let names: [String]
        /// Whether the format is ``ChangesetCoding/nestingFormatVersion``.
        let nesting: Bool

        mutating func name() throws(WireFormatError) -> String {
            let index = try reader.varint()
            guard index < UInt64(names.count) else { throw reader.failure("name \(index) of \(names.count)") }
            return names[Int(index)]
        }

        mutating func optionalName() throws(WireFormatError) -> String? {
            let index = try reader.varint()
            guard index > 0 else { return nil }
            guard index <= UInt64(names.count) else { throw reader.failure("name \(index - 1) of \(names.count)") }
            return names[Int(index - 1)]
        }

        mutating func instruction() throws(WireFormatError) -> Instruction {
            let tagOffset = reader.offset
            guard let tag = Tag(rawValue: try reader.byte()) else {
                throw WireFormatError(offset: tagOffset, reason: "an unknown instruction")
            }
            switch tag {
            case .addClass:
                let name = try name()
                let primaryKey = try optionalName()
                let embedded = try reader.byte()
                guard embedded <= 1 else { throw reader.failure("a flag of \(embedded)") }
                return .addClass(ClassSpec(name: name, primaryKey: primaryKey, isEmbedded: embedded == 1))
            case .addProperty:
                let className = try name()
                let propertyName = try name()
                let type = try name()
                let flags = try reader.byte()
                let collection = flags & ~PropertyFlag.optional
                // At most one kind of collection, and no other bit.
                guard [0, PropertyFlag.list, PropertyFlag.set, PropertyFlag.map].contains(collection) else {
                    throw reader.failure("flags of \(flags)")
                }
                let target = try optionalName()
                return .addProperty(class: className, PropertySpec(name: propertyName, type: type, isOptional: flags & PropertyFlag.optional != 0,
                                                                   isList: collection == PropertyFlag.list, isSet: collection == PropertyFlag.set,
                                                                   isMap: collection == PropertyFlag.map, target: target))
            case .create:
                return .create(class: try name(), try identity(depth: 0))
            case .erase:
                return .erase(class: try name(), try identity(depth: 0))
            case .set:
                let className = try name()
                let identity = try identity(depth: 0)
                return .set(class: className, identity, property: try name(), try value(depth: 0))
            case .setDefault:
                let className = try name()
                let identity = try identity(depth: 0)
                return .setDefault(class: className, identity, property: try name(), try value(depth: 0))
            case .addInteger:
                let className = try name()
                let identity = try identity(depth: 0)
                return .addInteger(class: className, identity, property: try name(), delta: try reader.signed())
            case .listInsert:
                let list = try listReference()
                let element = try globalKey()
                let position = PositionKey(Array(try reader.lengthPrefixed()))
                return .listInsert(list, element: element, position: position, try value(depth: 0))
            case .listSet:
                let list = try listReference()
                return .listSet(list, element: try globalKey(), try value(depth: 0))
            case .listMove:
                let list = try listReference()
                let element = try globalKey()
                return .listMove(list, element: element, position: PositionKey(Array(try reader.lengthPrefixed())))
            case .listErase:
                let list = try listReference()
                return .listErase(list, element: try globalKey())
            case .listClear:
                let list = try listReference()
                let count = try reader.count(minimumSize: 2)
                var elements: [GlobalKey] = []
                elements.reserveCapacity(count)
                for _ in 0..<count { elements.append(try globalKey()) }
                return .listClear(list, elements: elements)
            case .setInsert:
                let set = try listReference()
                return .setInsert(set, try value(depth: 0))
            case .setErase:
                let set = try listReference()
                return .setErase(set, try value(depth: 0))
            case .mapSet:
                let map = try listReference()
                let key = try reader.string()
                return .mapSet(map, key: key, try value(depth: 0))
            case .mapErase:
                let map = try listReference()
                return .mapErase(map, key: try reader.string())
            }
        }

        mutating func globalKey() throws(WireFormatError) -> GlobalKey {
            GlobalKey(client: try reader.varint(), counter: try reader.varint())
        }

        mutating func listReference() throws(WireFormatError) -> ListReference {
            let ownerClass = try name()
            let owner = try identity(depth: 0)
            let property = try name()
            guard nesting else { return ListReference(ownerClass: ownerClass, owner: owner, property: property) }
            let flagOffset = reader.offset
            switch try reader.byte() {
            case 0: return ListReference(ownerClass: ownerClass, owner: owner, property: property)
            case 1: return ListReference(ownerClass: ownerClass, owner: owner, property: property, nested: try globalKey())
            case let flag: throw WireFormatError(offset: flagOffset, reason: "a nested collection flag of \(flag)")
            }
        }

        mutating func identity(depth: Int) throws(WireFormatError) -> ObjectIdentity {
            guard depth <= ChangesetCoding.maximumNesting else { throw reader.failure("objects nested over \(ChangesetCoding.maximumNesting) deep") }
            let kindOffset = reader.offset
            switch try reader.byte() {
            case 1:
                let value = try value(depth: depth + 1)
                let incarnation = try reader.varint()
                guard incarnation <= UInt64(UInt32.max) else { throw reader.failure("an incarnation of \(incarnation)") }
                return .primaryKey(value, incarnation: UInt32(incarnation))
            case 2:
                return .global(try globalKey())
            case let kind where kind == 3 || kind == 4:
                let ownerClass = try name()
                let owner = try identity(depth: depth + 1)
                let property = try name()
                let element = kind == 4 ? try globalKey() : nil
                return .embedded(ownerClass: ownerClass, owner: owner, property: property, element: element)
            case let kind:
                throw WireFormatError(offset: kindOffset, reason: "an unknown kind of identity (\(kind))")
            }
        }

        mutating func value(depth: Int) throws(WireFormatError) -> SyncValue {
            let kindOffset = reader.offset
            switch try reader.byte() {
            case 0: return .null
            case 1: return .bool(false)
            case 2: return .bool(true)
            case 3: return .int(try reader.signed())
            case 4: return .float(Float(bitPattern: try reader.fixed32()))
            case 5: return .double(Double(bitPattern: try reader.fixed64()))
            case 6: return .string(try reader.string())
            case 7: return .data(Data(try reader.lengthPrefixed()))
            case 8: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try reader.fixed64())))
            case 9: return .objectId(ObjectIdBytes(high: try reader.fixed64(), low: try reader.fixed32()))
            case 10:
                var bytes = [UInt8](repeating: 0, count: 16)
                for index in 0..<16 { bytes[index] = try reader.byte() }
                return .uuid(UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                                         bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15])))
            case 11:
                // Parsed where it becomes a value (`SyncValue.coreValue()`).
                return .decimal(try reader.string())
            case 12:
                let className = try name()
                return .link(class: className, try identity(depth: depth + 1))
            case 13 where nesting: return .nestedList(try globalKey())
            case 14 where nesting: return .nestedDictionary(try globalKey())
            case let kind:
                throw WireFormatError(offset: kindOffset, reason: "an unknown kind of value (\(kind))")
            }
        }
    }
}

extension Instruction {
    /// Whether it names a nested collection anywhere (a list reference, a
    /// value, an identity's primary key), which needs
    /// ``ChangesetCoding/nestingFormatVersion``.
    var namesNestedCollection: Bool {
        switch self {
        case .addClass, .addProperty: false
        case .create(_, let identity), .erase(_, let identity), .addInteger(_, let identity, _, _): identity.namesNestedCollection
        case .set(_, let identity, _, let value), .setDefault(_, let identity, _, let value):
            identity.namesNestedCollection || value.namesNestedCollection
        case .listInsert(let list, _, _, let value), .listSet(let list, _, let value), .setInsert(let list, let value),
             .setErase(let list, let value), .mapSet(let list, _, let value):
            list.namesNestedCollection || value.namesNestedCollection
        case .listMove(let list, _, _), .listErase(let list, _), .listClear(let list, _), .mapErase(let list, _):
            list.namesNestedCollection
        }
    }
}

extension ListReference {
    var namesNestedCollection: Bool { nested != nil || owner.namesNestedCollection }
}

extension ObjectIdentity {
    var namesNestedCollection: Bool {
        switch self {
        case .primaryKey(let value, _): value.namesNestedCollection
        case .global: false
        case .embedded(_, let owner, _, _): owner.namesNestedCollection
        }
    }
}

extension SyncValue {
    var namesNestedCollection: Bool {
        switch self {
        case .nestedList, .nestedDictionary: true
        case .link(_, let identity): identity.namesNestedCollection
        default: false
        }
    }
}

extension SyncValue {
    /// Whether it makes a nested list or dictionary.
    public var isNestedCollection: Bool {
        switch self {
        case .nestedList, .nestedDictionary: true
        default: false
        }
    }
}
