import Foundation
import RealmObjects
import Testing

// realm-swift's RealmSwift/Tests/PrimitiveMutableSetTests.swift and
// PrimitiveMapTests.swift (v10.54.6), ported, with the value factories of
// TestValueFactory.swift.
//
// Realm instantiates its generic test classes once per value type and
// object factory (`addMutableSetTests`, `addPrimitiveMapTests`); here each
// test takes the object factory (unmanaged or managed) and the value type
// as its arguments, and a dispatcher (`smPortWithSet` …) runs its generic
// body with that type. The managed factory adds the two root objects to a
// fresh in-memory Realm inside a write transaction, cancelled at the end,
// as Realm's `ManagedObjectFactory` and tearDown do.
//
// `sorted(ascending:)` of a set or map of values gives `Results`, which
// the ports compare as Realm does: as `Array(results)`.
//
// Not ported:
// - PrimitiveMutableSetTests.testValueForKey — needs Objective-C key-value
//   coding on a set of values (`value(forKey: "self")`, bridged values,
//   `NSUnknownKeyException`);
// - PrimitiveMapTests.testObjectForKey — needs `NSDictionary`'s
//   `object(forKey:)` with an `AnyObject` key (Objective-C bridging);
// - MinMaxPrimitiveMutableSetTests, MinMaxPrimitiveMapTests,
//   SortablePrimitiveMutableSetTests and SortablePrimitiveMapTests of the
//   `PersistableEnum` types (EnumInt … EnumString and their optionals) —
//   need `min()`, `max()` and `sorted(ascending:)` of enum values, which no
//   collection here has (List neither); the enums' other tests are ported.

// MARK: - TestValueFactory

/// `ObjectFactory`: where a test's two root objects live.
enum SMPortObjectFactory: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case unmanaged, managed
    var testDescription: String { rawValue }
}

/// `ValueFactory`: three values in ascending order, the smallest and the
/// largest.
protocol SMPortValue: RealmCollectionValue, Equatable {
    static func smPortValues() -> [Self]
    static func smPortMin() -> Self
    static func smPortMax() -> Self
}

extension SMPortValue {
    static func smPortMin() -> Self { smPortValues().first! }
    static func smPortMax() -> Self { smPortValues().last! }
}

/// `NumericValueFactory`: a value as a double (nil for nil), for the
/// expected sums and averages.
protocol SMPortNumericValue: SMPortValue {
    static func smPortDouble(_ value: Self) -> Double?
}

extension SMPortNumericValue {
    /// The sum of the values that are not nil.
    static func smPortSum() -> Double { smPortValues().compactMap(smPortDouble).reduce(0, +) }
    /// Their average: the sum over 3, or over 2 for optionals (one is nil).
    static func smPortAverage() -> Double { smPortSum() / Double(smPortValues().compactMap(smPortDouble).count) }
}

/// `SetValueFactory` and `MapValueFactory`.
protocol SMPortSetValue: SMPortValue {
    associatedtype SetRoot: Object
    static var smPortSet: KeyPath<SetRoot, MutableSet<Self>> { get }
}

protocol SMPortMapValue: SMPortValue {
    associatedtype MapRoot: Object
    static var smPortMap: KeyPath<MapRoot, Map<String, Self>> { get }
}

/// `SetValueFactoryOptional` and `MapValueFactoryOptional`: the type's
/// optional collections, next to its required ones.
protocol SMPortSetValueOptional: SMPortSetValue {
    static var smPortOptSet: KeyPath<SetRoot, MutableSet<Self?>> { get }
}

protocol SMPortMapValueOptional: SMPortMapValue {
    static var smPortOptMap: KeyPath<MapRoot, Map<String, Self?>> { get }
}

extension Optional: SMPortValue where Wrapped: SMPortValue {
    /// The wrapped type's values with the middle one replaced by nil, first.
    static func smPortValues() -> [Wrapped?] {
        var values = Wrapped.smPortValues().map(Optional.some)
        values.remove(at: 1)
        values.insert(nil, at: 0)
        return values
    }

    static func smPortMin() -> Wrapped? { Wrapped.smPortMin() }
}

extension Optional: SMPortNumericValue where Wrapped: SMPortNumericValue {
    static func smPortDouble(_ value: Wrapped?) -> Double? { value.flatMap(Wrapped.smPortDouble) }
}

extension Optional: SMPortSetValue where Wrapped: SMPortSetValueOptional {
    static var smPortSet: KeyPath<Wrapped.SetRoot, MutableSet<Wrapped?>> { Wrapped.smPortOptSet }
}

extension Optional: SMPortMapValue where Wrapped: SMPortMapValueOptional {
    static var smPortMap: KeyPath<Wrapped.MapRoot, Map<String, Wrapped?>> { Wrapped.smPortOptMap }
}

extension Bool: SMPortValue {
    static func smPortValues() -> [Bool] { [true, false, true] }
}

extension Int: SMPortNumericValue {
    static func smPortValues() -> [Int] { [1, 2, 3] }
    static func smPortDouble(_ value: Int) -> Double? { Double(value) }
}

extension Int8: SMPortNumericValue {
    static func smPortValues() -> [Int8] { [1, 2, 3] }
    static func smPortDouble(_ value: Int8) -> Double? { Double(value) }
}

extension Int16: SMPortNumericValue {
    static func smPortValues() -> [Int16] { [1, 2, 3] }
    static func smPortDouble(_ value: Int16) -> Double? { Double(value) }
}

extension Int32: SMPortNumericValue {
    static func smPortValues() -> [Int32] { [1, 2, 3] }
    static func smPortDouble(_ value: Int32) -> Double? { Double(value) }
}

extension Int64: SMPortNumericValue {
    static func smPortValues() -> [Int64] { [1, 2, 3] }
    static func smPortDouble(_ value: Int64) -> Double? { Double(value) }
}

extension Float: SMPortNumericValue {
    static func smPortValues() -> [Float] { [1.1, 2.2, 3.3] }
    static func smPortDouble(_ value: Float) -> Double? { Double(value) }
}

extension Double: SMPortNumericValue {
    static func smPortValues() -> [Double] { [1.1, 2.2, 3.3] }
    static func smPortDouble(_ value: Double) -> Double? { value }
}

extension String: SMPortValue {
    static func smPortValues() -> [String] { ["a", "b", "c"] }
}

extension Data: SMPortValue {
    static func smPortValues() -> [Data] { [Data("a".utf8), Data("b".utf8), Data("c".utf8)] }
}

/// Realm's dates: now, now + 10 s and now + 20 s, made once.
private let smPortDates = [Date(), Date().addingTimeInterval(10), Date().addingTimeInterval(20)]

extension Date: SMPortValue {
    static func smPortValues() -> [Date] { smPortDates }
}

extension Decimal128: SMPortNumericValue {
    static func smPortValues() -> [Decimal128] { [Decimal128(number: 1), Decimal128(number: 2), Decimal128(number: 3)] }
    static func smPortDouble(_ value: Decimal128) -> Double? { value.doubleValue }
}

/// Realm's object ids and UUIDs: three random ones, made once.
private let smPortObjectIds = [ObjectId.generate(), ObjectId.generate(), ObjectId.generate()]
private let smPortUUIDs = [UUID(), UUID(), UUID()]

extension ObjectId: SMPortValue {
    static func smPortValues() -> [ObjectId] { smPortObjectIds }
}

extension UUID: SMPortValue {
    static func smPortValues() -> [UUID] { smPortUUIDs }
}

// MARK: - Fixtures

/// `O.get()` twice: the two root objects of a test, and their Realm when
/// managed.
final class SMPortRoots<Root: Object> {
    let realm: Realm?
    let obj: Root
    let obj2: Root

    init(_ factory: SMPortObjectFactory) throws {
        obj = Root()
        obj2 = Root()
        switch factory {
        case .unmanaged:
            realm = nil
        case .managed:
            let realm = try Realm(configuration: inMemoryConfiguration("PrimitiveSetAndMapPort"))
            realm.beginWrite()
            realm.add(obj)
            realm.add(obj2)
            self.realm = realm
        }
    }

    /// tearDown.
    func finish() {
        if let realm, realm.isInWriteTransaction { realm.cancelWrite() }
    }
}

/// PrimitiveMutableSetTestsBase's setUp.
final class SMPortPrimitiveSet<V: SMPortSetValue> {
    let roots: SMPortRoots<V.SetRoot>
    let mutableSet: MutableSet<V>
    let otherMutableSet: MutableSet<V>
    let values: [V]
    var realm: Realm? { roots.realm }
    var obj: V.SetRoot { roots.obj }

    init(_ factory: SMPortObjectFactory) throws {
        roots = try SMPortRoots(factory)
        mutableSet = roots.obj[keyPath: V.smPortSet]
        otherMutableSet = roots.obj2[keyPath: V.smPortSet]
        values = V.smPortValues()
    }
}

/// PrimitiveMapTestsBase's setUp: the values at keys `key0`, `key1`, `key2`.
final class SMPortPrimitiveMap<V: SMPortMapValue> {
    let roots: SMPortRoots<V.MapRoot>
    let map: Map<String, V>
    let otherMap: Map<String, V>
    let values: [(key: String, value: V)]
    var realm: Realm? { roots.realm }
    var obj: V.MapRoot { roots.obj }

    init(_ factory: SMPortObjectFactory) throws {
        roots = try SMPortRoots(factory)
        map = roots.obj[keyPath: V.smPortMap]
        otherMap = roots.obj2[keyPath: V.smPortMap]
        values = V.smPortValues().enumerated().map { (key: "key\($0)", value: $1) }
    }
}

/// The bodies of the generic tests, by the constraints their type needs.
protocol SMPortSetBody {
    func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>) throws
}

protocol SMPortMinMaxSetBody {
    func run<V: SMPortSetValue & _AggregatedElement>(_ f: SMPortPrimitiveSet<V>) throws where V._Aggregated: MinMaxType
}

protocol SMPortAddableSetBody {
    func run<V: SMPortSetValue & SMPortNumericValue & _AggregatedElement>(_ f: SMPortPrimitiveSet<V>) throws
    where V._Aggregated: AddableType
}

protocol SMPortSortableSetBody {
    func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>, sorted: (MutableSet<V>, Bool) -> [V]) throws
}

protocol SMPortMapBody {
    func run<V: SMPortMapValue>(_ f: SMPortPrimitiveMap<V>) throws
}

protocol SMPortMinMaxMapBody {
    func run<V: SMPortMapValue & _AggregatedElement>(_ f: SMPortPrimitiveMap<V>) throws where V._Aggregated: MinMaxType
}

protocol SMPortAddableMapBody {
    func run<V: SMPortMapValue & SMPortNumericValue & _AggregatedElement>(_ f: SMPortPrimitiveMap<V>) throws
    where V._Aggregated: AddableType
}

protocol SMPortSortableMapBody {
    func run<V: SMPortMapValue>(_ f: SMPortPrimitiveMap<V>, sorted: (Map<String, V>, Bool) -> [V]) throws
}

// MARK: - The value types, as TestValueFactory lists them

/// The element and value types of the ported suites.
enum SMPortValueType: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case int, int8, int16, int32, int64, float, double, bool, string, data, date, decimal, objectId, uuid, intOpt, int8Opt, int16Opt, int32Opt, int64Opt, floatOpt, doubleOpt, boolOpt, stringOpt, dataOpt, dateOpt, decimalOpt, objectIdOpt, uuidOpt, enumInt, enumInt8, enumInt16, enumInt32, enumInt64, enumFloat, enumDouble, enumString, enumIntOpt, enumInt8Opt, enumInt16Opt, enumInt32Opt, enumInt64Opt, enumFloatOpt, enumDoubleOpt, enumStringOpt
    var testDescription: String { rawValue }

    /// `addMutableSetTests`' types (not `Bool`: its three values hold a duplicate).
    static let setTypes: [SMPortValueType] = [.int, .int8, .int16, .int32, .int64, .float, .double, .string, .data, .date, .decimal, .objectId, .uuid, .intOpt, .int8Opt, .int16Opt, .int32Opt, .int64Opt, .floatOpt, .doubleOpt, .stringOpt, .dataOpt, .dateOpt, .decimalOpt, .objectIdOpt, .uuidOpt, .enumInt, .enumInt8, .enumInt16, .enumInt32, .enumInt64, .enumFloat, .enumDouble, .enumString, .enumIntOpt, .enumInt8Opt, .enumInt16Opt, .enumInt32Opt, .enumInt64Opt, .enumFloatOpt, .enumDoubleOpt, .enumStringOpt]
    /// The types of the MinMax suites (enums left out, see the header).
    static let minMaxTypes: [SMPortValueType] = [.int, .int8, .int16, .int32, .int64, .float, .double, .date, .decimal, .intOpt, .int8Opt, .int16Opt, .int32Opt, .int64Opt, .floatOpt, .doubleOpt, .dateOpt, .decimalOpt]
    /// The types of the Addable suites.
    static let addableTypes: [SMPortValueType] = [.int, .int8, .int16, .int32, .int64, .float, .double, .decimal, .intOpt, .int8Opt, .int16Opt, .int32Opt, .int64Opt, .floatOpt, .doubleOpt, .decimalOpt]
    /// The types of the Sortable suites, run on managed collections only as in Realm (enums left out, see the header).
    static let sortableTypes: [SMPortValueType] = [.int, .int8, .int16, .int32, .int64, .float, .double, .string, .data, .date, .intOpt, .int8Opt, .int16Opt, .int32Opt, .int64Opt, .floatOpt, .doubleOpt, .stringOpt, .dataOpt, .dateOpt]
}

extension Int: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<Int>> { \.setInt }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<Int?>> { \.setOptInt }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, Int>> { \.mapInt }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, Int?>> { \.mapOptInt }
}
extension Int8: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<Int8>> { \.setInt8 }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<Int8?>> { \.setOptInt8 }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, Int8>> { \.mapInt8 }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, Int8?>> { \.mapOptInt8 }
}
extension Int16: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<Int16>> { \.setInt16 }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<Int16?>> { \.setOptInt16 }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, Int16>> { \.mapInt16 }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, Int16?>> { \.mapOptInt16 }
}
extension Int32: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<Int32>> { \.setInt32 }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<Int32?>> { \.setOptInt32 }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, Int32>> { \.mapInt32 }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, Int32?>> { \.mapOptInt32 }
}
extension Int64: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<Int64>> { \.setInt64 }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<Int64?>> { \.setOptInt64 }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, Int64>> { \.mapInt64 }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, Int64?>> { \.mapOptInt64 }
}
extension Float: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<Float>> { \.setFloat }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<Float?>> { \.setOptFloat }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, Float>> { \.mapFloat }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, Float?>> { \.mapOptFloat }
}
extension Double: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<Double>> { \.setDouble }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<Double?>> { \.setOptDouble }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, Double>> { \.mapDouble }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, Double?>> { \.mapOptDouble }
}
extension Bool: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<Bool>> { \.setBool }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<Bool?>> { \.setOptBool }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, Bool>> { \.mapBool }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, Bool?>> { \.mapOptBool }
}
extension String: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<String>> { \.setString }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<String?>> { \.setOptString }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, String>> { \.mapString }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, String?>> { \.mapOptString }
}
extension Data: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<Data>> { \.setBinary }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<Data?>> { \.setOptBinary }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, Data>> { \.mapBinary }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, Data?>> { \.mapOptBinary }
}
extension Date: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<Date>> { \.setDate }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<Date?>> { \.setOptDate }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, Date>> { \.mapDate }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, Date?>> { \.mapOptDate }
}
extension Decimal128: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<Decimal128>> { \.setDecimal }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<Decimal128?>> { \.setOptDecimal }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, Decimal128>> { \.mapDecimal }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, Decimal128?>> { \.mapOptDecimal }
}
extension ObjectId: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<ObjectId>> { \.setObjectId }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<ObjectId?>> { \.setOptObjectId }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, ObjectId>> { \.mapObjectId }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, ObjectId?>> { \.mapOptObjectId }
}
extension UUID: SMPortSetValueOptional, SMPortMapValueOptional {
    static var smPortSet: KeyPath<SMPortAllTypesObject, MutableSet<UUID>> { \.setUuid }
    static var smPortOptSet: KeyPath<SMPortAllTypesObject, MutableSet<UUID?>> { \.setOptUuid }
    static var smPortMap: KeyPath<SMPortAllTypesObject, Map<String, UUID>> { \.mapUuid }
    static var smPortOptMap: KeyPath<SMPortAllTypesObject, Map<String, UUID?>> { \.mapOptUuid }
}
extension SMPortEnumInt: SMPortSetValueOptional, SMPortMapValueOptional {
    static func smPortValues() -> [SMPortEnumInt] { allCases }
    static var smPortSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumInt>> { \.setInt }
    static var smPortOptSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumInt?>> { \.setIntOpt }
    static var smPortMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumInt>> { \.mapInt }
    static var smPortOptMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumInt?>> { \.mapIntOpt }
}
extension SMPortEnumInt8: SMPortSetValueOptional, SMPortMapValueOptional {
    static func smPortValues() -> [SMPortEnumInt8] { allCases }
    static var smPortSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumInt8>> { \.setInt8 }
    static var smPortOptSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumInt8?>> { \.setInt8Opt }
    static var smPortMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumInt8>> { \.mapInt8 }
    static var smPortOptMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumInt8?>> { \.mapInt8Opt }
}
extension SMPortEnumInt16: SMPortSetValueOptional, SMPortMapValueOptional {
    static func smPortValues() -> [SMPortEnumInt16] { allCases }
    static var smPortSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumInt16>> { \.setInt16 }
    static var smPortOptSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumInt16?>> { \.setInt16Opt }
    static var smPortMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumInt16>> { \.mapInt16 }
    static var smPortOptMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumInt16?>> { \.mapInt16Opt }
}
extension SMPortEnumInt32: SMPortSetValueOptional, SMPortMapValueOptional {
    static func smPortValues() -> [SMPortEnumInt32] { allCases }
    static var smPortSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumInt32>> { \.setInt32 }
    static var smPortOptSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumInt32?>> { \.setInt32Opt }
    static var smPortMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumInt32>> { \.mapInt32 }
    static var smPortOptMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumInt32?>> { \.mapInt32Opt }
}
extension SMPortEnumInt64: SMPortSetValueOptional, SMPortMapValueOptional {
    static func smPortValues() -> [SMPortEnumInt64] { allCases }
    static var smPortSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumInt64>> { \.setInt64 }
    static var smPortOptSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumInt64?>> { \.setInt64Opt }
    static var smPortMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumInt64>> { \.mapInt64 }
    static var smPortOptMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumInt64?>> { \.mapInt64Opt }
}
extension SMPortEnumFloat: SMPortSetValueOptional, SMPortMapValueOptional {
    static func smPortValues() -> [SMPortEnumFloat] { allCases }
    static var smPortSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumFloat>> { \.setFloat }
    static var smPortOptSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumFloat?>> { \.setFloatOpt }
    static var smPortMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumFloat>> { \.mapFloat }
    static var smPortOptMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumFloat?>> { \.mapFloatOpt }
}
extension SMPortEnumDouble: SMPortSetValueOptional, SMPortMapValueOptional {
    static func smPortValues() -> [SMPortEnumDouble] { allCases }
    static var smPortSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumDouble>> { \.setDouble }
    static var smPortOptSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumDouble?>> { \.setDoubleOpt }
    static var smPortMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumDouble>> { \.mapDouble }
    static var smPortOptMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumDouble?>> { \.mapDoubleOpt }
}
extension SMPortEnumString: SMPortSetValueOptional, SMPortMapValueOptional {
    static func smPortValues() -> [SMPortEnumString] { allCases }
    static var smPortSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumString>> { \.setString }
    static var smPortOptSet: KeyPath<SMPortCollectionsOfEnums, MutableSet<SMPortEnumString?>> { \.setStringOpt }
    static var smPortMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumString>> { \.mapString }
    static var smPortOptMap: KeyPath<SMPortCollectionsOfEnums, Map<String, SMPortEnumString?>> { \.mapStringOpt }
}

/// Runs a PrimitiveMutableSetTests body with the set of `type`.
func smPortWithSet(_ type: SMPortValueType, _ factory: SMPortObjectFactory, _ body: some SMPortSetBody) throws {
    switch type {
    case .int: try body.run(SMPortPrimitiveSet<Int>(factory))
    case .int8: try body.run(SMPortPrimitiveSet<Int8>(factory))
    case .int16: try body.run(SMPortPrimitiveSet<Int16>(factory))
    case .int32: try body.run(SMPortPrimitiveSet<Int32>(factory))
    case .int64: try body.run(SMPortPrimitiveSet<Int64>(factory))
    case .float: try body.run(SMPortPrimitiveSet<Float>(factory))
    case .double: try body.run(SMPortPrimitiveSet<Double>(factory))
    case .string: try body.run(SMPortPrimitiveSet<String>(factory))
    case .data: try body.run(SMPortPrimitiveSet<Data>(factory))
    case .date: try body.run(SMPortPrimitiveSet<Date>(factory))
    case .decimal: try body.run(SMPortPrimitiveSet<Decimal128>(factory))
    case .objectId: try body.run(SMPortPrimitiveSet<ObjectId>(factory))
    case .uuid: try body.run(SMPortPrimitiveSet<UUID>(factory))
    case .intOpt: try body.run(SMPortPrimitiveSet<Int?>(factory))
    case .int8Opt: try body.run(SMPortPrimitiveSet<Int8?>(factory))
    case .int16Opt: try body.run(SMPortPrimitiveSet<Int16?>(factory))
    case .int32Opt: try body.run(SMPortPrimitiveSet<Int32?>(factory))
    case .int64Opt: try body.run(SMPortPrimitiveSet<Int64?>(factory))
    case .floatOpt: try body.run(SMPortPrimitiveSet<Float?>(factory))
    case .doubleOpt: try body.run(SMPortPrimitiveSet<Double?>(factory))
    case .stringOpt: try body.run(SMPortPrimitiveSet<String?>(factory))
    case .dataOpt: try body.run(SMPortPrimitiveSet<Data?>(factory))
    case .dateOpt: try body.run(SMPortPrimitiveSet<Date?>(factory))
    case .decimalOpt: try body.run(SMPortPrimitiveSet<Decimal128?>(factory))
    case .objectIdOpt: try body.run(SMPortPrimitiveSet<ObjectId?>(factory))
    case .uuidOpt: try body.run(SMPortPrimitiveSet<UUID?>(factory))
    case .enumInt: try body.run(SMPortPrimitiveSet<SMPortEnumInt>(factory))
    case .enumInt8: try body.run(SMPortPrimitiveSet<SMPortEnumInt8>(factory))
    case .enumInt16: try body.run(SMPortPrimitiveSet<SMPortEnumInt16>(factory))
    case .enumInt32: try body.run(SMPortPrimitiveSet<SMPortEnumInt32>(factory))
    case .enumInt64: try body.run(SMPortPrimitiveSet<SMPortEnumInt64>(factory))
    case .enumFloat: try body.run(SMPortPrimitiveSet<SMPortEnumFloat>(factory))
    case .enumDouble: try body.run(SMPortPrimitiveSet<SMPortEnumDouble>(factory))
    case .enumString: try body.run(SMPortPrimitiveSet<SMPortEnumString>(factory))
    case .enumIntOpt: try body.run(SMPortPrimitiveSet<SMPortEnumInt?>(factory))
    case .enumInt8Opt: try body.run(SMPortPrimitiveSet<SMPortEnumInt8?>(factory))
    case .enumInt16Opt: try body.run(SMPortPrimitiveSet<SMPortEnumInt16?>(factory))
    case .enumInt32Opt: try body.run(SMPortPrimitiveSet<SMPortEnumInt32?>(factory))
    case .enumInt64Opt: try body.run(SMPortPrimitiveSet<SMPortEnumInt64?>(factory))
    case .enumFloatOpt: try body.run(SMPortPrimitiveSet<SMPortEnumFloat?>(factory))
    case .enumDoubleOpt: try body.run(SMPortPrimitiveSet<SMPortEnumDouble?>(factory))
    case .enumStringOpt: try body.run(SMPortPrimitiveSet<SMPortEnumString?>(factory))
    default: Issue.record("\(type) is not one of this suite's types")
    }
}

/// Runs a MinMaxPrimitiveMutableSetTests body.
func smPortWithMinMaxSet(_ type: SMPortValueType, _ factory: SMPortObjectFactory, _ body: some SMPortMinMaxSetBody) throws {
    switch type {
    case .int: try body.run(SMPortPrimitiveSet<Int>(factory))
    case .int8: try body.run(SMPortPrimitiveSet<Int8>(factory))
    case .int16: try body.run(SMPortPrimitiveSet<Int16>(factory))
    case .int32: try body.run(SMPortPrimitiveSet<Int32>(factory))
    case .int64: try body.run(SMPortPrimitiveSet<Int64>(factory))
    case .float: try body.run(SMPortPrimitiveSet<Float>(factory))
    case .double: try body.run(SMPortPrimitiveSet<Double>(factory))
    case .date: try body.run(SMPortPrimitiveSet<Date>(factory))
    case .decimal: try body.run(SMPortPrimitiveSet<Decimal128>(factory))
    case .intOpt: try body.run(SMPortPrimitiveSet<Int?>(factory))
    case .int8Opt: try body.run(SMPortPrimitiveSet<Int8?>(factory))
    case .int16Opt: try body.run(SMPortPrimitiveSet<Int16?>(factory))
    case .int32Opt: try body.run(SMPortPrimitiveSet<Int32?>(factory))
    case .int64Opt: try body.run(SMPortPrimitiveSet<Int64?>(factory))
    case .floatOpt: try body.run(SMPortPrimitiveSet<Float?>(factory))
    case .doubleOpt: try body.run(SMPortPrimitiveSet<Double?>(factory))
    case .dateOpt: try body.run(SMPortPrimitiveSet<Date?>(factory))
    case .decimalOpt: try body.run(SMPortPrimitiveSet<Decimal128?>(factory))
    default: Issue.record("\(type) is not one of this suite's types")
    }
}

/// Runs an AddablePrimitiveMutableSetTests body.
func smPortWithAddableSet(_ type: SMPortValueType, _ factory: SMPortObjectFactory, _ body: some SMPortAddableSetBody) throws {
    switch type {
    case .int: try body.run(SMPortPrimitiveSet<Int>(factory))
    case .int8: try body.run(SMPortPrimitiveSet<Int8>(factory))
    case .int16: try body.run(SMPortPrimitiveSet<Int16>(factory))
    case .int32: try body.run(SMPortPrimitiveSet<Int32>(factory))
    case .int64: try body.run(SMPortPrimitiveSet<Int64>(factory))
    case .float: try body.run(SMPortPrimitiveSet<Float>(factory))
    case .double: try body.run(SMPortPrimitiveSet<Double>(factory))
    case .decimal: try body.run(SMPortPrimitiveSet<Decimal128>(factory))
    case .intOpt: try body.run(SMPortPrimitiveSet<Int?>(factory))
    case .int8Opt: try body.run(SMPortPrimitiveSet<Int8?>(factory))
    case .int16Opt: try body.run(SMPortPrimitiveSet<Int16?>(factory))
    case .int32Opt: try body.run(SMPortPrimitiveSet<Int32?>(factory))
    case .int64Opt: try body.run(SMPortPrimitiveSet<Int64?>(factory))
    case .floatOpt: try body.run(SMPortPrimitiveSet<Float?>(factory))
    case .doubleOpt: try body.run(SMPortPrimitiveSet<Double?>(factory))
    case .decimalOpt: try body.run(SMPortPrimitiveSet<Decimal128?>(factory))
    default: Issue.record("\(type) is not one of this suite's types")
    }
}

/// Runs a SortablePrimitiveMutableSetTests body, with the set's `sorted(ascending:)` (an overload per kind of element).
func smPortWithSortableSet(_ type: SMPortValueType, _ factory: SMPortObjectFactory, _ body: some SMPortSortableSetBody) throws {
    switch type {
    case .int: try body.run(SMPortPrimitiveSet<Int>(factory), sorted: { (set: MutableSet<Int>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .int8: try body.run(SMPortPrimitiveSet<Int8>(factory), sorted: { (set: MutableSet<Int8>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .int16: try body.run(SMPortPrimitiveSet<Int16>(factory), sorted: { (set: MutableSet<Int16>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .int32: try body.run(SMPortPrimitiveSet<Int32>(factory), sorted: { (set: MutableSet<Int32>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .int64: try body.run(SMPortPrimitiveSet<Int64>(factory), sorted: { (set: MutableSet<Int64>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .float: try body.run(SMPortPrimitiveSet<Float>(factory), sorted: { (set: MutableSet<Float>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .double: try body.run(SMPortPrimitiveSet<Double>(factory), sorted: { (set: MutableSet<Double>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .string: try body.run(SMPortPrimitiveSet<String>(factory), sorted: { (set: MutableSet<String>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .data: try body.run(SMPortPrimitiveSet<Data>(factory), sorted: { (set: MutableSet<Data>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .date: try body.run(SMPortPrimitiveSet<Date>(factory), sorted: { (set: MutableSet<Date>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .intOpt: try body.run(SMPortPrimitiveSet<Int?>(factory), sorted: { (set: MutableSet<Int?>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .int8Opt: try body.run(SMPortPrimitiveSet<Int8?>(factory), sorted: { (set: MutableSet<Int8?>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .int16Opt: try body.run(SMPortPrimitiveSet<Int16?>(factory), sorted: { (set: MutableSet<Int16?>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .int32Opt: try body.run(SMPortPrimitiveSet<Int32?>(factory), sorted: { (set: MutableSet<Int32?>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .int64Opt: try body.run(SMPortPrimitiveSet<Int64?>(factory), sorted: { (set: MutableSet<Int64?>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .floatOpt: try body.run(SMPortPrimitiveSet<Float?>(factory), sorted: { (set: MutableSet<Float?>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .doubleOpt: try body.run(SMPortPrimitiveSet<Double?>(factory), sorted: { (set: MutableSet<Double?>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .stringOpt: try body.run(SMPortPrimitiveSet<String?>(factory), sorted: { (set: MutableSet<String?>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .dataOpt: try body.run(SMPortPrimitiveSet<Data?>(factory), sorted: { (set: MutableSet<Data?>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    case .dateOpt: try body.run(SMPortPrimitiveSet<Date?>(factory), sorted: { (set: MutableSet<Date?>, ascending: Bool) in Array(set.sorted(ascending: ascending)) })
    default: Issue.record("\(type) is not one of this suite's types")
    }
}

/// Runs a PrimitiveMapTests body with the map of `type`.
func smPortWithMap(_ type: SMPortValueType, _ factory: SMPortObjectFactory, _ body: some SMPortMapBody) throws {
    switch type {
    case .int: try body.run(SMPortPrimitiveMap<Int>(factory))
    case .int8: try body.run(SMPortPrimitiveMap<Int8>(factory))
    case .int16: try body.run(SMPortPrimitiveMap<Int16>(factory))
    case .int32: try body.run(SMPortPrimitiveMap<Int32>(factory))
    case .int64: try body.run(SMPortPrimitiveMap<Int64>(factory))
    case .float: try body.run(SMPortPrimitiveMap<Float>(factory))
    case .double: try body.run(SMPortPrimitiveMap<Double>(factory))
    case .bool: try body.run(SMPortPrimitiveMap<Bool>(factory))
    case .string: try body.run(SMPortPrimitiveMap<String>(factory))
    case .data: try body.run(SMPortPrimitiveMap<Data>(factory))
    case .date: try body.run(SMPortPrimitiveMap<Date>(factory))
    case .decimal: try body.run(SMPortPrimitiveMap<Decimal128>(factory))
    case .objectId: try body.run(SMPortPrimitiveMap<ObjectId>(factory))
    case .uuid: try body.run(SMPortPrimitiveMap<UUID>(factory))
    case .intOpt: try body.run(SMPortPrimitiveMap<Int?>(factory))
    case .int8Opt: try body.run(SMPortPrimitiveMap<Int8?>(factory))
    case .int16Opt: try body.run(SMPortPrimitiveMap<Int16?>(factory))
    case .int32Opt: try body.run(SMPortPrimitiveMap<Int32?>(factory))
    case .int64Opt: try body.run(SMPortPrimitiveMap<Int64?>(factory))
    case .floatOpt: try body.run(SMPortPrimitiveMap<Float?>(factory))
    case .doubleOpt: try body.run(SMPortPrimitiveMap<Double?>(factory))
    case .boolOpt: try body.run(SMPortPrimitiveMap<Bool?>(factory))
    case .stringOpt: try body.run(SMPortPrimitiveMap<String?>(factory))
    case .dataOpt: try body.run(SMPortPrimitiveMap<Data?>(factory))
    case .dateOpt: try body.run(SMPortPrimitiveMap<Date?>(factory))
    case .decimalOpt: try body.run(SMPortPrimitiveMap<Decimal128?>(factory))
    case .objectIdOpt: try body.run(SMPortPrimitiveMap<ObjectId?>(factory))
    case .uuidOpt: try body.run(SMPortPrimitiveMap<UUID?>(factory))
    case .enumInt: try body.run(SMPortPrimitiveMap<SMPortEnumInt>(factory))
    case .enumInt8: try body.run(SMPortPrimitiveMap<SMPortEnumInt8>(factory))
    case .enumInt16: try body.run(SMPortPrimitiveMap<SMPortEnumInt16>(factory))
    case .enumInt32: try body.run(SMPortPrimitiveMap<SMPortEnumInt32>(factory))
    case .enumInt64: try body.run(SMPortPrimitiveMap<SMPortEnumInt64>(factory))
    case .enumFloat: try body.run(SMPortPrimitiveMap<SMPortEnumFloat>(factory))
    case .enumDouble: try body.run(SMPortPrimitiveMap<SMPortEnumDouble>(factory))
    case .enumString: try body.run(SMPortPrimitiveMap<SMPortEnumString>(factory))
    case .enumIntOpt: try body.run(SMPortPrimitiveMap<SMPortEnumInt?>(factory))
    case .enumInt8Opt: try body.run(SMPortPrimitiveMap<SMPortEnumInt8?>(factory))
    case .enumInt16Opt: try body.run(SMPortPrimitiveMap<SMPortEnumInt16?>(factory))
    case .enumInt32Opt: try body.run(SMPortPrimitiveMap<SMPortEnumInt32?>(factory))
    case .enumInt64Opt: try body.run(SMPortPrimitiveMap<SMPortEnumInt64?>(factory))
    case .enumFloatOpt: try body.run(SMPortPrimitiveMap<SMPortEnumFloat?>(factory))
    case .enumDoubleOpt: try body.run(SMPortPrimitiveMap<SMPortEnumDouble?>(factory))
    case .enumStringOpt: try body.run(SMPortPrimitiveMap<SMPortEnumString?>(factory))
    }
}

/// Runs a MinMaxPrimitiveMapTests body.
func smPortWithMinMaxMap(_ type: SMPortValueType, _ factory: SMPortObjectFactory, _ body: some SMPortMinMaxMapBody) throws {
    switch type {
    case .int: try body.run(SMPortPrimitiveMap<Int>(factory))
    case .int8: try body.run(SMPortPrimitiveMap<Int8>(factory))
    case .int16: try body.run(SMPortPrimitiveMap<Int16>(factory))
    case .int32: try body.run(SMPortPrimitiveMap<Int32>(factory))
    case .int64: try body.run(SMPortPrimitiveMap<Int64>(factory))
    case .float: try body.run(SMPortPrimitiveMap<Float>(factory))
    case .double: try body.run(SMPortPrimitiveMap<Double>(factory))
    case .date: try body.run(SMPortPrimitiveMap<Date>(factory))
    case .decimal: try body.run(SMPortPrimitiveMap<Decimal128>(factory))
    case .intOpt: try body.run(SMPortPrimitiveMap<Int?>(factory))
    case .int8Opt: try body.run(SMPortPrimitiveMap<Int8?>(factory))
    case .int16Opt: try body.run(SMPortPrimitiveMap<Int16?>(factory))
    case .int32Opt: try body.run(SMPortPrimitiveMap<Int32?>(factory))
    case .int64Opt: try body.run(SMPortPrimitiveMap<Int64?>(factory))
    case .floatOpt: try body.run(SMPortPrimitiveMap<Float?>(factory))
    case .doubleOpt: try body.run(SMPortPrimitiveMap<Double?>(factory))
    case .dateOpt: try body.run(SMPortPrimitiveMap<Date?>(factory))
    case .decimalOpt: try body.run(SMPortPrimitiveMap<Decimal128?>(factory))
    default: Issue.record("\(type) is not one of this suite's types")
    }
}

/// Runs an AddablePrimitiveMapTests body.
func smPortWithAddableMap(_ type: SMPortValueType, _ factory: SMPortObjectFactory, _ body: some SMPortAddableMapBody) throws {
    switch type {
    case .int: try body.run(SMPortPrimitiveMap<Int>(factory))
    case .int8: try body.run(SMPortPrimitiveMap<Int8>(factory))
    case .int16: try body.run(SMPortPrimitiveMap<Int16>(factory))
    case .int32: try body.run(SMPortPrimitiveMap<Int32>(factory))
    case .int64: try body.run(SMPortPrimitiveMap<Int64>(factory))
    case .float: try body.run(SMPortPrimitiveMap<Float>(factory))
    case .double: try body.run(SMPortPrimitiveMap<Double>(factory))
    case .decimal: try body.run(SMPortPrimitiveMap<Decimal128>(factory))
    case .intOpt: try body.run(SMPortPrimitiveMap<Int?>(factory))
    case .int8Opt: try body.run(SMPortPrimitiveMap<Int8?>(factory))
    case .int16Opt: try body.run(SMPortPrimitiveMap<Int16?>(factory))
    case .int32Opt: try body.run(SMPortPrimitiveMap<Int32?>(factory))
    case .int64Opt: try body.run(SMPortPrimitiveMap<Int64?>(factory))
    case .floatOpt: try body.run(SMPortPrimitiveMap<Float?>(factory))
    case .doubleOpt: try body.run(SMPortPrimitiveMap<Double?>(factory))
    case .decimalOpt: try body.run(SMPortPrimitiveMap<Decimal128?>(factory))
    default: Issue.record("\(type) is not one of this suite's types")
    }
}

/// Runs a SortablePrimitiveMapTests body, with the map's `sorted(ascending:)`.
func smPortWithSortableMap(_ type: SMPortValueType, _ factory: SMPortObjectFactory, _ body: some SMPortSortableMapBody) throws {
    switch type {
    case .int: try body.run(SMPortPrimitiveMap<Int>(factory), sorted: { (map: Map<String, Int>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .int8: try body.run(SMPortPrimitiveMap<Int8>(factory), sorted: { (map: Map<String, Int8>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .int16: try body.run(SMPortPrimitiveMap<Int16>(factory), sorted: { (map: Map<String, Int16>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .int32: try body.run(SMPortPrimitiveMap<Int32>(factory), sorted: { (map: Map<String, Int32>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .int64: try body.run(SMPortPrimitiveMap<Int64>(factory), sorted: { (map: Map<String, Int64>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .float: try body.run(SMPortPrimitiveMap<Float>(factory), sorted: { (map: Map<String, Float>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .double: try body.run(SMPortPrimitiveMap<Double>(factory), sorted: { (map: Map<String, Double>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .string: try body.run(SMPortPrimitiveMap<String>(factory), sorted: { (map: Map<String, String>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .data: try body.run(SMPortPrimitiveMap<Data>(factory), sorted: { (map: Map<String, Data>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .date: try body.run(SMPortPrimitiveMap<Date>(factory), sorted: { (map: Map<String, Date>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .intOpt: try body.run(SMPortPrimitiveMap<Int?>(factory), sorted: { (map: Map<String, Int?>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .int8Opt: try body.run(SMPortPrimitiveMap<Int8?>(factory), sorted: { (map: Map<String, Int8?>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .int16Opt: try body.run(SMPortPrimitiveMap<Int16?>(factory), sorted: { (map: Map<String, Int16?>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .int32Opt: try body.run(SMPortPrimitiveMap<Int32?>(factory), sorted: { (map: Map<String, Int32?>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .int64Opt: try body.run(SMPortPrimitiveMap<Int64?>(factory), sorted: { (map: Map<String, Int64?>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .floatOpt: try body.run(SMPortPrimitiveMap<Float?>(factory), sorted: { (map: Map<String, Float?>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .doubleOpt: try body.run(SMPortPrimitiveMap<Double?>(factory), sorted: { (map: Map<String, Double?>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .stringOpt: try body.run(SMPortPrimitiveMap<String?>(factory), sorted: { (map: Map<String, String?>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .dataOpt: try body.run(SMPortPrimitiveMap<Data?>(factory), sorted: { (map: Map<String, Data?>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    case .dateOpt: try body.run(SMPortPrimitiveMap<Date?>(factory), sorted: { (map: Map<String, Date?>, ascending: Bool) in Array(map.sorted(ascending: ascending)) })
    default: Issue.record("\(type) is not one of this suite's types")
    }
}

// MARK: - PrimitiveMutableSetTests

@Suite struct PrimitiveSetAndMapPortTests {
    typealias Factory = SMPortObjectFactory
    typealias ValueType = SMPortValueType

    // PrimitiveMutableSetTests.testInvalidated
    @Test(arguments: Factory.allCases, ValueType.setTypes) func setInvalidated(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortSetBody {
            func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>) throws {
                defer { f.roots.finish() }
                #expect(!f.mutableSet.isInvalidated)
                if let realm = f.obj.realm {
                    realm.delete(f.obj)
                    #expect(f.mutableSet.isInvalidated)
                }
            }
        }
        try smPortWithSet(type, factory, Body())
    }

    // PrimitiveMutableSetTests.testInsert
    @Test(arguments: Factory.allCases, ValueType.setTypes) func setInsert(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortSetBody {
            func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>) throws {
                defer { f.roots.finish() }
                let (mutableSet, values) = (f.mutableSet, f.values)
                #expect(mutableSet.count == 0)

                mutableSet.insert(values[0])
                #expect(mutableSet.count == 1)
                #expect(mutableSet.contains(values[0]))

                mutableSet.insert(values[1])
                #expect(mutableSet.count == 2)
                #expect(mutableSet.contains(values[0]))
                #expect(mutableSet.contains(values[1]))

                mutableSet.insert(values[2])
                #expect(mutableSet.count == 3)
                #expect(mutableSet.contains(values[0]))
                #expect(mutableSet.contains(values[1]))

                mutableSet.insert(values[2])
                #expect(mutableSet.count == 3)
                #expect(mutableSet.contains(values[0]))
                #expect(mutableSet.contains(values[1]))
                #expect(mutableSet.contains(values[2]))
                // Insert duplicate
                mutableSet.insert(values[2])
                #expect(mutableSet.count == 3)
                #expect(mutableSet.contains(values[0]))
                #expect(mutableSet.contains(values[1]))
                #expect(mutableSet.contains(values[2]))
            }
        }
        try smPortWithSet(type, factory, Body())
    }

    // PrimitiveMutableSetTests.testRemove
    @Test(arguments: Factory.allCases, ValueType.setTypes) func setRemove(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortSetBody {
            func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>) throws {
                defer { f.roots.finish() }
                let (mutableSet, values) = (f.mutableSet, f.values)
                mutableSet.removeAll()
                #expect(mutableSet.count == 0)
                mutableSet.insert(objectsIn: values)
                mutableSet.remove(values[0])
                #expect(!mutableSet.contains(values[0]))
                #expect(mutableSet.contains(values[1]))
                #expect(mutableSet.contains(values[2]))
            }
        }
        try smPortWithSet(type, factory, Body())
    }

    // PrimitiveMutableSetTests.testRemoveAll
    @Test(arguments: Factory.allCases, ValueType.setTypes) func setRemoveAll(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortSetBody {
            func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>) throws {
                defer { f.roots.finish() }
                f.mutableSet.removeAll()
                f.mutableSet.insert(objectsIn: f.values)
                f.mutableSet.removeAll()
                #expect(f.mutableSet.count == 0)
            }
        }
        try smPortWithSet(type, factory, Body())
    }

    // PrimitiveMutableSetTests.testIsSubset
    @Test(arguments: Factory.allCases, ValueType.setTypes) func setIsSubset(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortSetBody {
            func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>) throws {
                defer { f.roots.finish() }
                let (mutableSet, otherMutableSet, values) = (f.mutableSet, f.otherMutableSet, f.values)
                #expect(mutableSet.count == 0)
                #expect(otherMutableSet.count == 0)
                mutableSet.insert(objectsIn: values)
                otherMutableSet.insert(values[0])
                // Both sets contain values[0]
                #expect(otherMutableSet.isSubset(of: mutableSet))
                otherMutableSet.remove(values[0])
                #expect(!mutableSet.isSubset(of: otherMutableSet))
            }
        }
        try smPortWithSet(type, factory, Body())
    }

    // PrimitiveMutableSetTests.testContains
    @Test(arguments: Factory.allCases, ValueType.setTypes) func setContains(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortSetBody {
            func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>) throws {
                defer { f.roots.finish() }
                let (mutableSet, otherMutableSet, values) = (f.mutableSet, f.otherMutableSet, f.values)
                #expect(mutableSet.count == 0)
                #expect(otherMutableSet.count == 0)
                mutableSet.insert(objectsIn: values)
                #expect(mutableSet.count == values.count)
                values.forEach {
                    #expect(mutableSet.contains($0))
                }
            }
        }
        try smPortWithSet(type, factory, Body())
    }

    // PrimitiveMutableSetTests.testIntersects
    @Test(arguments: Factory.allCases, ValueType.setTypes) func setIntersects(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortSetBody {
            func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>) throws {
                defer { f.roots.finish() }
                let (mutableSet, otherMutableSet, values) = (f.mutableSet, f.otherMutableSet, f.values)
                #expect(mutableSet.count == 0)
                #expect(otherMutableSet.count == 0)
                mutableSet.insert(objectsIn: values)
                otherMutableSet.insert(values[0])
                // Both sets contain values[0]
                #expect(otherMutableSet.intersects(mutableSet))
                otherMutableSet.remove(values[0])
                #expect(!mutableSet.intersects(otherMutableSet))
            }
        }
        try smPortWithSet(type, factory, Body())
    }

    // PrimitiveMutableSetTests.testFormIntersection
    @Test(arguments: Factory.allCases, ValueType.setTypes) func setFormIntersection(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortSetBody {
            func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>) throws {
                defer { f.roots.finish() }
                let (mutableSet, otherMutableSet, values) = (f.mutableSet, f.otherMutableSet, f.values)
                #expect(mutableSet.count == 0)
                #expect(otherMutableSet.count == 0)
                mutableSet.insert(objectsIn: values)
                otherMutableSet.insert(values[0])
                // Both sets contain values[0]
                mutableSet.formIntersection(otherMutableSet)
                #expect(mutableSet.count == 1)
                // assertSetContains(mutableSet, keyPath: \.self, items: [values[0]])
                #expect(Array(mutableSet) == [values[0]])
            }
        }
        try smPortWithSet(type, factory, Body())
    }

    // PrimitiveMutableSetTests.testFormUnion
    @Test(arguments: Factory.allCases, ValueType.setTypes) func setFormUnion(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortSetBody {
            func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>) throws {
                defer { f.roots.finish() }
                let (mutableSet, otherMutableSet, values) = (f.mutableSet, f.otherMutableSet, f.values)
                #expect(mutableSet.count == 0)
                #expect(otherMutableSet.count == 0)
                mutableSet.insert(values[0])
                mutableSet.insert(values[1])
                otherMutableSet.insert(values[0])
                otherMutableSet.insert(values[2])
                mutableSet.formUnion(otherMutableSet)
                #expect(mutableSet.count == 3)
                // assertSetContains(mutableSet, keyPath: \.self, items: [values[0], values[1], values[2]])
                #expect([values[0], values[1], values[2]].allSatisfy { mutableSet.contains($0) })
            }
        }
        try smPortWithSet(type, factory, Body())
    }

    // PrimitiveMutableSetTests.testSubtract
    @Test(arguments: Factory.allCases, ValueType.setTypes) func setSubtract(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortSetBody {
            func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>) throws {
                defer { f.roots.finish() }
                let (mutableSet, otherMutableSet, values) = (f.mutableSet, f.otherMutableSet, f.values)
                #expect(mutableSet.count == 0)
                #expect(otherMutableSet.count == 0)
                mutableSet.insert(values[0])
                mutableSet.insert(values[1])
                otherMutableSet.insert(values[0])
                otherMutableSet.insert(values[2])
                mutableSet.subtract(otherMutableSet)
                #expect(mutableSet.count == 1)
                #expect(!mutableSet.contains(values[0]))
                #expect(mutableSet.contains(values[1]))
            }
        }
        try smPortWithSet(type, factory, Body())
    }

    // PrimitiveMutableSetTests.testSubscript
    @Test(arguments: Factory.allCases, ValueType.setTypes) func setSubscript(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortSetBody {
            func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>) throws {
                defer { f.roots.finish() }
                let (mutableSet, values) = (f.mutableSet, f.values)
                mutableSet.insert(objectsIn: values)
                #expect(values.contains(mutableSet[0]))
                #expect(values.contains(mutableSet[1]))
                #expect(values.contains(mutableSet[2]))
            }
        }
        try smPortWithSet(type, factory, Body())
    }

    // MinMaxPrimitiveMutableSetTests.testMin
    @Test(arguments: Factory.allCases, ValueType.minMaxTypes) func setMin(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortMinMaxSetBody {
            func run<V: SMPortSetValue & _AggregatedElement>(_ f: SMPortPrimitiveSet<V>) throws where V._Aggregated: MinMaxType {
                defer { f.roots.finish() }
                #expect(f.mutableSet.min() == nil)
                f.mutableSet.insert(objectsIn: f.values)
                #expect(f.mutableSet.min() == V.smPortMin()._aggregated)
            }
        }
        try smPortWithMinMaxSet(type, factory, Body())
    }

    // MinMaxPrimitiveMutableSetTests.testMax
    @Test(arguments: Factory.allCases, ValueType.minMaxTypes) func setMax(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortMinMaxSetBody {
            func run<V: SMPortSetValue & _AggregatedElement>(_ f: SMPortPrimitiveSet<V>) throws where V._Aggregated: MinMaxType {
                defer { f.roots.finish() }
                #expect(f.mutableSet.max() == nil)
                f.mutableSet.insert(objectsIn: f.values)
                #expect(f.mutableSet.max() == V.smPortMax()._aggregated)
            }
        }
        try smPortWithMinMaxSet(type, factory, Body())
    }

    // AddablePrimitiveMutableSetTests.testSum
    @Test(arguments: Factory.allCases, ValueType.addableTypes) func setSum(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortAddableSetBody {
            func run<V: SMPortSetValue & SMPortNumericValue & _AggregatedElement>(_ f: SMPortPrimitiveSet<V>) throws
            where V._Aggregated: AddableType {
                defer { f.roots.finish() }
                #expect(f.mutableSet.sum()._doubleValue == 0)
                f.mutableSet.insert(objectsIn: f.values)
                #expect(abs(f.mutableSet.sum()._doubleValue - V.smPortSum()) <= 0.01)
            }
        }
        try smPortWithAddableSet(type, factory, Body())
    }

    // AddablePrimitiveMutableSetTests.testAverage
    @Test(arguments: Factory.allCases, ValueType.addableTypes) func setAverage(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortAddableSetBody {
            func run<V: SMPortSetValue & SMPortNumericValue & _AggregatedElement>(_ f: SMPortPrimitiveSet<V>) throws
            where V._Aggregated: AddableType {
                defer { f.roots.finish() }
                #expect(f.mutableSet.average() == nil)
                f.mutableSet.insert(objectsIn: f.values)
                let average = try #require(f.mutableSet.average())
                #expect(abs(average - V.smPortAverage()) <= 0.01)
            }
        }
        try smPortWithAddableSet(type, factory, Body())
    }

    // SortablePrimitiveMutableSetTests.testSorted (managed sets, as in Realm)
    @Test(arguments: ValueType.sortableTypes) func setSorted(_ type: ValueType) throws {
        struct Body: SMPortSortableSetBody {
            func run<V: SMPortSetValue>(_ f: SMPortPrimitiveSet<V>, sorted: (MutableSet<V>, Bool) -> [V]) throws {
                defer { f.roots.finish() }
                var shuffled = f.values
                shuffled.removeFirst()
                shuffled.append(f.values.first!)
                f.mutableSet.insert(objectsIn: shuffled)

                #expect(sorted(f.mutableSet, true) == f.values)
                #expect(sorted(f.mutableSet, false) == f.values.reversed())
            }
        }
        try smPortWithSortableSet(type, .managed, Body())
    }

    // MARK: PrimitiveMapTests

    // PrimitiveMapTests.testInvalidated
    @Test(arguments: Factory.allCases, ValueType.allCases) func mapInvalidated(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortMapBody {
            func run<V: SMPortMapValue>(_ f: SMPortPrimitiveMap<V>) throws {
                defer { f.roots.finish() }
                #expect(!f.map.isInvalidated)
                if let realm = f.obj.realm {
                    realm.delete(f.obj)
                    #expect(f.map.isInvalidated)
                }
            }
        }
        try smPortWithMap(type, factory, Body())
    }

    // PrimitiveMapTests.testEnumeration
    @Test(arguments: Factory.allCases, ValueType.allCases) func mapEnumeration(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortMapBody {
            func run<V: SMPortMapValue>(_ f: SMPortPrimitiveMap<V>) throws {
                defer { f.roots.finish() }
                let (map, values) = (f.map, f.values)
                #expect(map.count == 0)
                map.merge(values) { $1 }
                var fulfilled = 0
                for element in map where values.filter({ $0.key == element.key }).first!.value == element.value {
                    fulfilled += 1
                }
                #expect(fulfilled == 3, "did enumerate all keys and values")
            }
        }
        try smPortWithMap(type, factory, Body())
    }

    // PrimitiveMapTests.testValueForKey
    @Test(arguments: Factory.allCases, ValueType.allCases) func mapValueForKey(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortMapBody {
            func run<V: SMPortMapValue>(_ f: SMPortPrimitiveMap<V>) throws {
                defer { f.roots.finish() }
                let (map, values) = (f.map, f.values)
                let key = values[0].key
                #expect(map.value(forKey: key) == nil)
                map.setValue(values[0].value, forKey: key)
                let kvc = try #require(map.value(forKey: key))
                #expect(kvc == values[0].value)
            }
        }
        try smPortWithMap(type, factory, Body())
    }

    // PrimitiveMapTests.testInsert
    @Test(arguments: Factory.allCases, ValueType.allCases) func mapInsert(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortMapBody {
            func run<V: SMPortMapValue>(_ f: SMPortPrimitiveMap<V>) throws {
                defer { f.roots.finish() }
                let (map, values) = (f.map, f.values)
                #expect(map.count == 0)

                map[values[0].key] = values[0].value
                #expect(map.count == 1)
                #expect(map.keys.count == 1)
                #expect(map.values.count == 1)
                #expect(Set([values[0].key]).isSubset(of: map.keys))
                #expect(map[values[0].key] == values[0].value)

                map[values[1].key] = values[1].value
                #expect(map.count == 2)
                #expect(map.keys.count == 2)
                #expect(map.values.count == 2)
                #expect(Set([values[0].key, values[1].key]).isSubset(of: map.keys))
                #expect(map[values[1].key] == values[1].value)

                map[values[2].key] = values[2].value
                #expect(map.count == 3)
                #expect(map.keys.count == 3)
                #expect(map.values.count == 3)
                #expect(Set(values.map { $0.key }).isSubset(of: map.keys))
                #expect(map[values[2].key] == values[2].value)
            }
        }
        try smPortWithMap(type, factory, Body())
    }

    // PrimitiveMapTests.testUpdate
    @Test(arguments: Factory.allCases, ValueType.allCases) func mapUpdate(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortMapBody {
            func run<V: SMPortMapValue>(_ f: SMPortPrimitiveMap<V>) throws {
                defer { f.roots.finish() }
                let (map, values) = (f.map, f.values)
                #expect(map.count == 0)

                map[values[0].key] = values[0].value
                #expect(map.count == 1)
                #expect(map.keys.count == 1)
                #expect(map.values.count == 1)
                #expect(Set([values[0].key]).isSubset(of: map.keys))
                #expect(map[values[0].key] == values[0].value)

                map.updateValue(values[1].value, forKey: values[0].key)
                #expect(map.count == 1)
                #expect(map.keys.count == 1)
                #expect(map.values.count == 1)
                #expect(Set([values[0].key]).isSubset(of: map.keys))
                #expect(map[values[0].key] == values[1].value)
            }
        }
        try smPortWithMap(type, factory, Body())
    }

    // PrimitiveMapTests.testRemove
    @Test(arguments: Factory.allCases, ValueType.allCases) func mapRemove(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortMapBody {
            func run<V: SMPortMapValue>(_ f: SMPortPrimitiveMap<V>) throws {
                defer { f.roots.finish() }
                let (map, values) = (f.map, f.values)
                #expect(map.count == 0)
                map.merge(values) { $1 }
                #expect(map.count == 3)
                #expect(map.keys.count == 3)
                #expect(map.values.count == 3)
                #expect(Set(values.map { $0.key }).isSubset(of: map.keys))

                let key = values[0].key
                map.setValue(nil, forKey: key)
                #expect(map.value(forKey: key) == nil)

                map.removeAll()
                #expect(map.count == 0)

                map.merge(values) { $1 }

                map[values[1].key] = nil
                #expect(map[values[1].key] == nil)
                map.removeObject(for: values[2].key)
                // make sure the key was deleted
                #expect(Set([values[0].key]).isSubset(of: map.keys))
            }
        }
        try smPortWithMap(type, factory, Body())
    }

    // PrimitiveMapTests.testSubscript
    @Test(arguments: Factory.allCases, ValueType.allCases) func mapSubscript(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortMapBody {
            func run<V: SMPortMapValue>(_ f: SMPortPrimitiveMap<V>) throws {
                defer { f.roots.finish() }
                let (map, values) = (f.map, f.values)
                // setter
                #expect(map.count == 0)
                map[values[0].key] = values[0].value
                map[values[1].key] = values[1].value
                map[values[2].key] = values[2].value
                #expect(map.count == 3)
                #expect(map.keys.count == 3)
                #expect(map.values.count == 3)
                #expect(Set(values.map { $0.key }).isSubset(of: map.keys))
                map[values[0].key] = values[0].value
                map[values[1].key] = nil
                map[values[2].key] = values[2].value
                #expect(map.count == 2)
                #expect(map.keys.count == 2)
                #expect(map.values.count == 2)
                #expect(Set([values[0].key, values[2].key]).isSubset(of: map.keys))
                #expect(map.count == 2)
                #expect(map.keys.count == 2)
                #expect(map.values.count == 2)
                #expect(Set([values[0].key, values[2].key]).isSubset(of: map.keys))
                // getter
                map.removeAll()
                #expect(map[values[0].key] == nil)
                map[values[0].key] = values[0].value
                #expect(values[0].value == map[values[0].key])
            }
        }
        try smPortWithMap(type, factory, Body())
    }

    // MinMaxPrimitiveMapTests.testMin
    @Test(arguments: Factory.allCases, ValueType.minMaxTypes) func mapMin(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortMinMaxMapBody {
            func run<V: SMPortMapValue & _AggregatedElement>(_ f: SMPortPrimitiveMap<V>) throws where V._Aggregated: MinMaxType {
                defer { f.roots.finish() }
                #expect(f.map.min() == nil)
                f.map.merge(f.values) { $1 }
                f.map.merge(f.values) { $1 }
                #expect(f.map.min() == V.smPortMin()._aggregated)
            }
        }
        try smPortWithMinMaxMap(type, factory, Body())
    }

    // MinMaxPrimitiveMapTests.testMax
    @Test(arguments: Factory.allCases, ValueType.minMaxTypes) func mapMax(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortMinMaxMapBody {
            func run<V: SMPortMapValue & _AggregatedElement>(_ f: SMPortPrimitiveMap<V>) throws where V._Aggregated: MinMaxType {
                defer { f.roots.finish() }
                #expect(f.map.max() == nil)
                f.map.merge(f.values) { $1 }
                #expect(f.map.max() == V.smPortMax()._aggregated)
            }
        }
        try smPortWithMinMaxMap(type, factory, Body())
    }

    // AddablePrimitiveMapTests.testSum
    @Test(arguments: Factory.allCases, ValueType.addableTypes) func mapSum(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortAddableMapBody {
            func run<V: SMPortMapValue & SMPortNumericValue & _AggregatedElement>(_ f: SMPortPrimitiveMap<V>) throws
            where V._Aggregated: AddableType {
                defer { f.roots.finish() }
                #expect(f.map.sum()._doubleValue == 0)
                f.map.merge(f.values) { $1 }
                #expect(abs(f.map.sum()._doubleValue - V.smPortSum()) <= 0.01)
            }
        }
        try smPortWithAddableMap(type, factory, Body())
    }

    // AddablePrimitiveMapTests.testAverage
    @Test(arguments: Factory.allCases, ValueType.addableTypes) func mapAverage(_ factory: Factory, _ type: ValueType) throws {
        struct Body: SMPortAddableMapBody {
            func run<V: SMPortMapValue & SMPortNumericValue & _AggregatedElement>(_ f: SMPortPrimitiveMap<V>) throws
            where V._Aggregated: AddableType {
                defer { f.roots.finish() }
                #expect(f.map.average() == nil)
                f.map.merge(f.values) { $1 }
                let average = try #require(f.map.average())
                #expect(abs(average - V.smPortAverage()) <= 0.1)
            }
        }
        try smPortWithAddableMap(type, factory, Body())
    }

    // SortablePrimitiveMapTests.testSorted (managed maps, as in Realm)
    @Test(arguments: ValueType.sortableTypes) func mapSorted(_ type: ValueType) throws {
        struct Body: SMPortSortableMapBody {
            func run<V: SMPortMapValue>(_ f: SMPortPrimitiveMap<V>, sorted: (Map<String, V>, Bool) -> [V]) throws {
                defer { f.roots.finish() }
                f.map.merge(f.values) { $1 }
                #expect(f.map.count == 3)
                let values2: [V] = f.values.map { $0.value }

                #expect(sorted(f.map, true) == values2)
                #expect(sorted(f.map, false) == values2.reversed())
            }
        }
        try smPortWithSortableMap(type, .managed, Body())
    }
}
