import Foundation
import RealmCore
import RealmQuery

/// The objects of one class that match a query, in a live, lazily evaluated
/// collection.
///
/// A `Results` runs its query on first use and again only after its Realm
/// moved to another version (a refresh, or a write): so it always reflects
/// the Realm's current state (`puppies.count` is 0, then 1 after a dog is
/// added). `count` is computed in SQL without loading objects; elements are
/// made on access. Iterating with `for … in` walks a snapshot of the
/// matches taken when the loop starts, so changing the matched objects
/// inside the loop is safe.
public final class Results<Element: Object>: RealmCollection {
    public let realm: Realm?
    let query: Query
    private var cachedKeys: [ObjectKey] = []
    private var cachedStamp: UInt64?

    init(realm: Realm, query: Query) {
        self.realm = realm
        self.query = query
    }

    public var _query: Query? { query }

    public var isInvalidated: Bool { realm == nil }

    /// The name of the class of the objects.
    public var objectClassName: String { query.className }

    // MARK: Evaluation

    /// The keys of the matching objects at the Realm's current version.
    func keys() -> [ObjectKey] {
        guard let realm else { return [] }
        realm.verifyThread()
        // A class the file does not have yet has no objects.
        guard realm.state.handleIfStored(query.className) != nil else { return [] }
        let stamp = realm.transaction.changeCounter
        if cachedStamp == stamp { return cachedKeys }
        cachedKeys = realm.perform("evaluate a query on '\(query.className)'") { transaction in
            try query.objectKeys(in: transaction)
        }
        cachedStamp = realm.transaction.changeCounter
        return cachedKeys
    }

    public var count: Int {
        guard let realm else { return 0 }
        realm.verifyThread()
        guard realm.state.handleIfStored(query.className) != nil else { return 0 }
        if cachedStamp == realm.transaction.changeCounter { return cachedKeys.count }
        return realm.perform("count the objects of '\(query.className)'") { transaction in
            try query.count(in: transaction)
        }
    }

    public subscript(position: Int) -> Element {
        let keys = keys()
        precondition(position >= 0 && position < keys.count, "Index \(position) is out of bounds (must be less than \(keys.count)).")
        return realm!.makeObject(Element.self, key: keys[position], className: query.className)
    }

    public var first: Element? {
        let keys = keys()
        return keys.first.map { realm!.makeObject(Element.self, key: $0, className: query.className) }
    }

    public var last: Element? {
        let keys = keys()
        return keys.last.map { realm!.makeObject(Element.self, key: $0, className: query.className) }
    }

    /// Iterates over a snapshot of the matches taken now.
    public func makeIterator() -> Iterator {
        Iterator(realm: realm, keys: keys(), className: query.className)
    }

    /// Iterates over the matches as they were when iteration began.
    public struct Iterator: IteratorProtocol {
        let realm: Realm?
        let keys: [ObjectKey]
        let className: String
        var position = 0

        public mutating func next() -> Element? {
            guard let realm, position < keys.count else { return nil }
            defer { position += 1 }
            return realm.makeObject(Element.self, key: keys[position], className: className)
        }
    }

    // MARK: Derived results

    func filter(_ format: String, arguments: [Any]) -> Results<Element> {
        guard let realm else { return self }
        let predicate = realm.parsePredicate(format, arguments: arguments, className: query.className)
        var derived = query
        derived.predicate = query.predicate.and(predicate)
        return Results(realm: realm, query: realm.validated(derived, format: format))
    }

    func sorted(by descriptors: [RealmQuery.SortDescriptor]) -> Results<Element> {
        guard let realm else { return self }
        var derived = query
        derived.sort = descriptors
        return Results(realm: realm, query: realm.validated(derived, format: descriptors.map(\.keyPath).joined(separator: ", ")))
    }

    func distinct(by keyPaths: [String]) -> Results<Element> {
        guard let realm else { return self }
        var derived = query
        derived.distinct = keyPaths
        return Results(realm: realm, query: realm.validated(derived, format: keyPaths.joined(separator: ", ")))
    }

    func aggregate<T: _Persistable>(_ kind: AggregateKind, _ property: String) -> T? {
        guard let realm else { return nil }
        let value = realm.perform("compute \(kind) of '\(query.className).\(property)'") { transaction in
            try query.aggregate(kind, keyPath: property, in: transaction)
        }
        return value.isNull ? nil : T._fromValue(Self.converted(value, to: T._propertyType), in: realm)
    }

    /// Aggregates come back in the stored type (an average of ints is a
    /// double); convert to what the caller asked for.
    private static func converted(_ value: Value, to type: PropertyType) -> Value {
        switch (value, type) {
        case (.int(let int), .double): .double(Double(int))
        case (.int(let int), .float): .float(Float(int))
        case (.double(let double), .int): .int(Int64(double))
        case (.double(let double), .float): .float(Float(double))
        case (.float(let float), .double): .double(Double(float))
        default: value
        }
    }
}
