import Foundation
import RealmCore

/// A type whose values can be stored in a Realm property: the property
/// types of the seeds' cheatsheet, optionals of them, `Object` subclasses
/// (as links) and Int-backed enums.
///
/// Conformances are provided; user types conform through ``PersistableEnum``
/// (or ``RealmEnum``) only.
public protocol _Persistable {
    /// The stored type.
    static var _propertyType: PropertyType { get }
    /// Whether nil is a value of this type.
    static var _isOptional: Bool { get }
    /// For links: the class linked to.
    static var _objectType: Object.Type? { get }
    /// Whether ``_fromValue(_:in:)`` uses its Realm (to resolve a link, or
    /// to report a value that is no case of an enum). Property reads of
    /// other types pass none, which spares them a retain and a release.
    static var _readsRealm: Bool { get }
    /// The value a property of this type has when given none.
    static var _defaultValue: Self { get }
    /// Converts a stored value; `realm` resolves links.
    static func _fromValue(_ value: Value, in realm: Realm?) -> Self
    /// Converts to a stored value; for links into `realm`, adding an
    /// unmanaged object first.
    func _toValue(in realm: Realm?) throws -> Value
    /// Converts untyped input (from a dictionary, array or JSON), or nil
    /// when it is not a value of this type.
    static func _convert(from any: Any) -> Self?
    /// The value of property `property` of `object`, which is managed:
    /// what `_fromValue` makes of `object._managedValue(property)`. Types
    /// that a row holds as a plain number read it in place instead.
    static func _fromManaged(_ object: Object, property: Int) -> Self
    /// What reading the property by name (`object["name"]`,
    /// `value(forKey:)`) gives: the value itself, or an enum's raw value,
    /// as in Realm.
    var _keyValue: Any { get }
    /// Whether this is a collection (`List`, `MutableSet`, `Map`,
    /// `LinkingObjects`): a `@Persisted` property of this type holds the
    /// collection object, which the Realm binds as it binds a `let`
    /// property's.
    static var _isCollection: Bool { get }
    /// For the elements of ``Results`` of objects (model objects and
    /// projections, see ``RealmFetchable``): the model class whose stored
    /// objects they stand for. Nil for values, whose ``Results`` hold the
    /// values of a list, set or map.
    static var _fetchedClass: Object.Type? { get }
    /// The element standing for `object`, a managed object of
    /// ``_fetchedClass``. Only types with a ``_fetchedClass`` are asked.
    static func _element(for object: Object) -> Self
}

extension _Persistable {
    public var _keyValue: Any { self }
    public static var _isOptional: Bool { false }
    public static var _objectType: Object.Type? { nil }
    public static var _readsRealm: Bool { false }
    public static var _isCollection: Bool { false }
    public static var _fetchedClass: Object.Type? { nil }

    public static func _element(for object: Object) -> Self {
        preconditionFailure("\(Self.self) is a value type: Results of values hold no objects.")
    }

    /// The property read as a `Value` and converted (``_fromValue(_:in:)``).
    @inlinable
    public static func _fromManaged(_ object: Object, property: Int) -> Self {
        // Not loading the Realm where the conversion has no use for it
        // spares the read a retain and a release.
        _fromValue(object._managedValue(property), in: _readsRealm ? object._realm : nil)
    }
}

// MARK: Scalars

extension Bool: _Persistable {
    public static var _propertyType: PropertyType { .bool }
    public static var _defaultValue: Bool { false }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> Bool {
        if case .bool(let bool) = value { return bool }
        return false
    }
    /// The Boolean read in place in the object's row, when it holds one.
    @inlinable
    public static func _fromManaged(_ object: Object, property: Int) -> Bool {
        if let bool = object._managedBool(property) { return bool }
        return _fromValue(object._managedValue(property), in: nil)
    }
    public func _toValue(in realm: Realm?) -> Value { .bool(self) }
}

/// The fixed-width integers, all stored as 64-bit integers.
public protocol _PersistableInteger: _Persistable, FixedWidthInteger {}

extension _PersistableInteger {
    public static var _propertyType: PropertyType { .int }
    public static var _defaultValue: Self { 0 }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> Self {
        if case .int(let int) = value { return Self(truncatingIfNeeded: int) }
        return 0
    }
    /// The integer read in place in the object's row, when it holds one.
    @inlinable
    public static func _fromManaged(_ object: Object, property: Int) -> Self {
        if let int = object._managedInt64(property) { return Self(truncatingIfNeeded: int) }
        return _fromValue(object._managedValue(property), in: nil)
    }
    public func _toValue(in realm: Realm?) -> Value { .int(Int64(self)) }
}

extension Int: _PersistableInteger {}
extension Int8: _PersistableInteger {}
extension Int16: _PersistableInteger {}
extension Int32: _PersistableInteger {}
extension Int64: _PersistableInteger {}

extension Float: _Persistable {
    public static var _propertyType: PropertyType { .float }
    public static var _defaultValue: Float { 0 }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> Float {
        if case .float(let float) = value { return float }
        return 0
    }
    public func _toValue(in realm: Realm?) -> Value { .float(self) }
}

extension Double: _Persistable {
    public static var _propertyType: PropertyType { .double }
    public static var _defaultValue: Double { 0 }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> Double {
        if case .double(let double) = value { return double }
        return 0
    }
    /// The double read in place in the object's row, when it holds one.
    @inlinable
    public static func _fromManaged(_ object: Object, property: Int) -> Double {
        if let double = object._managedDouble(property) { return double }
        return _fromValue(object._managedValue(property), in: nil)
    }
    public func _toValue(in realm: Realm?) -> Value { .double(self) }
}

extension String: _Persistable {
    public static var _propertyType: PropertyType { .string }
    public static var _defaultValue: String { "" }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> String {
        if case .string(let string) = value { return string }
        return ""
    }
    public func _toValue(in realm: Realm?) -> Value { .string(self) }
}

extension Data: _Persistable {
    public static var _propertyType: PropertyType { .data }
    public static var _defaultValue: Data { Data() }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> Data {
        if case .data(let data) = value { return data }
        return Data()
    }
    public func _toValue(in realm: Realm?) -> Value { .data(self) }
}

extension Date: _Persistable {
    public static var _propertyType: PropertyType { .date }
    public static var _defaultValue: Date { Date(timeIntervalSince1970: 0) }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> Date {
        if case .date(let date) = value { return date }
        return Date(timeIntervalSince1970: 0)
    }
    public func _toValue(in realm: Realm?) -> Value { .date(self) }
}

extension ObjectId: _Persistable {
    public static var _propertyType: PropertyType { .objectId }
    public static var _defaultValue: ObjectId { ObjectId.generate() }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> ObjectId {
        if case .objectId(let id) = value { return id }
        return ObjectId(bytes: [UInt8](repeating: 0, count: 12))!
    }
    public func _toValue(in realm: Realm?) -> Value { .objectId(self) }
}

extension UUID: _Persistable {
    public static var _propertyType: PropertyType { .uuid }
    public static var _defaultValue: UUID { UUID() }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> UUID {
        if case .uuid(let uuid) = value { return uuid }
        return UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    }
    public func _toValue(in realm: Realm?) -> Value { .uuid(self) }
}

extension Decimal128: _Persistable {
    public static var _propertyType: PropertyType { .decimal }
    public static var _defaultValue: Decimal128 { 0 }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> Decimal128 {
        if case .decimal(let decimal) = value { return decimal }
        return 0
    }
    public func _toValue(in realm: Realm?) -> Value { .decimal(self) }
}

/// Foundation's decimal, stored as a ``Decimal128``: exactly up to 34
/// significant digits (Foundation's go to 38; more than 34 are rounded).
extension Decimal: _Persistable {
    public static var _propertyType: PropertyType { .decimal }
    public static var _defaultValue: Decimal { 0 }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> Decimal {
        if case .decimal(let decimal) = value { return decimal.decimalValue }
        return 0
    }
    public func _toValue(in realm: Realm?) -> Value { .decimal(Decimal128(self)) }
}

// MARK: Optionals

extension Optional: _Persistable where Wrapped: _Persistable {
    public static var _propertyType: PropertyType { Wrapped._propertyType }
    public static var _isOptional: Bool { true }
    public static var _objectType: Object.Type? { Wrapped._objectType }
    public static var _readsRealm: Bool { Wrapped._readsRealm }
    public static var _defaultValue: Wrapped? { nil }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> Wrapped? {
        value.isNull ? nil : Wrapped._fromValue(value, in: realm)
    }
    public func _toValue(in realm: Realm?) throws -> Value {
        try map { try $0._toValue(in: realm) } ?? .null
    }
    /// Optional objects are the elements of a map of objects' `Results`
    /// (``Map/filter(_:_:)``): each stands for its object.
    public static var _fetchedClass: Object.Type? { Wrapped._fetchedClass }
    public static func _element(for object: Object) -> Wrapped? { Wrapped._element(for: object) }
}

// MARK: Enums

/// An enum stored as its raw value: conform an `Int`-backed (or
/// `String`-backed) enum to use it as a property type, optional or not.
///
/// ```swift
/// enum TaskStatus: Int, PersistableEnum {
///     case notStarted = 1, inProgress, complete
/// }
/// class Task: Object {
///     @Persisted var status = TaskStatus.notStarted
/// }
/// ```
public protocol PersistableEnum: _Persistable, RawRepresentable, CaseIterable where RawValue: _Persistable {}

/// The seeds' name for ``PersistableEnum``.
public typealias RealmEnum = PersistableEnum

extension PersistableEnum {
    public var _keyValue: Any { rawValue }
    public static var _propertyType: PropertyType { RawValue._propertyType }
    public static var _readsRealm: Bool { true }
    public static var _defaultValue: Self { allCases.first! }
    public static func _fromValue(_ value: Value, in realm: Realm?) -> Self {
        let raw = RawValue._fromValue(value, in: realm)
        if let result = Self(rawValue: raw) { return result }
        // Only a damaged file (or one written by other code) holds a raw
        // value that is no case: report it, and read the first case.
        guard let realm else { preconditionFailure("The value \(value) is not a case of \(Self.self).") }
        realm.noteDamage("The Realm file at '\(realm.configuration.identity)' holds \(value), which is not a case of \(Self.self).")
        return _defaultValue
    }
    public func _toValue(in realm: Realm?) throws -> Value {
        try rawValue._toValue(in: realm)
    }
}

// MARK: Conversion from untyped input

extension _Persistable {
    /// Converts a value from a dictionary, array or JSON to this type, or nil
    /// when it has another type. Numbers convert between widths when exact;
    /// a boolean is no number, and only 0 and 1 are booleans.
    public static func _convert(from any: Any) -> Self? {
        switch _propertyType {
        case .int, .double, .float:
            // Foundation's booleans bridge to any number type.
            if isBoolean(any) { return nil }
        default:
            break
        }
        if let value = any as? Self { return value }
        switch _propertyType {
        case .int:
            let integer: Int64?
            switch any {
            case let value as any BinaryInteger: integer = Int64(exactly: value)
            case let value as Double: integer = Int64(exactly: value)
            case let value as Float: integer = Int64(exactly: value)
            case let value as NSNumber: integer = Int64(exactly: value.doubleValue)
            default: integer = nil
            }
            return integer.flatMap { int in
                // The width check: the value must fit Self exactly.
                let converted = _fromValue(.int(int), in: nil)
                return (try? converted._toValue(in: nil)) == .int(int) ? converted : nil
            }
        case .double:
            switch any {
            case let value as any BinaryInteger: return _fromValue(.double(Double(value)), in: nil)
            case let value as Float: return _fromValue(.double(Double(value)), in: nil)
            case let value as NSNumber: return _fromValue(.double(value.doubleValue), in: nil)
            default: return nil
            }
        case .float:
            switch any {
            case let value as any BinaryInteger: return _fromValue(.float(Float(value)), in: nil)
            case let value as Double: return _fromValue(.float(Float(value)), in: nil)
            case let value as NSNumber: return _fromValue(.float(value.floatValue), in: nil)
            default: return nil
            }
        case .bool:
            if let number = any as? NSNumber, number.doubleValue == 0 || number.doubleValue == 1 {
                return _fromValue(.bool(number.doubleValue == 1), in: nil)
            }
            return nil
        case .string:
            return (any as? NSString).map { _fromValue(.string($0 as String), in: nil) }
        case .data:
            return (any as? NSData).map { _fromValue(.data($0 as Data), in: nil) }
        case .date:
            return (any as? NSDate).map { _fromValue(.date($0 as Date), in: nil) }
        case .decimal:
            // Numbers and numeric strings, as Realm's Decimal128 takes them.
            if isBoolean(any) || any is NSNull { return nil }
            let decimal: Decimal128?
            switch any {
            case let value as String: decimal = Decimal128(exactText: value)
            default: decimal = Decimal128(converting: any)
            }
            return decimal.map { _fromValue(.decimal($0), in: nil) }
        default:
            return nil
        }
    }
}

/// The type of Foundation's boolean numbers (what `JSONSerialization`
/// makes of `true` and `false`).
private let booleanNumberType: Any.Type = type(of: NSNumber(value: true) as Any)

/// Whether untyped input is a boolean: a `Bool`, or one of Foundation's
/// boolean numbers.
private func isBoolean(_ any: Any) -> Bool {
    let type = type(of: any)
    return type == Bool.self || type == booleanNumberType
}

extension PersistableEnum {
    public static func _convert(from any: Any) -> Self? {
        if let value = any as? Self { return value }
        return RawValue._convert(from: any).flatMap(Self.init(rawValue:))
    }
}
