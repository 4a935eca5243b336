import Foundation
import RealmCore
import RealmQuery

/// The typed query builder: Swift expressions that build the same
/// predicates as the query language, checked by the compiler.
///
/// ```swift
/// let dogs = realm.objects(Dog.self).where { $0.age > 2 && $0.name.starts(with: "B") }
/// let owned = realm.objects(Dog.self).where { $0.owner.name == "Tim" }
/// let busy = realm.objects(Person.self).where { $0.dogs.count > 1 }
/// ```
@dynamicMemberLookup
public struct ObjectQuery<Root: Object> {
    let prefix: String

    /// A stored property of the object, by key path.
    public subscript<V: _Persistable>(dynamicMember keyPath: KeyPath<Root, V>) -> PropertyQuery<V> {
        PropertyQuery(path: prefix + KeyPathNames.name(of: keyPath, in: Root.self))
    }

    /// A to-one link, to reach the linked object's properties.
    public subscript<Linked: Object>(dynamicMember keyPath: KeyPath<Root, Linked?>) -> ObjectQuery<Linked> {
        ObjectQuery<Linked>(prefix: prefix + KeyPathNames.name(of: keyPath, in: Root.self) + ".")
    }

    /// A list property.
    public subscript<Element>(dynamicMember keyPath: KeyPath<Root, List<Element>>) -> ListQuery<Element> {
        ListQuery(path: prefix + KeyPathNames.name(of: keyPath, in: Root.self))
    }
}

/// A property in a typed query.
public struct PropertyQuery<Value: _Persistable> {
    let path: String

    func compare(_ op: ComparisonOperator, _ value: Value, options: StringOptions = []) -> QueryCondition {
        if Self.isUnmanagedObject(value) {
            // No object of the Realm, as in Realm: equal to none, unequal
            // to every one.
            return QueryCondition(op == .notEqual ? .truePredicate : .falsePredicate)
        }
        let stored = (try? value._toValue(in: nil)) ?? .null
        return QueryCondition(.compare(.keyPath(path), op, .value(stored), options: options))
    }

    /// Whether the value is one of `values` (unmanaged objects among them
    /// match nothing).
    public func `in`<S: Sequence>(_ values: S) -> QueryCondition where S.Element == Value {
        let stored = values.filter { !Self.isUnmanagedObject($0) }.map { (try? $0._toValue(in: nil)) ?? .null }
        return QueryCondition(.compare(.keyPath(path), .in, .values(stored)))
    }

    private static func isUnmanagedObject(_ value: Value) -> Bool {
        guard Value._objectType != nil, let object = value as? Object else { return false }
        return object._realm == nil
    }

    /// Equality and inequality (nil equals nil, as in the query language).
    public static func == (lhs: PropertyQuery, rhs: Value) -> QueryCondition { lhs.compare(.equal, rhs) }
    public static func != (lhs: PropertyQuery, rhs: Value) -> QueryCondition { lhs.compare(.notEqual, rhs) }
}

extension PropertyQuery where Value: Comparable {
    /// Ordering comparisons, for types with an order.
    public static func < (lhs: PropertyQuery, rhs: Value) -> QueryCondition { lhs.compare(.lessThan, rhs) }
    public static func <= (lhs: PropertyQuery, rhs: Value) -> QueryCondition { lhs.compare(.lessThanOrEqual, rhs) }
    public static func > (lhs: PropertyQuery, rhs: Value) -> QueryCondition { lhs.compare(.greaterThan, rhs) }
    public static func >= (lhs: PropertyQuery, rhs: Value) -> QueryCondition { lhs.compare(.greaterThanOrEqual, rhs) }

    /// Whether the value lies within `range` (`BETWEEN`).
    public func contains(_ range: ClosedRange<Value>) -> QueryCondition {
        let bounds = [range.lowerBound, range.upperBound].map { (try? $0._toValue(in: nil)) ?? .null }
        return QueryCondition(.compare(.keyPath(path), .between, .values(bounds)))
    }
}

extension PropertyQuery where Value == String {
    /// `BEGINSWITH`, with `[c]`/`[d]` options.
    public func starts(with prefix: String, options: StringOptions = []) -> QueryCondition {
        compare(.beginsWith, prefix, options: options)
    }
    /// `ENDSWITH`.
    public func ends(with suffix: String, options: StringOptions = []) -> QueryCondition {
        compare(.endsWith, suffix, options: options)
    }
    /// `CONTAINS`.
    public func contains(_ text: String, options: StringOptions = []) -> QueryCondition {
        compare(.contains, text, options: options)
    }
    /// `LIKE`, with `*` and `?` wildcards.
    public func like(_ pattern: String, caseInsensitive: Bool = false) -> QueryCondition {
        compare(.like, pattern, options: caseInsensitive ? .caseInsensitive : [])
    }
}

/// A list property in a typed query.
@dynamicMemberLookup
public struct ListQuery<Element> {
    let path: String

    /// The list's size (`@count`).
    public var count: CountQuery { CountQuery(path: path) }
}

extension ListQuery where Element: Object {
    /// A property of the list's objects, to aggregate over the list:
    /// `$0.dogs.age.max > 5` (`dogs.@max.age > 5`).
    public subscript<V: _Persistable>(dynamicMember keyPath: KeyPath<Element, V>) -> AggregatableQuery<V> {
        AggregatableQuery(collection: path, property: KeyPathNames.name(of: keyPath, in: Element.self))
    }

    /// Whether any element of the list matches `condition` (`ANY`).
    public func any(_ condition: (ObjectQuery<Element>) -> QueryCondition) -> QueryCondition {
        quantified(condition, .any)
    }

    /// Whether every element of the list matches `condition` (`ALL`); true
    /// for an empty list.
    public func all(_ condition: (ObjectQuery<Element>) -> QueryCondition) -> QueryCondition {
        quantified(condition, .all)
    }

    /// Whether no element of the list matches `condition` (`NONE`).
    public func none(_ condition: (ObjectQuery<Element>) -> QueryCondition) -> QueryCondition {
        quantified(condition, .none)
    }

    /// One comparison takes the modifier (`ANY dogs.age > 2`). A compound
    /// condition must hold for one element as a whole, which the modifier
    /// on each comparison would not say (`ANY a AND ANY b` may match two
    /// different elements), so it becomes a `SUBQUERY`.
    private func quantified(_ condition: (ObjectQuery<Element>) -> QueryCondition, _ modifier: ComparisonModifier) -> QueryCondition {
        let simple = condition(ObjectQuery(prefix: path + ".")).predicate
        if case .comparison(let comparison) = simple, comparison.modifier == .direct {
            return QueryCondition(simple.withModifier(modifier))
        }
        // Nested quantifiers each need a variable of their own.
        let variable = "element\(path.count { $0 == "$" })"
        let inner = condition(ObjectQuery(prefix: "$" + variable + ".")).predicate
        let matching: (RealmQuery.Predicate, ComparisonOperator) = switch modifier {
        case .all: (.not(inner), .equal)
        case .none: (inner, .equal)
        default: (inner, .greaterThan)
        }
        let count = QueryExpression.subqueryCount(collection: path, variable: variable, predicate: matching.0)
        return QueryCondition(.compare(count, matching.1, .value(.int(0))))
    }
}

extension ListQuery where Element: _Persistable {
    /// The values of a list of values, to aggregate: `$0.scores.max > 5`.
    private var values: AggregatableQuery<Element> { AggregatableQuery(collection: path, property: nil) }

    /// The smallest value (`@min`); nil for an empty list.
    public var min: AggregateQuery<Element> { values.min }
    /// The largest value (`@max`); nil for an empty list.
    public var max: AggregateQuery<Element> { values.max }
    /// The sum of the values (`@sum`); zero for an empty list.
    public var sum: AggregateQuery<Element> { values.sum }
    /// The mean of the values (`@avg`); nil for an empty list.
    public var avg: AggregateQuery<Double> { values.avg }

    /// Whether the list holds `value` (`ANY list == value`); an unmanaged
    /// object is in no list, as in Realm.
    public func contains(_ value: Element) -> QueryCondition {
        if Element._objectType != nil, let object = value as? Object, object._realm == nil {
            return QueryCondition(.falsePredicate)
        }
        let stored = (try? value._toValue(in: nil)) ?? .null
        return QueryCondition(.compare(.keyPath(path), .equal, .value(stored), modifier: .any))
    }
}

/// Values of a list (a list of values, or a property of a list's objects)
/// that aggregates summarize.
public struct AggregatableQuery<Value: _Persistable> {
    let collection: String
    let property: String?

    private func aggregate<Result>(_ operation: CollectionOperation) -> AggregateQuery<Result> {
        AggregateQuery(expression: .collectionOperation(operation, collection: collection, property: property))
    }

    /// The smallest value (`@min`); nil for an empty list.
    public var min: AggregateQuery<Value> { aggregate(.min) }
    /// The largest value (`@max`); nil for an empty list.
    public var max: AggregateQuery<Value> { aggregate(.max) }
    /// The sum of the values (`@sum`); zero for an empty list.
    public var sum: AggregateQuery<Value> { aggregate(.sum) }
    /// The mean of the values (`@avg`); nil for an empty list.
    public var avg: AggregateQuery<Double> { aggregate(.average) }
}

/// An aggregate of a list (`@min`, `@max`, `@sum`, `@avg`), compared with a
/// constant.
public struct AggregateQuery<Value: _Persistable> {
    let expression: QueryExpression

    private func compare(_ op: ComparisonOperator, _ value: Value) -> QueryCondition {
        let stored = (try? value._toValue(in: nil)) ?? .null
        return QueryCondition(.compare(expression, op, .value(stored)))
    }

    /// Equality and inequality with a constant.
    public static func == (lhs: AggregateQuery, rhs: Value) -> QueryCondition { lhs.compare(.equal, rhs) }
    public static func != (lhs: AggregateQuery, rhs: Value) -> QueryCondition { lhs.compare(.notEqual, rhs) }
}

extension AggregateQuery where Value: Comparable {
    /// Ordering comparisons with a constant.
    public static func < (lhs: AggregateQuery, rhs: Value) -> QueryCondition { lhs.compare(.lessThan, rhs) }
    public static func <= (lhs: AggregateQuery, rhs: Value) -> QueryCondition { lhs.compare(.lessThanOrEqual, rhs) }
    public static func > (lhs: AggregateQuery, rhs: Value) -> QueryCondition { lhs.compare(.greaterThan, rhs) }
    public static func >= (lhs: AggregateQuery, rhs: Value) -> QueryCondition { lhs.compare(.greaterThanOrEqual, rhs) }
}

/// A list's `@count` in a typed query.
public struct CountQuery {
    let path: String

    private func compare(_ op: ComparisonOperator, _ value: Int) -> QueryCondition {
        QueryCondition(.compare(.collectionOperation(.count, collection: path, property: nil), op, .value(.int(Int64(value)))))
    }

    /// Comparisons of the list's size with a constant.
    public static func == (lhs: CountQuery, rhs: Int) -> QueryCondition { lhs.compare(.equal, rhs) }
    public static func != (lhs: CountQuery, rhs: Int) -> QueryCondition { lhs.compare(.notEqual, rhs) }
    public static func < (lhs: CountQuery, rhs: Int) -> QueryCondition { lhs.compare(.lessThan, rhs) }
    public static func <= (lhs: CountQuery, rhs: Int) -> QueryCondition { lhs.compare(.lessThanOrEqual, rhs) }
    public static func > (lhs: CountQuery, rhs: Int) -> QueryCondition { lhs.compare(.greaterThan, rhs) }
    public static func >= (lhs: CountQuery, rhs: Int) -> QueryCondition { lhs.compare(.greaterThanOrEqual, rhs) }
}

/// A condition of the typed query builder; combine with `&&`, `||`, `!`.
public struct QueryCondition {
    let predicate: RealmQuery.Predicate

    init(_ predicate: RealmQuery.Predicate) {
        self.predicate = predicate
    }

    /// Both conditions (`AND`).
    public static func && (lhs: QueryCondition, rhs: QueryCondition) -> QueryCondition {
        QueryCondition(lhs.predicate.and(rhs.predicate))
    }

    /// Either condition (`OR`).
    public static func || (lhs: QueryCondition, rhs: QueryCondition) -> QueryCondition {
        QueryCondition(lhs.predicate.or(rhs.predicate))
    }

    /// The opposite condition (`NOT`).
    public static prefix func ! (condition: QueryCondition) -> QueryCondition {
        QueryCondition(.not(condition.predicate))
    }
}

extension RealmQuery.Predicate {
    /// The same comparisons, quantified over lists.
    func withModifier(_ modifier: ComparisonModifier) -> RealmQuery.Predicate {
        switch self {
        case .comparison(var comparison):
            comparison.modifier = modifier
            return .comparison(comparison)
        case .and(let operands): return .and(operands.map { $0.withModifier(modifier) })
        case .or(let operands): return .or(operands.map { $0.withModifier(modifier) })
        case .not(let operand): return .not(operand.withModifier(modifier))
        default: return self
        }
    }
}

extension RealmCollection where Element: Object {
    /// The objects matching a typed condition, as a live ``Results``.
    public func `where`(_ condition: (ObjectQuery<Element>) -> QueryCondition) -> Results<Element> {
        let built = condition(ObjectQuery(prefix: "")).predicate
        return results().filter(predicate: built)
    }
}

extension Results {
    func filter(predicate: RealmQuery.Predicate) -> Results<Element> {
        guard let realm else { return self }
        var derived = query
        derived.predicate = query.predicate.and(predicate)
        return Results(realm: realm, query: realm.validated(derived))
    }
}

/// Turns a key path of a model class into the stored property's name, by
/// reading it on a probe object that records which property was read (for
/// `@Persisted` properties) or by identity (for lists).
enum KeyPathNames {
    static func name<Root: Object, V>(of keyPath: KeyPath<Root, V>, in root: Root.Type) -> String {
        let info = ClassInfo.of(root)
        let probe = root.init()
        var recorded: Int?
        probe._accessRecorder = AccessRecorder(record: { recorded = $0 })
        let value = probe[keyPath: keyPath]
        probe._accessRecorder = nil
        if recorded == nil, let reference = value as AnyObject?,
           let match = info.layout.references(of: probe).first(where: { $0.object === reference }) {
            recorded = match.index
        }
        guard let index = recorded else {
            preconditionFailure("Key path \(keyPath) does not name a stored property of '\(info.className)'.")
        }
        return info.objectSchema.properties[index].name
    }

    /// The stored properties a key path of a model class reads, through
    /// links (`\Person.address?.city` reads `address`, then `city`); what
    /// it reads after the last stored property (`\Person.name.count`) is
    /// left out. A `let` collection (`\Person.dogs`) is found by identity.
    /// Empty when it reads no stored property.
    static func path(of keyPath: AnyKeyPath, in root: Object.Type) -> [String] {
        path(in: root) { $0[keyPath: keyPath] }
    }

    /// The stored properties `read` reads of a probe of `root` (see
    /// ``path(of:in:)``): for key paths read through something built on
    /// the root object, such as a projection.
    static func path(in root: Object.Type, reading read: (Object) -> Any?) -> [String] {
        final class Names { var values: [String] = [] }
        let names = Names()
        func makeProbe(_ type: Object.Type) -> Object {
            let info = ClassInfo.of(type)
            let probe = type.init()
            probe._accessRecorder = AccessRecorder(record: { names.values.append(info.objectSchema.properties[$0].name) },
                                                   probe: { makeProbe($0) })
            return probe
        }
        let probe = makeProbe(root)
        let value = read(probe)
        if names.values.isEmpty, let reference = value as AnyObject? {
            let info = ClassInfo.of(root)
            if let match = info.layout.references(of: probe).first(where: { $0.object === reference }) {
                return [info.objectSchema.properties[match.index].name]
            }
        }
        return names.values
    }
}

/// The typed query builder of a projection: each of its properties stands
/// for the root's stored property it reads, as in Realm.
///
/// ```swift
/// let smiths = realm.objects(PersonProjection.self).where { $0.homeCity == "Oslo" }
/// ```
///
/// A projected key path that transforms what it reads
/// (`\Person.lastName.localizedUppercase`) compares the stored property
/// (`lastName`), untransformed.
@dynamicMemberLookup
public struct ProjectionQuery<Projected: ProjectionObservable> {
    /// A projected property, by key path.
    public subscript<V: _Persistable>(dynamicMember keyPath: KeyPath<Projected, V>) -> PropertyQuery<V> {
        PropertyQuery(path: ProjectionSchema.rootPath(of: keyPath, in: Projected.self))
    }
}

extension RealmCollection where Element: ProjectionObservable & RealmFetchable {
    /// The projections matching a typed condition on their properties, as
    /// a live ``Results``.
    public func `where`(_ condition: (ProjectionQuery<Element>) -> QueryCondition) -> Results<Element> {
        results().filter(predicate: condition(ProjectionQuery()).predicate)
    }
}
