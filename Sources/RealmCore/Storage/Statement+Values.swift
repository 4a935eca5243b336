import Foundation

/// How each ``Value`` is stored in SQLite, and read back exactly.
///
/// | value     | stored as                                                      |
/// |-----------|----------------------------------------------------------------|
/// | bool      | INTEGER 0 or 1                                                 |
/// | int, link | INTEGER                                                        |
/// | float     | REAL (a Float widens to a Double exactly); NaN as a 4-byte blob |
/// | double    | REAL; NaN as an 8-byte blob (SQLite would store NaN as NULL)   |
/// | string    | TEXT (UTF-8)                                                   |
/// | data      | BLOB (an empty Data is an empty blob, never NULL)              |
/// | date      | REAL seconds since 2001-01-01, Date's own representation      |
/// | objectId  | 12-byte BLOB, so that byte order is sort order                 |
/// | uuid      | 16-byte BLOB                                                   |
/// | decimal   | TEXT, its exact decimal128 form (`1.50`, `1.5E6`, `NaN`, `Inf`) |
extension Statement {
    package func bind(_ value: Value, at index: Int32) {
        switch value {
        case .null:
            bindNull(at: index)
        case .bool(let value):
            bind(Int64(value ? 1 : 0), at: index)
        case .int(let value):
            bind(value, at: index)
        case .object(let key):
            bind(key.rawValue, at: index)
        case .float(let value):
            if value.isNaN {
                withUnsafeBytes(of: value.bitPattern) { bind(bytes: $0, at: index) }
            } else {
                bind(Double(value), at: index)
            }
        case .double(let value):
            if value.isNaN {
                withUnsafeBytes(of: value.bitPattern) { bind(bytes: $0, at: index) }
            } else {
                bind(value, at: index)
            }
        case .string(let value):
            bind(value, at: index)
        case .data(let value):
            bind(value, at: index)
        case .date(let value):
            bind(value.timeIntervalSinceReferenceDate, at: index)
        case .objectId(let value):
            value.withBytes { bind(bytes: $0, at: index) }
        case .uuid(let value):
            withUnsafeBytes(of: value.uuid) { bind(bytes: $0, at: index) }
        case .decimal(let value):
            bind(value.canonicalText, at: index)
        case .link, .collection:
            bind(MixedEncoding.stored(value), at: index)
        }
    }

    /// Reads a column stored by ``bind(_:at:)`` for a property of `type`.
    ///
    /// A value of another storage class than `type` stores (a blob in a
    /// string column, text in an int column) can only come from a damaged
    /// file: it is reported to the connection as damage and read as no
    /// value, never converted into garbage of the wanted type.
    package func value(at column: Int32, as type: PropertyType) -> Value {
        let storage = storageClass(at: column)
        if storage == .null { return .null }
        switch type {
        case .mixed:
            switch storage {
            case .integer: return .int(int64(at: column))
            case .real: return .double(double(at: column))
            case .text: return .string(string(at: column))
            default:
                return withBlob(at: column) { bytes in MixedEncoding.value(fromBlob: bytes) ?? damaged(column, holding: storage, as: type) }
            }
        case .bool:
            guard storage == .integer else { return damaged(column, holding: storage, as: type) }
            return .bool(int64(at: column) != 0)
        case .int:
            guard storage == .integer else { return damaged(column, holding: storage, as: type) }
            return .int(int64(at: column))
        case .object, .linkingObjects:
            guard storage == .integer else { return damaged(column, holding: storage, as: type) }
            return .object(ObjectKey(int64(at: column)))
        case .float:
            if storage == .blob {
                return withBlob(at: column) { bytes in
                    bytes.count == 4 ? .float(Float(bitPattern: bytes.loadUnaligned(as: UInt32.self))) : damaged(column, holding: storage, as: type)
                }
            }
            guard storage != .text else { return damaged(column, holding: storage, as: type) }
            return .float(Float(double(at: column)))
        case .double:
            if storage == .blob {
                return withBlob(at: column) { bytes in
                    bytes.count == 8 ? .double(Double(bitPattern: bytes.loadUnaligned(as: UInt64.self))) : damaged(column, holding: storage, as: type)
                }
            }
            guard storage != .text else { return damaged(column, holding: storage, as: type) }
            return .double(double(at: column))
        case .string:
            guard storage == .text else { return damaged(column, holding: storage, as: type) }
            return .string(string(at: column))
        case .data:
            guard storage == .blob else { return damaged(column, holding: storage, as: type) }
            return .data(data(at: column))
        case .date:
            guard storage == .real || storage == .integer else { return damaged(column, holding: storage, as: type) }
            return .date(Date(timeIntervalSinceReferenceDate: double(at: column)))
        case .objectId:
            guard storage == .blob else { return damaged(column, holding: storage, as: type) }
            return withBlob(at: column) { bytes in
                ObjectId(bytes: bytes).map(Value.objectId) ?? damaged(column, holding: storage, as: type)
            }
        case .uuid:
            guard storage == .blob else { return damaged(column, holding: storage, as: type) }
            return withBlob(at: column) { bytes in
                guard bytes.count == 16 else { return damaged(column, holding: storage, as: type) }
                var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
                withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
                return .uuid(UUID(uuid: uuid))
            }
        case .decimal:
            guard storage == .text else { return damaged(column, holding: storage, as: type) }
            return Decimal128(exactText: string(at: column)).map(Value.decimal)
                ?? damaged(column, holding: storage, as: type)
        }
    }

    /// Reports a stored value that `type` cannot have been written as.
    @inline(never)
    private func damaged(_ column: Int32, holding storage: StorageClass, as type: PropertyType) -> Value {
        reportDamage(RealmError(
            .corruptFile,
            "The Realm file at '\(path)' is damaged: column '\(columnName(at: column))' holds \(storage.description) where a \(type.rawValue) value is stored (reading: \(sql))."))
        return .null
    }
}

extension ObjectId {
    /// Calls `body` with the id's 12 bytes, without allocating.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        var bigEndian = (high.bigEndian, low.bigEndian)
        return withUnsafeBytes(of: &bigEndian) { body(UnsafeRawBufferPointer(rebasing: $0.prefix(12))) }
    }
}
