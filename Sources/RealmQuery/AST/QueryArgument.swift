import RealmCore

/// An argument of a format string, bound by position.
///
/// | placeholder | argument |
/// |---|---|
/// | `%@` | `.value` (any value, `.null` for nil, `.object(key)` for an object), `.values` (a collection, for `IN %@` and `BETWEEN %@`), or `.keyPath` |
/// | `%K` | `.keyPath` (or a `.value(.string)`): a key path, spliced in as if written |
/// | `%d`, `%i`, `%ld`, `%lld`, `%u` | `.value(.int)` |
/// | `%f`, `%g`, `%e` | `.value(.double)`, `.value(.float)` or `.value(.int)` |
/// | `$0`, `$1`, … | the argument at that index, whatever it is |
public enum QueryArgument: Hashable, Sendable {
    /// One value; `.null` for nil, `.object(key)` for an object (of the
    /// class the key path it is compared with leads to: a key names an
    /// object only together with its class).
    case value(Value)
    /// A key path, for `%K` (or `%@` standing for a key path).
    case keyPath(String)
    /// A collection of values, for `IN %@` and `BETWEEN %@`.
    case values([Value])
}
