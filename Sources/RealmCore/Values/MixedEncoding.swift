import Foundation

/// How a mixed value (`AnyRealmValue`) is stored: in one column without
/// affinity, so that the types SQLite has of its own keep them and read
/// plainly with `sqlite3`, and the others are blobs that start with a tag.
///
/// | value    | stored as                                        |
/// |----------|--------------------------------------------------|
/// | nil      | NULL                                             |
/// | int      | INTEGER                                          |
/// | double   | REAL (NaN: tag `d` and its 8 bytes)              |
/// | string   | TEXT                                             |
/// | data     | tag `x`, then the bytes                          |
/// | bool     | tag `b`, then 0 or 1                             |
/// | float    | tag `f`, then its 4 bytes, little-endian         |
/// | date     | tag `t`, then the 8 bytes of its reference-date seconds |
/// | objectId | tag `o`, then its 12 bytes                       |
/// | uuid     | tag `u`, then its 16 bytes                       |
/// | decimal  | tag `m`, then its exact text                     |
/// | link     | tag `L`, the key's 8 bytes, then the class name  |
/// | list     | tag `[`, then the nested collection's 8-byte key  |
/// | dictionary | tag `{`, then the nested collection's 8-byte key |
///
/// A value has exactly one stored form, so SQL's `=` on the column is the
/// mixed value's equality for every type but numbers: an int and a double
/// of the same value are equal in SQL as in Realm, while a Boolean is no
/// number.
package enum MixedEncoding {
    static func tag(_ character: Unicode.Scalar) -> UInt8 { UInt8(character.value) }

    /// The value as a mixed column stores it.
    package static func stored(_ value: Value) -> Value {
        switch value {
        case .null, .int, .string: return value
        case .double(let double): return double.isNaN ? blob("d", double.bitPattern) : value
        case .data(let data): return .data(Data([tag("x")]) + data)
        case .bool(let flag): return .data(Data([tag("b"), flag ? 1 : 0]))
        case .float(let float): return blob("f", float.bitPattern)
        case .date(let date): return blob("t", date.timeIntervalSinceReferenceDate.bitPattern)
        case .objectId(let id): return .data(Data([tag("o")] + id.bytes))
        case .uuid(let uuid): return .data(withUnsafeBytes(of: uuid.uuid) { Data([tag("u")] + $0) })
        case .decimal(let decimal): return .data(Data([tag("m")] + Array(decimal.canonicalText.utf8)))
        case .link(let className, let key):
            return .data(withUnsafeBytes(of: key.rawValue.littleEndian) { Data([tag("L")] + $0) } + Data(className.utf8))
        case .collection(let collection):
            return blob(collection.kind == .list ? "[" : "{", collection.key)
        case .object(let key):
            // A link without its class cannot be stored in a mixed column:
            // callers give `.link`.
            return .int(key.rawValue)
        }
    }

    private static func blob<T: FixedWidthInteger>(_ tag: Unicode.Scalar, _ bits: T) -> Value {
        .data(withUnsafeBytes(of: bits.littleEndian) { Data([Self.tag(tag)] + $0) })
    }

    /// The value a mixed column's blob stores, or nil for bytes that are no
    /// stored form (a damaged file).
    static func value(fromBlob bytes: UnsafeRawBufferPointer) -> Value? {
        guard let first = bytes.first else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: bytes[1...])
        func fixed<T: FixedWidthInteger>(_ type: T.Type) -> T? {
            payload.count == MemoryLayout<T>.size ? T(littleEndian: payload.loadUnaligned(as: T.self)) : nil
        }
        switch Unicode.Scalar(first) {
        case "x": return .data(Data(payload))
        case "b": return payload.count == 1 && payload[0] <= 1 ? .bool(payload[0] == 1) : nil
        case "f": return fixed(UInt32.self).map { .float(Float(bitPattern: $0)) }
        case "d": return fixed(UInt64.self).map { .double(Double(bitPattern: $0)) }
        case "t": return fixed(UInt64.self).map { .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: $0))) }
        case "o": return ObjectId(bytes: payload).map(Value.objectId)
        case "u":
            guard payload.count == 16 else { return nil }
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: payload) }
            return .uuid(UUID(uuid: uuid))
        case "m": return Decimal128(exactText: String(decoding: payload, as: UTF8.self)).map(Value.decimal)
        case "[": return fixed(Int64.self).map { .collection(NestedCollection(kind: .list, key: $0)) }
        case "{": return fixed(Int64.self).map { .collection(NestedCollection(kind: .dictionary, key: $0)) }
        case "L":
            guard payload.count > 8 else { return nil }
            let key = Int64(littleEndian: payload.loadUnaligned(as: Int64.self))
            return .link(className: String(decoding: payload[8...], as: UTF8.self), key: ObjectKey(key))
        default: return nil
        }
    }
}

extension Statement {
    /// Binds `value` as a column of `type` stores it: mixed values in their
    /// tagged form (see ``MixedEncoding``), others as they are.
    package func bind(_ value: Value, at index: Int32, as type: PropertyType) {
        bind(type == .mixed ? MixedEncoding.stored(value) : value, at: index)
    }
}
