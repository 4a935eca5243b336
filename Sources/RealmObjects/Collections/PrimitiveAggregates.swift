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
        let values = compactMap(\._aggregated)
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
        let values = values.compactMap(\._aggregated)
        guard !values.isEmpty else { return nil }
        return values.reduce(0) { $0 + $1._doubleValue } / Double(values.count)
    }
}
