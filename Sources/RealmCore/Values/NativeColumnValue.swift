/// A Swift type that a column of its ``nativePropertyType`` holds in one of
/// SQLite's own storage classes: a collection of it can be read element by
/// element without a ``Value`` in between (the fast path of iterating sets
/// and maps of integers, doubles and strings).
package protocol NativeColumnValue {
    /// The property type whose columns hold the type natively.
    static var nativePropertyType: PropertyType { get }

    /// The value at `column` of the statement's current row, or nil when
    /// the row holds anything else (NULL, a NaN kept as a blob, a damaged
    /// value): the caller reads that one as a ``Value``.
    static func nativeValue(_ statement: Statement, at column: Int32) -> Self?
}

extension Int: NativeColumnValue {
    package static var nativePropertyType: PropertyType { .int }

    package static func nativeValue(_ statement: Statement, at column: Int32) -> Int? {
        statement.storageClass(at: column) == .integer ? Int(statement.int64(at: column)) : nil
    }
}

extension Double: NativeColumnValue {
    package static var nativePropertyType: PropertyType { .double }

    package static func nativeValue(_ statement: Statement, at column: Int32) -> Double? {
        statement.storageClass(at: column) == .real ? statement.double(at: column) : nil
    }
}

extension String: NativeColumnValue {
    package static var nativePropertyType: PropertyType { .string }

    package static func nativeValue(_ statement: Statement, at column: Int32) -> String? {
        statement.storageClass(at: column) == .text ? statement.string(at: column) : nil
    }
}
