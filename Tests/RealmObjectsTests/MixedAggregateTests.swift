import Foundation
import RealmObjects
import Testing

/// An object with a list, a set and a map of mixed values.
final class MixedAggregateHolder: Object {
    @Persisted var list: List<AnyRealmValue>
    @Persisted var set: MutableSet<AnyRealmValue>
    @Persisted var map: Map<String, AnyRealmValue>
}

/// The kind and the number of a sum or an average: `AnyRealmValue`'s `==`
/// compares numbers of every kind by value (`.int(0) == .decimal128(0)`),
/// and these tests are about the kind too.
private enum Number: Equatable {
    case int(Int)
    case double(Double)
    case decimal128(Decimal128)

    init?(_ value: AnyRealmValue?) {
        switch value {
        case .int(let int): self = .int(int)
        case .double(let double): self = .double(double)
        case .decimal128(let decimal): self = .decimal128(decimal)
        default: return nil
        }
    }
}

/// `sum()` and `average()` of collections of mixed values, as Realm 10.54
/// computes them (realm-core's `Sum<Mixed>` and `Average<Mixed>`, and
/// Foundation's `@sum`/`@avg` for unmanaged collections): the numbers
/// count, other values do not; a managed collection's result is a
/// decimal, an unmanaged one's a double.
@Suite struct MixedAggregateTests {
    /// Ints, a float, a double and a decimal (9 in all, 4 numbers), and
    /// values that are no numbers.
    static var mixed: [AnyRealmValue] {
        [.int(1), .float(1.5), .double(2.5), .decimal128(4),
         .none, .bool(true), .string("10"), .date(Date(timeIntervalSince1970: 100)), .data(Data([1]))]
    }

    static var keyed: [String: AnyRealmValue] {
        Dictionary(uniqueKeysWithValues: mixed.enumerated().map { ("k\($0.offset)", $0.element) })
    }

    private func managedHolder() throws -> (Realm, MixedAggregateHolder) {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [MixedAggregateHolder.self]))
        let holder = try realm.write { realm.create(MixedAggregateHolder.self) }
        return (realm, holder)
    }

    // MARK: Managed

    @Test func managedEmptyListAndSetSumToDecimalZero() throws {
        let (_, holder) = try managedHolder()
        #expect(Number(holder.list.sum()) == .decimal128(0))
        #expect(Number(holder.set.sum()) == .decimal128(0))
        // Realm's AnyRealmValueTests: a managed empty list's sum has no intValue.
        #expect(holder.list.sum().intValue == nil)
    }

    @Test func managedEmptyMapSumsToIntZero() throws {
        let (realm, holder) = try managedHolder()
        // realm-core sums a dictionary never written to as the integer 0.
        #expect(Number(holder.map.sum()) == .int(0))
        // A map that holds values, but no numbers, sums in decimal.
        try realm.write { holder.map["a"] = .string("a") }
        #expect(Number(holder.map.sum()) == .decimal128(0))
    }

    @Test func managedEmptyAveragesAreNil() throws {
        let (_, holder) = try managedHolder()
        #expect((holder.list.average() as AnyRealmValue?) == nil)
        #expect((holder.set.average() as Decimal128?) == nil)
        #expect((holder.map.average() as Double?) == nil)
    }

    @Test func managedListSumsAndAveragesTheNumbersInDecimal() throws {
        let (realm, holder) = try managedHolder()
        try realm.write { holder.list.append(objectsIn: Self.mixed) }
        #expect(Number(holder.list.sum()) == .decimal128(9))
        #expect(Number(holder.list.average()) == .decimal128((2.25 as Decimal128)))
        #expect((holder.list.average() as Decimal128?) == (2.25 as Decimal128))
        // Read as a double, it is the same average, over the numbers only.
        #expect((holder.list.average() as Double?) == 2.25)
        // Results of the list's values aggregate alike.
        #expect(Number(holder.list.sorted(ascending: true).sum()) == .decimal128(9))
    }

    @Test func managedSetSumsAndAveragesTheNumbersInDecimal() throws {
        let (realm, holder) = try managedHolder()
        try realm.write { holder.set.insert(objectsIn: Self.mixed) }
        #expect(Number(holder.set.sum()) == .decimal128(9))
        #expect(Number(holder.set.average()) == .decimal128((2.25 as Decimal128)))
        #expect((holder.set.average() as Double?) == 2.25)
    }

    @Test func managedMapSumsAndAveragesTheNumbersInDecimal() throws {
        let (realm, holder) = try managedHolder()
        try realm.write { holder.map.merge(Self.keyed) { $1 } }
        #expect(Number(holder.map.sum()) == .decimal128(9))
        #expect(Number(holder.map.average()) == .decimal128((2.25 as Decimal128)))
        #expect((holder.map.average() as Double?) == 2.25)
    }

    @Test func managedValuesWithoutNumbers() throws {
        let (realm, holder) = try managedHolder()
        try realm.write {
            holder.list.append(objectsIn: [.bool(true), .bool(false), .string("1"), .none])
            holder.map["b"] = .bool(true)
        }
        // Booleans are no numbers.
        #expect(Number(holder.list.sum()) == .decimal128(0))
        #expect((holder.list.average() as AnyRealmValue?) == nil)
        #expect((holder.list.average() as Double?) == nil)
        #expect((holder.map.average() as AnyRealmValue?) == nil)
    }

    @Test func decimalsAsRealmConvertsNumbers() throws {
        let (realm, holder) = try managedHolder()
        try realm.write {
            // A double counts with 15 significant digits, a float with 7,
            // as realm-core converts them to decimals: 0.1 + 0.2 is 0.3,
            // and the float 1.1 is 1.1.
            holder.list.append(objectsIn: [.double(0.1), .double(0.2)])
            holder.set.insert(.float(1.1))
            // A NaN decimal is left out.
            holder.map["nan"] = .decimal128(.nan)
            holder.map["two"] = .int(2)
        }
        #expect(Number(holder.list.sum()) == .decimal128((0.3 as Decimal128)))
        #expect(Number(holder.set.sum()) == .decimal128((1.1 as Decimal128)))
        #expect(Number(holder.map.sum()) == .decimal128(2))
        #expect((holder.map.average() as Decimal128?) == 2)
    }

    // MARK: Unmanaged

    @Test func unmanagedEmptySumsToIntZero() {
        let holder = MixedAggregateHolder()
        #expect(Number(holder.list.sum()) == .int(0))
        #expect(Number(holder.set.sum()) == .int(0))
        #expect(Number(holder.map.sum()) == .int(0))
        #expect((holder.list.average() as AnyRealmValue?) == nil)
        #expect((holder.set.average() as Double?) == nil)
        #expect((holder.map.average() as Decimal128?) == nil)
    }

    @Test func unmanagedCollectionsSumAndAverageTheNumbersAsDoubles() {
        let holder = MixedAggregateHolder()
        holder.list.append(objectsIn: Self.mixed)
        holder.set.insert(objectsIn: Self.mixed)
        holder.map.merge(Self.keyed) { $1 }
        for (sum, average) in [(holder.list.sum(), holder.list.average() as AnyRealmValue?),
                               (holder.set.sum(), holder.set.average()),
                               (holder.map.sum(), holder.map.average())] {
            #expect(Number(sum) == .double(9))
            #expect(Number(average) == .double(2.25))
        }
        #expect((holder.list.average() as Double?) == 2.25)
        #expect((holder.map.average() as Decimal128?) == (2.25 as Decimal128))
    }

    @Test func unmanagedValuesWithoutNumbersSumToIntZero() {
        let holder = MixedAggregateHolder()
        holder.list.append(objectsIn: [.string("1"), .bool(true)])
        #expect(Number(holder.list.sum()) == .int(0))
        #expect((holder.list.average() as AnyRealmValue?) == nil)
    }
}
