import Foundation
import RealmCore
import RealmQuery

/// Which values a ``Results`` of values holds: those of one managed list,
/// set or map of values, in the collection's order or sorted in Realm's
/// order of values, with their repetitions or without.
///
/// A selection names its collection by handle, valid in the Realm that
/// made it; ``payload(in:)`` and ``resolve(_:in:)`` carry it to another
/// Realm (a frozen one, or another thread's).
struct ValueSelection: Sendable {
    /// The kind of collection the values come from.
    enum Source: Sendable, CustomStringConvertible {
        case list, set, map

        var description: String {
            switch self {
            case .list: "a list"
            case .set: "a set"
            case .map: "a map"
            }
        }
    }

    let source: Source
    let handle: ListHandle
    /// Ascending or descending in Realm's order of values; nil keeps the
    /// collection's order.
    var ascending: Bool?
    /// Whether a value equal to an earlier one is left out.
    var isDistinct = false

    init(_ source: Source, handle: ListHandle) {
        self.source = source
        self.handle = handle
    }

    /// The same values, sorted.
    func sorted(ascending: Bool) -> ValueSelection {
        var sorted = self
        sorted.ascending = ascending
        return sorted
    }

    /// The same values without repetitions.
    func distinct() -> ValueSelection {
        var distinct = self
        distinct.isDistinct = true
        return distinct
    }

    /// The stored values selected, at the transaction's version. A deleted
    /// owner's collection has none.
    func values(in transaction: Transaction) throws(RealmError) -> [Value] {
        var values: [Value]
        switch source {
        case .list: values = try transaction.values(of: handle)
        case .set: values = try transaction.setValues(of: handle)
        case .map: values = try transaction.entries(of: handle).map(\.value)
        }
        if isDistinct { values = Self.withoutRepetitions(values) }
        if let ascending {
            values.sort { lhs, rhs in
                SQLOrdering.compare(lhs, rhs) == (ascending ? .orderedAscending : .orderedDescending)
            }
        }
        return values
    }

    /// Whether the object owning the collection still exists.
    func exists(in realm: Realm) -> Bool {
        realm.objectExists(key: handle.owner, handle: handle.owningClass)
    }

    /// Each value once, where it first appears. Values are equal as Realm
    /// compares them, so that in a mixed collection `1` and `1.0` are one.
    private static func withoutRepetitions(_ values: [Value]) -> [Value] {
        guard values.count > 1 else { return values }
        // Sorting the positions brings equal values together; the first
        // position of each run stays.
        let order = values.indices.sorted { lhs, rhs in
            switch SQLOrdering.compare(values[lhs], values[rhs]) {
            case .orderedAscending: true
            case .orderedDescending: false
            case .orderedSame: lhs < rhs
            }
        }
        var kept = [Bool](repeating: false, count: values.count)
        kept[order[0]] = true
        for (previous, current) in zip(order, order.dropFirst())
        where SQLOrdering.compare(values[previous], values[current]) != .orderedSame {
            kept[current] = true
        }
        return values.indices.filter { kept[$0] }.map { values[$0] }
    }

    // MARK: Carrying a selection to another Realm

    /// The thread-independent description of the selection, made in the
    /// Realm whose handle it holds.
    func payload(in realm: Realm) -> ThreadConfinedPayload {
        let className = handle.owningClass.className
        let property = realm.propertyName(handle.property, of: handle.owningClass)
        let collection: ThreadConfinedPayload = switch source {
        case .list: .list(className: className, owner: handle.owner, property: property)
        case .set: .set(className: className, owner: handle.owner, property: property)
        case .map: .map(className: className, owner: handle.owner, property: property)
        }
        return .values(collection, ascending: ascending, distinct: isDistinct)
    }

    /// The selection a payload describes, in `realm`; nil when it describes
    /// no selection, or the owning object does not exist there.
    static func resolve(_ payload: ThreadConfinedPayload, in realm: Realm) -> ValueSelection? {
        guard case .values(let collection, let ascending, let distinct) = payload else { return nil }
        let source: Source, className: String, owner: ObjectKey, property: String
        switch collection {
        case .list(let name, let key, let named): (source, className, owner, property) = (.list, name, key, named)
        case .set(let name, let key, let named): (source, className, owner, property) = (.set, name, key, named)
        case .map(let name, let key, let named): (source, className, owner, property) = (.map, name, key, named)
        default: return nil
        }
        guard let (handle, index) = realm.collectionProperty(property, of: owner, className: className) else { return nil }
        var selection = ValueSelection(source, handle: ListHandle(owningClass: handle, owner: owner, property: index))
        selection.ascending = ascending
        selection.isDistinct = distinct
        return selection
    }
}
