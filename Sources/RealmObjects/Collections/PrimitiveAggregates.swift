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

/// The aggregates of a list of values (`List<Int>`, `List<Double?>`,
/// `List<Date>` …), on managed and unmanaged lists alike. They read the
/// list once and compute in Swift; nil elements are left out.
extension List where Element: _AggregatedElement, Element._Aggregated: MinMaxType {
    /// The smallest value, or nil when the list has none.
    public func min() -> Element._Aggregated? {
        elements().lazy.compactMap(\._aggregated).min()
    }

    /// The largest value, or nil when the list has none.
    public func max() -> Element._Aggregated? {
        elements().lazy.compactMap(\._aggregated).max()
    }
}

extension List where Element: _AggregatedElement, Element._Aggregated: AddableType {
    /// The sum of the values: zero for a list without any.
    public func sum() -> Element._Aggregated {
        elements().lazy.compactMap(\._aggregated).reduce(Element._Aggregated._zero, +)
    }

    /// The average of the values as a double, or nil when the list has
    /// none.
    public func average() -> Double? {
        let values = elements().compactMap(\._aggregated)
        guard !values.isEmpty else { return nil }
        return values.reduce(0) { $0 + $1._doubleValue } / Double(values.count)
    }
}

/// Sorting and distinct values of a list of values. Realm Swift returns
/// `Results` of values; Results here hold objects only, so these return an
/// array: a snapshot of the list when called (Docs/DifferencesFromApplePlatforms.md).
extension List where Element: Comparable {
    /// The elements in ascending or descending order.
    public func sorted(ascending: Bool = true) -> [Element] {
        elements().sorted { ascending ? $0 < $1 : $1 < $0 }
    }
}

extension List where Element: Hashable {
    /// The elements without repetitions, each where it first appears.
    public func distinct() -> [Element] {
        var seen = Set<Element>()
        return elements().filter { seen.insert($0).inserted }
    }
}

extension List where Element: _AggregatedElement, Element: ExpressibleByNilLiteral, Element._Aggregated: Comparable {
    /// The elements of a list of optional values in ascending or
    /// descending order, nil ones first when ascending, as Realm sorts.
    public func sorted(ascending: Bool = true) -> [Element] {
        sortedNilFirst(ascending: ascending, \._aggregated, <)
    }
}

extension List where Element == Data {
    /// The elements in ascending or descending order of their bytes, as
    /// Realm orders binary values (a prefix first).
    public func sorted(ascending: Bool = true) -> [Data] {
        elements().sorted { ascending ? $0.lexicographicallyPrecedes($1) : $1.lexicographicallyPrecedes($0) }
    }
}

extension List where Element == Data? {
    /// The elements in ascending or descending order of their bytes, nil
    /// ones first when ascending, as Realm sorts.
    public func sorted(ascending: Bool = true) -> [Data?] {
        sortedNilFirst(ascending: ascending, { $0 }) { $0.lexicographicallyPrecedes($1) }
    }
}

extension List where Element == String? {
    /// The elements in ascending or descending order, nil ones first when
    /// ascending, as Realm sorts.
    public func sorted(ascending: Bool = true) -> [String?] {
        sortedNilFirst(ascending: ascending, { $0 }, <)
    }
}

extension List {
    /// The elements ordered by `areInIncreasingOrder` on what `unwrap`
    /// gives, the elements it gives nil for first when ascending.
    fileprivate func sortedNilFirst<Wrapped>(ascending: Bool, _ unwrap: (Element) -> Wrapped?,
                                             _ areInIncreasingOrder: (Wrapped, Wrapped) -> Bool) -> [Element] {
        elements().sorted { lhs, rhs in
            let (first, second) = ascending ? (lhs, rhs) : (rhs, lhs)
            switch (unwrap(first), unwrap(second)) {
            case (nil, nil): return false
            case (nil, _): return true
            case (_, nil): return false
            case (let a?, let b?): return areInIncreasingOrder(a, b)
            }
        }
    }
}

/// The aggregates of a set of values, as of lists of values.
extension MutableSet where Element: _AggregatedElement, Element._Aggregated: MinMaxType {
    /// The smallest value, or nil when the set has none.
    public func min() -> Element._Aggregated? { elements().lazy.compactMap(\._aggregated).min() }
    /// The largest value, or nil when the set has none.
    public func max() -> Element._Aggregated? { elements().lazy.compactMap(\._aggregated).max() }
}

extension MutableSet where Element: _AggregatedElement, Element._Aggregated: AddableType {
    /// The sum of the values: zero for a set without any.
    public func sum() -> Element._Aggregated {
        elements().lazy.compactMap(\._aggregated).reduce(Element._Aggregated._zero, +)
    }

    /// The average of the values as a double, or nil when there are none.
    public func average() -> Double? {
        let values = elements().compactMap(\._aggregated)
        guard !values.isEmpty else { return nil }
        return values.reduce(0) { $0 + $1._doubleValue } / Double(values.count)
    }
}

extension MutableSet where Element: Comparable {
    /// The elements in ascending or descending order.
    public func sorted(ascending: Bool = true) -> [Element] {
        elements().sorted { ascending ? $0 < $1 : $1 < $0 }
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

/// Sorting the values of a set or a map. As for lists (see above), Realm
/// Swift returns `Results` of values; these return an array, a snapshot of
/// the values when called.
extension MutableSet where Element: _AggregatedElement, Element: ExpressibleByNilLiteral, Element._Aggregated: Comparable {
    /// The elements of a set of optional values in ascending or descending
    /// order, nil first when ascending, as Realm sorts.
    public func sorted(ascending: Bool = true) -> [Element] {
        sortedNilFirst(elements(), ascending: ascending, \._aggregated, <)
    }
}

extension MutableSet where Element == Data {
    /// The elements in ascending or descending order of their bytes, as
    /// Realm orders binary values (a prefix first).
    public func sorted(ascending: Bool = true) -> [Data] {
        sortedNilFirst(elements(), ascending: ascending, { $0 }) { $0.lexicographicallyPrecedes($1) }
    }
}

extension MutableSet where Element == Data? {
    /// The elements in ascending or descending order of their bytes, nil
    /// first when ascending, as Realm sorts.
    public func sorted(ascending: Bool = true) -> [Data?] {
        sortedNilFirst(elements(), ascending: ascending, { $0 }) { $0.lexicographicallyPrecedes($1) }
    }
}

extension MutableSet where Element == String? {
    /// The elements in ascending or descending order, nil first when
    /// ascending, as Realm sorts.
    public func sorted(ascending: Bool = true) -> [String?] {
        sortedNilFirst(elements(), ascending: ascending, { $0 }, <)
    }
}

extension Map where Value: Comparable {
    /// The values in ascending or descending order.
    public func sorted(ascending: Bool = true) -> [Value] {
        values.sorted { ascending ? $0 < $1 : $1 < $0 }
    }
}

extension Map where Value: _AggregatedElement, Value: ExpressibleByNilLiteral, Value._Aggregated: Comparable {
    /// The values of a map of optional values in ascending or descending
    /// order, nil first when ascending, as Realm sorts.
    public func sorted(ascending: Bool = true) -> [Value] {
        sortedNilFirst(values, ascending: ascending, \._aggregated, <)
    }
}

extension Map where Value == Data {
    /// The values in ascending or descending order of their bytes, as
    /// Realm orders binary values (a prefix first).
    public func sorted(ascending: Bool = true) -> [Data] {
        sortedNilFirst(values, ascending: ascending, { $0 }) { $0.lexicographicallyPrecedes($1) }
    }
}

extension Map where Value == Data? {
    /// The values in ascending or descending order of their bytes, nil
    /// first when ascending, as Realm sorts.
    public func sorted(ascending: Bool = true) -> [Data?] {
        sortedNilFirst(values, ascending: ascending, { $0 }) { $0.lexicographicallyPrecedes($1) }
    }
}

extension Map where Value == String? {
    /// The values in ascending or descending order, nil first when
    /// ascending, as Realm sorts.
    public func sorted(ascending: Bool = true) -> [String?] {
        sortedNilFirst(values, ascending: ascending, { $0 }, <)
    }
}

/// `elements` ordered by `areInIncreasingOrder` on what `unwrap` gives, the
/// elements it gives nil for first when ascending.
private func sortedNilFirst<Element, Wrapped>(_ elements: [Element], ascending: Bool, _ unwrap: (Element) -> Wrapped?,
                                              _ areInIncreasingOrder: (Wrapped, Wrapped) -> Bool) -> [Element] {
    elements.sorted { lhs, rhs in
        let (first, second) = ascending ? (lhs, rhs) : (rhs, lhs)
        switch (unwrap(first), unwrap(second)) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let a?, let b?): return areInIncreasingOrder(a, b)
        }
    }
}
