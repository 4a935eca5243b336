/// One criterion of a sort: a key path and a direction.
///
/// The key path names a property of the objects or, through to-one links,
/// of objects they link to (`"dog.age"`). Lists, links and linking objects
/// themselves cannot be sorted on. See `Docs/Queries.md` for the order of
/// each type (strings: by code point, which is UTF-8 byte order; nil first).
public struct SortDescriptor: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The key path sorted on: a property, or one reached through to-one
    /// links.
    public var keyPath: String
    /// Whether smaller values come first (nil is smallest).
    public var ascending: Bool

    /// A descriptor sorting on `keyPath`, ascending unless told otherwise.
    public init(keyPath: String, ascending: Bool = true) {
        self.keyPath = keyPath
        self.ascending = ascending
    }

    /// A descriptor sorting ascending on the key path the literal spells,
    /// as in Realm Swift: `sorted(by: ["name", SortDescriptor(keyPath: "age", ascending: false)])`.
    public init(stringLiteral keyPath: String) {
        self.init(keyPath: keyPath)
    }

    /// The same key path in the opposite direction.
    public func reversed() -> SortDescriptor {
        SortDescriptor(keyPath: keyPath, ascending: !ascending)
    }

    /// Realm Swift's form: `SortDescriptor(keyPath: name, direction: ascending)`.
    public var description: String {
        "SortDescriptor(keyPath: \(keyPath), direction: \(ascending ? "ascending" : "descending"))"
    }
}

/// Another name for ``SortDescriptor``, for files that also import
/// Foundation, whose own generic `SortDescriptor` makes the bare name
/// ambiguous there.
public typealias QuerySortDescriptor = SortDescriptor
