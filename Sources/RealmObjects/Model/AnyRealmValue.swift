import Foundation
import RealmCore

/// A value of any storable type, or nil: Realm 10's mixed type.
///
/// ```swift
/// class Setting: Object {
///     @Persisted var key = ""
///     @Persisted var value: AnyRealmValue
/// }
/// setting.value = .int(42)
/// setting.value = .string("dark")
/// setting.value = .object(someDog)
/// ```
///
/// It is stored in one column without a type, so that numbers and strings
/// read plainly in `sqlite3` (see `MixedEncoding` in RealmCore). Values of
/// different types compare and sort in Realm's order: nil, Booleans,
/// numbers (of any kind, by value), strings, data, dates, object ids,
/// UUIDs, objects, collections.
///
/// It may hold a list or a dictionary of mixed values, nested to any
/// depth:
///
/// ```swift
/// setting.value = .fromDictionary(["size": .int(3), "tags": .fromArray([.string("a")])])
/// setting.value.dictionaryValue?["tags"]?.listValue?.append(.string("b"))
/// ```
///
/// A nested collection belongs to the place that holds it: assigning it
/// elsewhere stores a copy, and giving its place another value deletes it.
///
/// It is not `Sendable`: its `object` case holds a thread-confined object.
public enum AnyRealmValue: Hashable {

    /// No value.
    case none
    /// An integer.
    case int(Int)
    /// A Boolean.
    case bool(Bool)
    /// A float.
    case float(Float)
    /// A double.
    case double(Double)
    /// A string.
    case string(String)
    /// Bytes.
    case data(Data)
    /// A date.
    case date(Date)
    /// A link to an object of any class.
    case object(Object)
    /// An object id.
    case objectId(ObjectId)
    /// A decimal.
    case decimal128(Decimal128)
    /// A UUID.
    case uuid(UUID)
    /// A dictionary of mixed values.
    case dictionary(Map<String, AnyRealmValue>)
    /// A list of mixed values.
    case list(List<AnyRealmValue>)

    /// The integer held, or nil for another case.
    public var intValue: Int? { if case .int(let value) = self { value } else { nil } }
    /// The Boolean held, or nil for another case.
    public var boolValue: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The float held, or nil for another case.
    public var floatValue: Float? { if case .float(let value) = self { value } else { nil } }
    /// The double held, or nil for another case.
    public var doubleValue: Double? { if case .double(let value) = self { value } else { nil } }
    /// The string held, or nil for another case.
    public var stringValue: String? { if case .string(let value) = self { value } else { nil } }
    /// The data held, or nil for another case.
    public var dataValue: Data? { if case .data(let value) = self { value } else { nil } }
    /// The date held, or nil for another case.
    public var dateValue: Date? { if case .date(let value) = self { value } else { nil } }
    /// The object id held, or nil for another case.
    public var objectIdValue: ObjectId? { if case .objectId(let value) = self { value } else { nil } }
    /// The decimal held, or nil for another case.
    public var decimal128Value: Decimal128? { if case .decimal128(let value) = self { value } else { nil } }
    /// The UUID held, or nil for another case.
    public var uuidValue: UUID? { if case .uuid(let value) = self { value } else { nil } }

    /// The dictionary held, or nil for another case.
    public var dictionaryValue: Map<String, AnyRealmValue>? { if case .dictionary(let value) = self { value } else { nil } }
    /// The list held, or nil for another case.
    public var listValue: List<AnyRealmValue>? { if case .list(let value) = self { value } else { nil } }

    /// A dictionary holding `dictionary`'s entries.
    public static func fromDictionary(_ dictionary: Dictionary<String, AnyRealmValue>) -> AnyRealmValue {
        let map = Map<String, AnyRealmValue>()
        map.merge(dictionary, uniquingKeysWith: { $1 })
        return .dictionary(map)
    }

    /// A list holding `array`'s elements.
    public static func fromArray(_ array: Array<AnyRealmValue>) -> AnyRealmValue {
        let list = List<AnyRealmValue>()
        list.append(objectsIn: array)
        return .list(list)
    }

    /// Whether the value is a list or a dictionary.
    var isNestedCollection: Bool {
        switch self {
        case .list, .dictionary: true
        default: false
        }
    }

    /// Whether the value is an object.
    var holdsObject: Bool {
        if case .object = self { return true }
        return false
    }

    /// The object held, when it is of class `objectType`.
    public func object<T: Object>(_ objectType: T.Type) -> T? {
        if case .object(let object) = self { return object as? T }
        return nil
    }

    /// The object held, as a dynamic object (of any class).
    public var dynamicObject: DynamicObject? {
        guard case .object(let object) = self else { return nil }
        if let dynamic = object as? DynamicObject { return dynamic }
        guard let realm = object._realm else { return nil }
        return realm.makeObject(DynamicObject.self, key: object._key, className: object.objectSchema.name)
    }

    /// The same case and value; objects compare as the same stored object.
    public static func == (lhs: AnyRealmValue, rhs: AnyRealmValue) -> Bool {
        switch (lhs, rhs) {
        case (.none, .none): true
        case (.int(let a), .int(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.float(let a), .float(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.object(let a), .object(let b)): a === b || a.isSameObject(as: b)
        case (.objectId(let a), .objectId(let b)): a == b
        case (.decimal128(let a), .decimal128(let b)): a == b
        case (.uuid(let a), .uuid(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        default: false
        }
    }

    /// Hashes the value (a managed object by its key).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .none: hasher.combine(0)
        case .int(let value): hasher.combine(value)
        case .bool(let value): hasher.combine(value)
        case .float(let value): hasher.combine(value)
        case .double(let value): hasher.combine(value)
        case .string(let value): hasher.combine(value)
        case .data(let value): hasher.combine(value)
        case .date(let value): hasher.combine(value)
        case .object(let object): hasher.combine(object._realm == nil ? ObjectIdentifier(object).hashValue : Int(object._key.rawValue))
        case .objectId(let value): hasher.combine(value)
        case .decimal128(let value): hasher.combine(value)
        case .uuid(let value): hasher.combine(value)
        // As Realm: collections hash by kind, and compare by content
        // (unmanaged) or place (managed).
        case .dictionary: hasher.combine(12)
        case .list: hasher.combine(13)
        }
    }
}

extension AnyRealmValue: _Persistable {
    public static var _propertyType: PropertyType { .mixed }
    /// A mixed property holds `.none` where others hold nil.
    public static var _isOptional: Bool { true }
    public static var _readsRealm: Bool { true }
    public static var _defaultValue: AnyRealmValue { .none }

    public static func _fromValue(_ value: Value, in realm: Realm?) -> AnyRealmValue {
        switch value {
        case .null: return .none
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(Int(truncatingIfNeeded: number))
        case .float(let number): return .float(number)
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .data(let data): return .data(data)
        case .date(let date): return .date(date)
        case .objectId(let id): return .objectId(id)
        case .uuid(let uuid): return .uuid(uuid)
        case .decimal(let decimal): return .decimal128(decimal)
        case .link(let className, let key):
            guard let realm, realm.state.handleIfStored(className) != nil else { return .none }
            if let type = realm.state.modelType(named: className) {
                return .object(realm.makeObject(type, key: key, className: className))
            }
            return .object(realm.makeObject(DynamicObject.self, key: key, className: className))
        case .object:
            return .none
        case .collection(let collection):
            return realm?.nestedCollection(collection) ?? .none
        }
    }

    public func _toValue(in realm: Realm?) throws -> Value {
        switch self {
        case .none: return .null
        case .int(let number): return .int(Int64(number))
        case .bool(let flag): return .bool(flag)
        case .float(let number): return .float(number)
        case .double(let number): return .double(number)
        case .string(let text): return .string(text)
        case .data(let data): return .data(data)
        case .date(let date): return .date(date)
        case .objectId(let id): return .objectId(id)
        case .decimal128(let decimal): return .decimal(decimal)
        case .uuid(let uuid): return .uuid(uuid)
        case .object(let object):
            guard let realm else {
                throw Realm.Error(.wrongType, "An object in an AnyRealmValue is stored through its Realm.")
            }
            return .link(className: object.objectSchema.name, key: try realm.linkKey(for: object))
        case .list, .dictionary:
            // Written by `Realm.storeMixed`, which makes the collection in
            // its place; a value of its own it has none.
            throw Realm.Error(.wrongType, "A nested list or dictionary of mixed values is stored in a property, list or map, not as a value of its own.")
        }
    }

    /// Untyped input as Realm converts it: nil and `NSNull` to `.none`, the
    /// Swift value of each case to that case, another `AnyRealmValue` as it
    /// is.
    public static func _convert(from any: Any) -> AnyRealmValue? {
        switch any {
        case let value as AnyRealmValue: return value
        case is NSNull: return AnyRealmValue.none
        case let value as Bool: return .bool(value)
        case let value as Int: return .int(value)
        case let value as any BinaryInteger: return Int(exactly: value).map(AnyRealmValue.int)
        case let value as Float: return .float(value)
        case let value as Double: return .double(value)
        case let value as String: return .string(value)
        case let value as Data: return .data(value)
        case let value as Date: return .date(value)
        case let value as ObjectId: return .objectId(value)
        case let value as Decimal128: return .decimal128(value)
        case let value as UUID: return .uuid(value)
        case let value as Object: return .object(value)
        case let value as List<AnyRealmValue>: return .list(value)
        case let value as Map<String, AnyRealmValue>: return .dictionary(value)
        case let array as [Any]:
            // Nested arrays and dictionaries, as `create(_:value:)` takes
            // them, become nested lists and dictionaries.
            var elements: [AnyRealmValue] = []
            for element in array {
                guard let converted = _convert(from: element) else { return nil }
                elements.append(converted)
            }
            return fromArray(elements)
        case let dictionary as [String: Any]:
            var entries: [String: AnyRealmValue] = [:]
            for (key, value) in dictionary {
                guard let converted = _convert(from: value) else { return nil }
                entries[key] = converted
            }
            return fromDictionary(entries)
        default: return nil
        }
    }

    public var _keyValue: Any {
        switch self {
        case .none: return NSNull()
        case .int(let value): return value
        case .bool(let value): return value
        case .float(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .data(let value): return value
        case .date(let value): return value
        case .object(let value): return value
        case .objectId(let value): return value
        case .decimal128(let value): return value
        case .uuid(let value): return value
        case .dictionary(let value): return value
        case .list(let value): return value
        }
    }
}

// MARK: Order and aggregates

extension AnyRealmValue: Comparable {
    /// Realm's order of mixed values: `.none`, Booleans, numbers of any
    /// kind by value, strings, data, dates, object ids, UUIDs, objects,
    /// collections (which are not ordered among themselves).
    public static func < (lhs: AnyRealmValue, rhs: AnyRealmValue) -> Bool {
        let (left, right) = (lhs.rank, rhs.rank)
        if left != right { return left < right }
        switch (lhs, rhs) {
        case (.bool(let a), .bool(let b)): return !a && b
        case (.string(let a), .string(let b)): return a.utf8.lexicographicallyPrecedes(b.utf8)
        case (.data(let a), .data(let b)): return a.lexicographicallyPrecedes(b)
        case (.date(let a), .date(let b)): return a < b
        case (.objectId(let a), .objectId(let b)): return a < b
        case (.uuid(let a), .uuid(let b)): return withUnsafeBytes(of: a.uuid) { x in withUnsafeBytes(of: b.uuid) { y in x.lexicographicallyPrecedes(y) } }
        case (.object(let a), .object(let b)): return a._key.rawValue < b._key.rawValue
        default:
            guard let a = lhs.decimalNumber, let b = rhs.decimalNumber else { return false }
            return a < b
        }
    }

    /// The kind's place in Realm's order (realm-core's `sorting_rank`).
    private var rank: Int {
        switch self {
        case .none: -1
        case .bool: 0
        case .int, .float, .double, .decimal128: 1
        case .string: 2
        case .data: 3
        case .date: 4
        case .objectId: 5
        case .uuid: 6
        case .object: 7
        case .list, .dictionary: 8
        }
    }

    /// A number as a decimal, to compare and add numbers of any kind.
    fileprivate var decimalNumber: Decimal128? {
        switch self {
        case .int(let value): Decimal128(value)
        case .float(let value): Decimal128(exactText: "\(value)") ?? Decimal128(value)
        case .double(let value): Decimal128(exactText: "\(value)") ?? Decimal128(value)
        case .decimal128(let value): value
        default: nil
        }
    }
}

extension AnyRealmValue: MinMaxType, _AggregatedElement {
    /// nil for `.none`, which aggregates leave out.
    public var _aggregated: AnyRealmValue? { self == .none ? nil : self }
}

extension AnyRealmValue: AddableType {
    public static var _zero: AnyRealmValue { .int(0) }

    /// The sum of two numbers, in the widest kind of the two (int, then
    /// double, then decimal); a value that is no number adds nothing.
    public static func + (lhs: AnyRealmValue, rhs: AnyRealmValue) -> AnyRealmValue {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)): return .int(a &+ b)
        case (.decimal128, _), (_, .decimal128):
            guard let a = lhs.decimalNumber else { return rhs }
            guard let b = rhs.decimalNumber else { return lhs }
            return .decimal128(a + b)
        default:
            guard lhs.decimalNumber != nil else { return rhs }
            guard rhs.decimalNumber != nil else { return lhs }
            return .double(lhs._doubleValue + rhs._doubleValue)
        }
    }

    /// The number as a double (0 for a value that is no number).
    public var _doubleValue: Double {
        switch self {
        case .int(let value): Double(value)
        case .float(let value): Double(value)
        case .double(let value): value
        case .decimal128(let value): value.doubleValue
        default: 0
        }
    }
}
