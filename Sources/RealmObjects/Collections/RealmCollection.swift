import Foundation
import RealmCore
import RealmQuery

/// The type of values a Realm collection holds: any storable type, objects
/// included.
public typealias RealmCollectionValue = _Persistable

/// The interface shared by ``Results``, ``List``, ``LinkingObjects`` and
/// ``AnyRealmCollection``: a random-access collection that can be queried,
/// sorted and aggregated.
///
/// ```swift
/// func operateOn<C: RealmCollection>(collection: C) {
///     print("operating on collection containing \(collection.count) objects")
/// }
/// ```
public protocol RealmCollection: RandomAccessCollection, CustomStringConvertible, RealmCollectionBase, ThreadConfined
where Index == Int, Element: RealmCollectionValue {
    /// Realm Swift's name for the element type, which generic code over
    /// Realm collections constrains (`where C.ElementType == Dog`).
    typealias ElementType = Element

    /// The Realm managing the collection, or nil for an unmanaged list.
    var realm: Realm? { get }
    /// Whether the collection can no longer be used (its Realm or owner is
    /// gone).
    var isInvalidated: Bool { get }
    /// The query that produces the collection's objects, for collections of
    /// objects; nil for unmanaged lists and lists of values.
    var _query: Query? { get }
}

/// The part of a Realm collection that does not depend on its element type.
public protocol RealmCollectionBase {
    var count: Int { get }
}

extension RealmCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The collection and its first elements in Realm's format:
    /// `Results<Dog> <0x…> (` with each element described on its own lines
    /// (see ``Object/description``).
    public var description: String {
        ObjectDescription.describe(self)
    }

    /// The index of the first element equal to `element` (for objects: the
    /// same stored object), or nil.
    public func index(of element: Element) -> Int? {
        firstIndex { Self.same($0, element) }
    }

    static func same(_ lhs: Element, _ rhs: Element) -> Bool {
        if let left = lhs as? Object, let right = rhs as? Object { return left.isSameObject(as: right) }
        // An object in a mixed value has no stored form without its Realm:
        // it is the same object, or another value.
        if let left = lhs as? AnyRealmValue, let right = rhs as? AnyRealmValue, left.holdsObject || right.holdsObject {
            return left == right
        }
        return (try? lhs._toValue(in: nil)) == (try? rhs._toValue(in: nil))
    }

    /// The values of the property named `key` of every element, in order;
    /// for `"self"`, the elements themselves (a mixed value's payload, nil
    /// for none), as key-value coding gives them.
    ///
    /// - Precondition: the elements are objects, or `key` is `"self"`
    ///   (Realm's `NSUnknownKeyException`).
    public func value(forKey key: String) -> [Any?] {
        if key == "self" { return map(Self.keyValue(of:)) }
        precondition(Element._objectType != nil, Self.unknownKey(key))
        return map { element in (element as? Object)?[key] }
    }

    /// Sets the property named `key` of every element (inside a write
    /// transaction).
    ///
    /// - Precondition: the elements are objects (Realm's
    ///   `NSUnknownKeyException` otherwise).
    public func setValue(_ value: Any?, forKey key: String) {
        precondition(Element._objectType != nil, Self.unknownKey(key))
        for element in self { (element as? Object)?[key] = value }
    }

    /// An element as key-value coding hands it out: an object as itself,
    /// a value as its Swift payload, nil for none.
    private static func keyValue(of element: Element) -> Any? {
        if let object = element as? Object { return object }
        if let mixed = element as? AnyRealmValue, mixed == .none { return nil }
        let payload = element._keyValue
        return payload is NSNull ? nil : payload
    }

    /// Realm's message for a key its elements do not have.
    private static func unknownKey(_ key: String) -> String {
        "[<\(Self.self)> valueForUndefinedKey:]: this class is not key value coding-compliant for the key \(key)."
    }

    /// The values at `keyPath` of every element, in order (see
    /// ``Object/value(forKeyPath:)``), as an array; or, as key-value
    /// coding's collection operators give it, `@count` (an `Int`),
    /// `@min.age`, `@max.age`, `@sum.age` (in the property's type),
    /// `@avg.age` (a `Double`), `@unionOfObjects.name` and
    /// `@distinctUnionOfObjects.name` (arrays).
    public func value(forKeyPath keyPath: String) -> Any? {
        guard keyPath.hasPrefix("@") else {
            return map { element in (element as? Object)?.value(forKeyPath: keyPath) ?? nil } as [Any?]
        }
        let parts = keyPath.split(separator: ".", maxSplits: 1).map(String.init)
        if parts[0] == "@count" { return count }
        guard parts.count == 2 else {
            preconditionFailure("Invalid key path '\(keyPath)': a collection operator other than @count needs a property.")
        }
        let values = map { element in (element as? Object)?.value(forKeyPath: parts[1]) ?? nil }
        let aggregate: AggregateKind
        switch parts[0] {
        case "@unionOfObjects": return values
        case "@distinctUnionOfObjects":
            var seen: Set<Value> = []
            return values.filter { value in
                seen.insert((value as? _Persistable).flatMap { try? $0._toValue(in: nil) } ?? .null).inserted
            }
        case "@min": aggregate = .min
        case "@max": aggregate = .max
        case "@sum": aggregate = .sum
        case "@avg": aggregate = .average
        default: preconditionFailure("Invalid key path '\(keyPath)': unknown collection operator '\(parts[0])'.")
        }
        let stored = values.map { value in (value as? _Persistable).flatMap { try? $0._toValue(in: nil) } ?? .null }
        let type = stored.lazy.compactMap(Self.propertyType(of:)).first ?? .double
        let result = Aggregation.compute(aggregate, of: stored, type: type)
        switch result {
        case .null: return aggregate == .sum ? 0 : nil
        case .int(let int): return Int(int)
        case .float(let float): return aggregate == .average ? Double(float) : float
        case .double(let double): return double
        case .decimal(let decimal): return values.contains { $0 is Decimal } ? decimal.decimalValue : decimal
        case .date(let date): return date
        default: return nil
        }
    }

    private static func propertyType(of value: Value) -> PropertyType? {
        switch value {
        case .int: .int
        case .float: .float
        case .double: .double
        case .decimal: .decimal
        case .date: .date
        default: nil
        }
    }

    /// Sets the property at `keyPath` of every element (see
    /// ``Object/setValue(_:forKeyPath:)``), inside a write transaction:
    /// `persons.setValue("Earth", forKeyPath: "planet")`.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        for element in self { (element as? Object)?.setValue(value, forKeyPath: keyPath) }
    }
}

extension RealmCollection where Element: RealmFetchable {
    /// The objects of this collection matching a predicate in the query
    /// language (see Docs/Queries.md), as a live ``Results``.
    ///
    /// ```swift
    /// let puppies = realm.objects(Dog.self).filter("age < %@", 2)
    /// ```
    ///
    /// - Precondition: the predicate is valid for the class; an invalid one
    ///   stops with a message quoting it and naming the offending token. For
    ///   a predicate from outside the program, use ``filter(validating:_:)``.
    public func filter(_ predicateFormat: String, _ arguments: Any...) -> Results<Element> {
        results().filter(predicateFormat, arguments: arguments)
    }

    /// The objects of this collection matching a predicate that comes from
    /// outside the program (a search box, a configuration file), or an error
    /// when it does not parse or does not fit the class.
    ///
    /// ```swift
    /// do {
    ///     let matches = try realm.objects(Dog.self).filter(validating: searchText)
    /// } catch let error as Realm.Error where error.code == .invalidPredicate {
    ///     print(error.message)   // "agee > 5": Dog has no property 'agee' …
    /// }
    /// ```
    ///
    /// It costs what ``filter(_:_:)`` costs; only a failure differs.
    ///
    /// - Throws: ``Realm/Error`` with code `invalidPredicate`, whose message
    ///   quotes the predicate and points at the offending token, for a
    ///   predicate that does not parse, names a property the class does not
    ///   have, compares values of the wrong types, or has arguments that
    ///   do not match its placeholders.
    public func filter(validating predicateFormat: String, _ arguments: Any...) throws(Realm.Error) -> Results<Element> {
        try results().checkedFilter(predicateFormat, arguments: arguments)
    }

    /// The objects sorted by a property or to-one key path.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        results().sorted(by: [RealmQuery.SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// The objects sorted by several descriptors, the first most significant.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == RealmQuery.SortDescriptor {
        results().sorted(by: Array(descriptors))
    }

    /// The first object of each group with equal values at `keyPaths`, in
    /// the current order.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        results().distinct(by: Array(keyPaths))
    }

    /// The index of the first object matching the predicate, or nil; on an
    /// unmanaged list too, as Realm's standalone lists allow.
    public func index(matching predicateFormat: String, _ arguments: Any...) -> Int? {
        index(matching: predicateFormat, arguments: arguments)
    }

    func index(matching predicateFormat: String, arguments: [Any]) -> Int? {
        guard realm != nil else {
            return UnmanagedEvaluation.firstIndex(of: map(\._fetchedObject), ofClass: Element.modelClass,
                                                  matching: predicateFormat, arguments: arguments)
        }
        let matching = Set(results().filter(predicateFormat, arguments: arguments).keys())
        return indices.first { matching.contains(self[$0]._fetchedObject._key) }
    }

    /// The smallest value of a property among the objects, or nil when empty.
    public func min<T: _Persistable>(ofProperty property: String) -> T? {
        aggregate(.min, property)
    }

    /// The largest value of a property among the objects, or nil when empty.
    public func max<T: _Persistable>(ofProperty property: String) -> T? {
        aggregate(.max, property)
    }

    /// The sum of a numeric property (zero when empty).
    public func sum<T: _Persistable>(ofProperty property: String) -> T {
        aggregate(.sum, property) ?? T._defaultValue
    }

    /// The average of a numeric property, or nil when empty.
    public func average<T: _Persistable>(ofProperty property: String) -> T? {
        aggregate(.average, property)
    }

    /// An aggregate in SQL for a managed collection; over the objects'
    /// values in memory for an unmanaged list, as Realm's standalone lists
    /// allow.
    private func aggregate<T: _Persistable>(_ kind: AggregateKind, _ property: String) -> T? {
        guard realm == nil else { return results().aggregate(kind, property) }
        return InMemoryAggregation.compute(kind, of: property, among: map(\._fetchedObject))
    }

    /// This collection as a Results over the same query: itself, for a
    /// Results.
    func results() -> Results<Element> {
        if let results = self as? Results<Element> { return results }
        guard let realm, let query = _query else {
            preconditionFailure("This collection is not managed by a Realm; queries need a managed collection.")
        }
        return Results(realm: realm, query: query)
    }
}
