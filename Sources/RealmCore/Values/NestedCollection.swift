/// A list or dictionary of mixed values that a mixed value holds
/// (`AnyRealmValue.list` and `.dictionary` in Realm 10): its kind and its
/// key in the file's nested-collection tables.
///
/// A nested collection belongs to exactly one place: the mixed property,
/// the element of a list of mixed values or the value of a map of mixed
/// values that holds it. Giving that place another value, removing it or
/// deleting its object deletes the collection and everything nested in it.
/// Keys are never reused in a file, so a stale handle never comes to name
/// a newer collection.
public struct NestedCollection: Hashable, Sendable, CustomStringConvertible {
    /// Whether the collection is a list or a dictionary.
    public enum Kind: Int64, Hashable, Sendable {
        /// A list of mixed values.
        case list = 0
        /// A dictionary from strings to mixed values.
        case dictionary = 1
    }

    public let kind: Kind
    /// The collection's key in `realm_nested_collections`.
    public let key: Int64

    public init(kind: Kind, key: Int64) {
        self.kind = kind
        self.key = key
    }

    public var description: String { "\(kind == .list ? "List" : "Dictionary")(\(key))" }
}
