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
    case value(Value)
    case keyPath(String)
    case values([Value])
}
