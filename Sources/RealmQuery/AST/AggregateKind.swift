/// The aggregates of ``Query/aggregate(_:keyPath:in:)``.
///
/// | kind | property types | result |
/// |---|---|---|
/// | `min`, `max` | int, float, double, date, decimal | a value of the property's type; `.null` when there is none |
/// | `sum` | int, float, double, decimal | `.int` for int, `.double` for float and double, `.decimal`; zero when empty |
/// | `average` | int, float, double, decimal | `.double` (`.decimal` for decimal); `.null` when empty |
///
/// nil values are skipped, and so are NaN values of float and double
/// properties.
public enum AggregateKind: String, Hashable, Sendable, CaseIterable {
    /// The smallest value.
    case min
    /// The largest value.
    case max
    /// The sum of the values.
    case sum
    /// The mean of the values.
    case average
}
