import RealmCore
import RealmQuery

// Aggregates of a property named by a Swift key path (Realm 10's
// `min(of: \.age)`), on collections of objects and on maps of objects, and
// by name on maps of objects.

extension RealmCollection where Element: Object {
    /// The smallest value of the property `keyPath` reads among the
    /// objects, or nil when empty.
    public func min<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T? {
        min(ofProperty: KeyPathNames.name(of: keyPath, in: Element.self))
    }

    /// The largest value of the property `keyPath` reads among the
    /// objects, or nil when empty.
    public func max<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T? {
        max(ofProperty: KeyPathNames.name(of: keyPath, in: Element.self))
    }

    /// The sum of the numeric property `keyPath` reads (zero when empty).
    public func sum<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T {
        sum(ofProperty: KeyPathNames.name(of: keyPath, in: Element.self))
    }

    /// The average of the numeric property `keyPath` reads, or nil when
    /// empty.
    public func average<T: _Persistable>(of keyPath: KeyPath<Element, T>) -> T? {
        average(ofProperty: KeyPathNames.name(of: keyPath, in: Element.self))
    }
}

extension Map {
    /// The smallest value of a property among the objects the map holds
    /// (nil values left out), or nil when there are none.
    public func min<T: _Persistable, Target: Object>(ofProperty property: String) -> T? where Value == Target? {
        InMemoryAggregation.compute(.min, of: property, among: values.compactMap { $0 })
    }

    /// The largest value of a property among the objects the map holds,
    /// or nil when there are none.
    public func max<T: _Persistable, Target: Object>(ofProperty property: String) -> T? where Value == Target? {
        InMemoryAggregation.compute(.max, of: property, among: values.compactMap { $0 })
    }

    /// The sum of a numeric property of the objects the map holds (zero
    /// when there are none).
    public func sum<T: _Persistable, Target: Object>(ofProperty property: String) -> T where Value == Target? {
        InMemoryAggregation.compute(.sum, of: property, among: values.compactMap { $0 }) ?? T._defaultValue
    }

    /// The average of a numeric property of the objects the map holds, or
    /// nil when there are none.
    public func average<T: _Persistable, Target: Object>(ofProperty property: String) -> T? where Value == Target? {
        InMemoryAggregation.compute(.average, of: property, among: values.compactMap { $0 })
    }

    /// ``min(ofProperty:)`` of the property `keyPath` reads.
    public func min<T: _Persistable, Target: Object>(of keyPath: KeyPath<Target, T>) -> T? where Value == Target? {
        min(ofProperty: KeyPathNames.name(of: keyPath, in: Target.self))
    }

    /// ``max(ofProperty:)`` of the property `keyPath` reads.
    public func max<T: _Persistable, Target: Object>(of keyPath: KeyPath<Target, T>) -> T? where Value == Target? {
        max(ofProperty: KeyPathNames.name(of: keyPath, in: Target.self))
    }

    /// ``sum(ofProperty:)`` of the property `keyPath` reads.
    public func sum<T: _Persistable, Target: Object>(of keyPath: KeyPath<Target, T>) -> T where Value == Target? {
        sum(ofProperty: KeyPathNames.name(of: keyPath, in: Target.self))
    }

    /// ``average(ofProperty:)`` of the property `keyPath` reads.
    public func average<T: _Persistable, Target: Object>(of keyPath: KeyPath<Target, T>) -> T? where Value == Target? {
        average(ofProperty: KeyPathNames.name(of: keyPath, in: Target.self))
    }
}

/// An aggregate over objects in memory: the unmanaged collections Realm
/// lets aggregate, and the objects a map holds.
enum InMemoryAggregation {
    /// `kind` of `property` of `objects`, as the SQL aggregate computes it
    /// (nil values left out); nil when there is no value.
    static func compute<T: _Persistable>(_ kind: AggregateKind, of property: String, among objects: [Object]) -> T? {
        let type = objects.first?.objectSchema[propertyNamed: property]?.type ?? T._propertyType
        let values = objects.map { object -> Value in
            guard let value = object[property] as? _Persistable else { return .null }
            return (try? value._toValue(in: nil)) ?? .null
        }
        let result = Aggregation.compute(kind, of: values, type: type)
        return result.isNull ? nil : T._fromValue(Results<Object>.converted(result, to: T._propertyType), in: nil)
    }
}
