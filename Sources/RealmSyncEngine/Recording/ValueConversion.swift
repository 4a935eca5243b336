import Foundation
import RealmCore
import RealmSyncWire

extension SyncValue {
    /// A value that is not a link, as it travels.
    ///
    /// - Throws: `invalidValue` for a link, which needs its target's
    ///   identity (the recorder makes those).
    package init(scalar value: Value) throws(RealmError) {
        switch value {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .int(let value): self = .int(value)
        case .float(let value): self = .float(value)
        case .double(let value): self = .double(value)
        case .string(let value): self = .string(value)
        case .data(let value): self = .data(value)
        case .date(let value): self = .date(value)
        case .objectId(let value):
            let bytes = value.bytes
            var high: UInt64 = 0
            for byte in bytes[0..<8] { high = high << 8 | UInt64(byte) }
            var low: UInt32 = 0
            for byte in bytes[8..<12] { low = low << 8 | UInt32(byte) }
            self = .objectId(ObjectIdBytes(high: high, low: low))
        case .uuid(let value): self = .uuid(value)
        case .decimal(let value): self = .decimal(value.canonicalText)
        case .object:
            throw RealmError(.invalidValue, "A link cannot be replicated without its target's identity.")
        case .link, .collection:
            // The recorder names these (a link's target, a new collection).
            throw RealmError(.invalidValue, "A mixed value's link or nested collection is named by the recorder, not converted.")
        }
    }

    /// The value as RealmCore stores it; a link has no local key here.
    ///
    /// - Throws: `invalidValue` for a link or a nested collection.
    package func coreValue() throws(RealmError) -> Value {
        switch self {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .int(let value): return .int(value)
        case .float(let value): return .float(value)
        case .double(let value): return .double(value)
        case .string(let value): return .string(value)
        case .data(let value): return .data(value)
        case .date(let value): return .date(value)
        case .objectId(let value):
            var bytes: [UInt8] = []
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value.high >> UInt64(shift))) }
            for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: value.low >> UInt32(shift))) }
            return .objectId(ObjectId(bytes: bytes)!)
        case .uuid(let value): return .uuid(value)
        case .decimal(let text):
            guard let value = Decimal128(exactText: text) else {
                throw RealmError(.invalidValue, "A decimal that does not parse: '\(text.prefix(40))'.")
            }
            return .decimal(value)
        case .link:
            throw RealmError(.invalidValue, "A link is resolved by its target's identity, not converted.")
        case .nestedList, .nestedDictionary:
            throw RealmError(.invalidValue, "A nested collection is made where its value is applied, not converted.")
        }
    }
}
