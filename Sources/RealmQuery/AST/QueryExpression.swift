import RealmCore

/// An operand of a comparison.
public enum QueryExpression: Hashable, Sendable {
    /// A key path from the object: `name`, `owner.name`, `dogs.age`;
    /// `SELF` for the object itself; inside a `SUBQUERY`, paths start with
    /// its variable: `$dog.age`, or `$dog` for the element itself.
    case keyPath(String)
    /// A constant: a literal or a `%@`/`%d`/`%f` argument. An object
    /// argument is `.value(.object(key))`.
    case value(Value)
    /// A list of constants: `{1, 2, 3}` or a collection argument; the right
    /// side of `IN` and `BETWEEN`.
    case values([Value])
    /// `@count`, `@min`, `@max`, `@sum` or `@avg` of the collection at
    /// `collection` (a key path through a list or linking objects), of
    /// `property` of its elements when given: `dogs.@count`,
    /// `dogs.@avg.age`, `scores.@max`.
    case collectionOperation(CollectionOperation, collection: String, property: String?)
    /// `SUBQUERY(collection, $variable, predicate).@count`: the number of
    /// elements of `collection` matching `predicate`, in which key paths
    /// start with `$variable`.
    indirect case subqueryCount(collection: String, variable: String, predicate: Predicate)

    /// Whether the expression depends on the object (is not a constant).
    public var isConstant: Bool {
        switch self {
        case .value, .values: true
        case .keyPath, .collectionOperation, .subqueryCount: false
        }
    }
}

/// The collection operators of key paths.
public enum CollectionOperation: String, Hashable, Sendable, CaseIterable {
    /// The number of elements (nil elements included).
    case count = "@count"
    /// The smallest non-nil element; nil for an empty collection.
    case min = "@min"
    /// The largest non-nil element; nil for an empty collection.
    case max = "@max"
    /// The sum of the non-nil elements; zero for an empty collection.
    case sum = "@sum"
    /// The mean of the non-nil elements; nil when there are none.
    case average = "@avg"
}
