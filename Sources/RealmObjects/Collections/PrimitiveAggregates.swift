import Foundation

/// A value the minimum and maximum of a list can be taken of: the numbers,
/// dates and decimals, as in Realm Swift.
public protocol MinMaxType: Comparable {}

/// A value a list can be summed and averaged over: the numbers and
/// decimals, as in Realm Swift.
public protocol AddableType {
    /// Zero, the sum of no values.
    static var _zero: Self { get }
    static func + (lhs: Self, rhs: Self) -> Self
    /// The value as a double, for averages of numbers.
    var _doubleValue: Double { get }
    /// Whether an average counts the value: every value of a number type,
    /// and the numbers among mixed values (see ``AnyRealmValue/_isAddend``).
    var _isAddend: Bool { get }
}

extension AddableType {
    public var _isAddend: Bool { true }
}

extension Int: MinMaxType, AddableType {
    public static var _zero: Int { 0 }
    public var _doubleValue: Double { Double(self) }
}
extension Int8: MinMaxType, AddableType {
    public static var _zero: Int8 { 0 }
    public var _doubleValue: Double { Double(self) }
}
extension Int16: MinMaxType, AddableType {
    public static var _zero: Int16 { 0 }
    public var _doubleValue: Double { Double(self) }
}
extension Int32: MinMaxType, AddableType {
    public static var _zero: Int32 { 0 }
    public var _doubleValue: Double { Double(self) }
}
extension Int64: MinMaxType, AddableType {
    public static var _zero: Int64 { 0 }
    public var _doubleValue: Double { Double(self) }
}
extension Float: MinMaxType, AddableType {
    public static var _zero: Float { 0 }
    public var _doubleValue: Double { Double(self) }
}
extension Double: MinMaxType, AddableType {
    public static var _zero: Double { 0 }
    public var _doubleValue: Double { self }
}
extension Decimal: MinMaxType, AddableType {
    public static var _zero: Decimal { 0 }
    public var _doubleValue: Double { NSDecimalNumber(decimal: self).doubleValue }
}
extension Decimal128: MinMaxType, AddableType {
    public static var _zero: Decimal128 { 0 }
    public var _doubleValue: Double { doubleValue }
}
extension Date: MinMaxType {}

/// An element of a list of values, optional or not, seen as the value it
/// holds: what the aggregates of lists of values work on. nil elements are
/// left out, as in Realm.
public protocol _AggregatedElement {
    associatedtype _Aggregated
    var _aggregated: _Aggregated? { get }
}

extension Int: _AggregatedElement { public var _aggregated: Int? { self } }
extension Int8: _AggregatedElement { public var _aggregated: Int8? { self } }
extension Int16: _AggregatedElement { public var _aggregated: Int16? { self } }
extension Int32: _AggregatedElement { public var _aggregated: Int32? { self } }
extension Int64: _AggregatedElement { public var _aggregated: Int64? { self } }
extension Float: _AggregatedElement { public var _aggregated: Float? { self } }
extension Double: _AggregatedElement { public var _aggregated: Double? { self } }
extension Decimal: _AggregatedElement { public var _aggregated: Decimal? { self } }
extension Decimal128: _AggregatedElement { public var _aggregated: Decimal128? { self } }
extension Date: _AggregatedElement { public var _aggregated: Date? { self } }
extension Optional: _AggregatedElement where Wrapped: _AggregatedElement {
    public var _aggregated: Wrapped._Aggregated? { self?._aggregated }
}

/// The aggregates of a collection of values (`List<Int>`, `MutableSet<Double?>`,
/// `Results<Date>` …), managed or not. They read the collection once and
/// compute in Swift; nil elements are left out.
extension RealmCollection where Element: _AggregatedElement, Element._Aggregated: MinMaxType {
    /// The smallest value, or nil when the collection has none.
    public func min() -> Element._Aggregated? {
        lazy.compactMap(\._aggregated).min()
    }

    /// The largest value, or nil when the collection has none.
    public func max() -> Element._Aggregated? {
        lazy.compactMap(\._aggregated).max()
    }
}

extension RealmCollection where Element: _AggregatedElement, Element._Aggregated: AddableType {
    /// The sum of the values: zero for a collection without any.
    public func sum() -> Element._Aggregated {
        lazy.compactMap(\._aggregated).reduce(Element._Aggregated._zero, +)
    }

    /// The average of the values as a double, or nil when the collection
    /// has none.
    public func average() -> Double? {
        let values = compactMap(\._aggregated).filter(\._isAddend)
        guard !values.isEmpty else { return nil }
        return values.reduce(0) { $0 + $1._doubleValue } / Double(values.count)
    }
}

/// The aggregates of a map's values.
extension Map where Value: _AggregatedElement, Value._Aggregated: MinMaxType {
    /// The smallest value, or nil when the map has none.
    public func min() -> Value._Aggregated? { values.lazy.compactMap(\._aggregated).min() }
    /// The largest value, or nil when the map has none.
    public func max() -> Value._Aggregated? { values.lazy.compactMap(\._aggregated).max() }
}

extension Map where Value: _AggregatedElement, Value._Aggregated: AddableType {
    /// The sum of the values: zero for a map without any.
    public func sum() -> Value._Aggregated {
        values.lazy.compactMap(\._aggregated).reduce(Value._Aggregated._zero, +)
    }

    /// The average of the values as a double, or nil when there are none.
    public func average() -> Double? {
        let values = values.compactMap(\._aggregated).filter(\._isAddend)
        guard !values.isEmpty else { return nil }
        return values.reduce(0) { $0 + $1._doubleValue } / Double(values.count)
    }
}

// MARK: Mixed values

/// Sums and averages of mixed values (`List<AnyRealmValue>`,
/// `MutableSet<AnyRealmValue>`, `Map<String, AnyRealmValue>` …) follow
/// realm-core's: they count the numbers among the values (ints, floats,
/// doubles, decimals but NaN) and leave out everything else (`.none`,
/// Booleans, strings, dates, objects …); they add in decimal, and the kind
/// of the result is the one Realm Swift hands out, which depends on whether
/// the collection is managed:
///
/// | | managed | unmanaged |
/// |---|---|---|
/// | `sum()` | `.decimal128` (an empty map: `.int(0)`) | `.double` (no numbers: `.int(0)`) |
/// | `average()` as `AnyRealmValue` | `.decimal128`, nil without numbers | `.double`, nil without numbers |
///
/// (An unmanaged collection aggregates through Foundation's `@sum` and
/// `@avg` in Realm, whose decimal numbers come back as doubles. A managed
/// map never written to sums to realm-core's integer zero; one emptied
/// after holding values sums to a decimal zero there, and to `.int(0)`
/// here, where the two are not told apart.) `average()` read as a
/// `Double?` is the same average as a double.
extension AnyRealmValue {
    /// Whether sums and averages count the value: a number that is not a
    /// NaN decimal, as realm-core's `Mixed::accumulate_numeric_to`.
    public var _isAddend: Bool { addend != nil }

    /// The number as realm-core adds it: a decimal, from a double rounded
    /// to 15 significant digits and from a float to 7. Nil for a value
    /// that is no number, and for a NaN decimal.
    fileprivate var addend: Decimal128? {
        switch self {
        case .int(let value): Decimal128(value)
        // realm-core's `Decimal128(float)` rounds to 7 digits; the
        // initializer of a float here, to 15 (through its double).
        case .float(let value) where value.isFinite: Decimal128(exactText: String(format: "%.6e", Double(value)))!
        case .float(let value): Decimal128(value)
        case .double(let value): Decimal128(value)
        case .decimal128(let value): value.isNaN ? nil : value
        default: nil
        }
    }
}

/// The numbers of some mixed values, added up.
private struct MixedTotal {
    var sum: Decimal128 = 0
    var count = 0

    init(_ values: some Sequence<AnyRealmValue>) {
        for addend in values.lazy.compactMap(\.addend) {
            sum += addend
            count += 1
        }
    }

    /// The sum as Realm hands it out: see ``AnyRealmValue/_isAddend``.
    func sum(managed: Bool, managedWhenEmpty: AnyRealmValue) -> AnyRealmValue {
        if managed { return count == 0 ? managedWhenEmpty : .decimal128(sum) }
        return count == 0 ? .int(0) : .double(sum.doubleValue)
    }

    func average<T: _MixedAverage>(managed: Bool) -> T? {
        count == 0 ? nil : T._mixedAverage(sum / Decimal128(count), managed: managed)
    }
}

/// What the average of mixed values can be read as, besides a `Double`:
/// an ``AnyRealmValue`` (a `.decimal128` for a managed collection, a
/// `.double` for an unmanaged one, as in Realm) or a ``Decimal128``.
public protocol _MixedAverage {
    /// The average, computed in decimal, of a managed collection or not.
    static func _mixedAverage(_ average: Decimal128, managed: Bool) -> Self
}

extension AnyRealmValue: _MixedAverage {
    public static func _mixedAverage(_ average: Decimal128, managed: Bool) -> AnyRealmValue {
        managed ? .decimal128(average) : .double(average.doubleValue)
    }
}

extension Decimal128: _MixedAverage {
    public static func _mixedAverage(_ average: Decimal128, managed: Bool) -> Decimal128 { average }
}

extension RealmCollection where Element == AnyRealmValue {
    /// The sum of the numbers among the values, others left out: a
    /// `.decimal128` when the collection is managed (`.decimal128(0)` when
    /// it has no numbers), a `.double` when not (`.int(0)` when it has no
    /// numbers), as in Realm (see ``AnyRealmValue/_isAddend``).
    public func sum() -> AnyRealmValue {
        MixedTotal(self).sum(managed: realm != nil, managedWhenEmpty: .decimal128(0))
    }

    /// The average of the numbers among the values, others left out, or
    /// nil when there are none: as an ``AnyRealmValue``, a `.decimal128`
    /// when the collection is managed and a `.double` when not, as in
    /// Realm; or as a ``Decimal128``. (Read as a `Double?`, it is the
    /// average as a double.)
    public func average<T: _MixedAverage>() -> T? {
        MixedTotal(self).average(managed: realm != nil)
    }
}

extension Map where Value == AnyRealmValue {
    /// The sum of the numbers among the values, others left out: a
    /// `.decimal128` when the map is managed (`.int(0)` when it is empty,
    /// as realm-core sums a map never written to), a `.double` when not
    /// (`.int(0)` when it has no numbers), as in Realm (see
    /// ``AnyRealmValue/_isAddend``).
    public func sum() -> AnyRealmValue {
        MixedTotal(values).sum(managed: realm != nil, managedWhenEmpty: isEmpty ? .int(0) : .decimal128(0))
    }

    /// The average of the numbers among the values, others left out, or
    /// nil when there are none: as an ``AnyRealmValue``, a `.decimal128`
    /// when the map is managed and a `.double` when not, as in Realm; or as
    /// a ``Decimal128``. (Read as a `Double?`, it is the average as a
    /// double.)
    public func average<T: _MixedAverage>() -> T? {
        MixedTotal(values).average(managed: realm != nil)
    }
}
