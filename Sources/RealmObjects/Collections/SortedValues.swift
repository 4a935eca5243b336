import Foundation
import RealmCore

/// A value a collection of values can be sorted by, and made distinct by:
/// the numbers, strings, data, dates, decimals and mixed values, optional
/// or not, as in Realm Swift. (Booleans, object ids and UUIDs are not, as
/// in Realm.)
public protocol SortableType {}

extension Int: SortableType {}
extension Int8: SortableType {}
extension Int16: SortableType {}
extension Int32: SortableType {}
extension Int64: SortableType {}
extension Float: SortableType {}
extension Double: SortableType {}
extension String: SortableType {}
extension Data: SortableType {}
extension Date: SortableType {}
extension Decimal: SortableType {}
extension Decimal128: SortableType {}
extension AnyRealmValue: SortableType {}
extension Optional: SortableType where Wrapped: SortableType {}

extension RealmCollection where Element: SortableType {
    /// The values of this managed list, set or results of values, sorted
    /// in Realm's order of values, as live ``Results``: they follow the
    /// collection's changes.
    ///
    /// ```swift
    /// let scores = player.scores.sorted(ascending: false)   // Results<Int>
    /// ```
    ///
    /// nil sorts first when ascending; strings by their UTF-8 bytes; data
    /// by its bytes, a prefix first; mixed values by kind (nil, Booleans,
    /// numbers, strings, data, dates, object ids, UUIDs, objects), numbers
    /// of different types by value.
    ///
    /// - Precondition: the collection is managed by a Realm.
    public func sorted(ascending: Bool = true) -> Results<Element> {
        valueResults("sorted(ascending:)") { $0.sorted(ascending: ascending) }
    }

    /// The values of this managed list, set or results of values without
    /// repetitions, each where it first appears, as live ``Results``.
    ///
    /// - Precondition: the collection is managed by a Realm.
    public func distinct() -> Results<Element> {
        valueResults("distinct()") { $0.distinct() }
    }

    private func valueResults(_ method: String, _ derive: (ValueSelection) -> ValueSelection) -> Results<Element> {
        guard let (realm, selection) = ValueSelection.of(self) else {
            preconditionFailure("\(method) may only be called on a \(Self.self) managed by a Realm.")
        }
        return Results(realm: realm, values: derive(selection))
    }
}

extension Map where Value: SortableType {
    /// The values of this managed map, sorted in Realm's order of values
    /// (see ``RealmCollection/sorted(ascending:)``), as live ``Results``.
    ///
    /// - Precondition: the map is managed by a Realm.
    public func sorted(ascending: Bool = true) -> Results<Value> {
        guard let (realm, handle) = managed else {
            preconditionFailure("sorted(ascending:) may only be called on a Map managed by a Realm.")
        }
        return Results(realm: realm, values: ValueSelection(.map, handle: handle).sorted(ascending: ascending))
    }
}

extension ValueSelection {
    /// Every value of a managed list or set, or the selection of results of
    /// values, wrapped in ``AnyRealmCollection``s or not, with the Realm
    /// managing them; nil for other collections.
    static func of<C: RealmCollection>(_ collection: C) -> (Realm, ValueSelection)? {
        if let results = collection as? Results<C.Element> {
            guard let realm = results.realm, let selection = results.valueSelection else { return nil }
            return (realm, selection)
        }
        if let list = collection as? List<C.Element> {
            return list.managed.map { ($0.realm, ValueSelection(.list, handle: $0.handle)) }
        }
        if let set = collection as? MutableSet<C.Element> {
            return set.managed.map { ($0.realm, ValueSelection(.set, handle: $0.handle)) }
        }
        if let wrapped = collection as? AnyRealmCollection<C.Element> {
            return of(wrapped.base)
        }
        return nil
    }
}
