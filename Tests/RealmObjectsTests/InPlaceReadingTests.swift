import Foundation
import RealmObjects
import Testing

/// A loop reads each object's row in place from its cursor; an object the
/// loop keeps gets its row copied before the cursor steps on. Nothing a
/// program reads tells the difference from reading each object by key.
@Suite struct InPlaceReadingTests {
    static let count = 700

    /// The values of object `index`: every type, nil and not, NaN included.
    static func make(_ index: Int) -> AllTypes {
        let object = AllTypes()
        object.bool = index % 2 == 0
        object.int = index
        object.int8 = Int8(truncatingIfNeeded: index)
        object.int16 = Int16(index)
        object.int32 = Int32(index * 3)
        object.int64 = Int64(index) << 40
        object.float = index % 7 == 0 ? .nan : Float(index) / 4
        object.double = index % 5 == 0 ? .nan : Double(index) / 8
        object.string = "object \(index)"
        object.data = Data([UInt8(index % 256), 1, 2])
        object.date = Date(timeIntervalSinceReferenceDate: Double(index) * 60)
        object.objectId = ObjectId(string: String(format: "%024x", index))!
        object.uuid = UUID(uuidString: String(format: "00000000-0000-0000-0000-%012x", index))!
        object.decimal = Decimal(index) / 100
        object.status = index % 3 == 0 ? .complete : .inProgress
        if index % 4 != 0 {
            object.optionalBool = index % 8 == 1
            object.optionalInt = -index
            object.optionalFloat = Float(index)
            object.optionalDouble = index % 3 == 0 ? .nan : -Double(index)
            object.optionalString = "optional \(index)"
            object.optionalData = Data([UInt8(index % 256)])
            object.optionalDate = Date(timeIntervalSince1970: Double(index))
            object.optionalObjectId = ObjectId(string: String(format: "%024x", index + 1))!
            object.optionalUUID = UUID(uuidString: String(format: "00000000-0000-0000-0001-%012x", index))!
            object.optionalStatus = .notStarted
        }
        object.ints.append(objectsIn: [index, index + 1])
        return object
    }

    /// Everything an object's properties read, NaN spelled out so that two
    /// NaNs compare equal.
    static func describe(_ object: AllTypes) -> [String] {
        [
            "\(object.bool)", "\(object.int)", "\(object.int8)", "\(object.int16)", "\(object.int32)", "\(object.int64)",
            "\(object.float)", "\(object.double)", object.string, "\(Array(object.data))", "\(object.date)",
            "\(object.objectId)", "\(object.uuid)", "\(object.decimal)", "\(object.status)",
            "\(String(describing: object.optionalBool))", "\(String(describing: object.optionalInt))",
            "\(String(describing: object.optionalFloat))", "\(String(describing: object.optionalDouble))",
            "\(String(describing: object.optionalString))", "\(String(describing: object.optionalData.map(Array.init)))",
            "\(String(describing: object.optionalDate))", "\(String(describing: object.optionalObjectId))",
            "\(String(describing: object.optionalUUID))", "\(String(describing: object.optionalStatus))",
            "\(Array(object.ints))",
        ]
    }

    func fixture(_ name: String = #function) throws -> Realm {
        let realm = try Realm(configuration: inMemoryConfiguration(name, types: [AllTypes.self, Holder.self, Station.self, Reading.self]))
        try realm.write {
            for index in 0..<Self.count { realm.add(Self.make(index)) }
        }
        return realm
    }

    @Test func aLoopReadsEveryTypeAsStored() throws {
        let realm = try fixture()
        var seen = 0
        for object in realm.objects(AllTypes.self) {
            #expect(Self.describe(object) == Self.describe(Self.make(seen)))
            seen += 1
        }
        #expect(seen == Self.count)
    }

    @Test func keptObjectsKeepTheirOwnValues() throws {
        let realm = try fixture()
        var kept: [AllTypes] = []
        for object in realm.objects(AllTypes.self) where object.int % 3 == 0 {
            kept.append(object)
        }
        #expect(kept.count == (Self.count + 2) / 3)
        for object in kept {
            #expect(Self.describe(object) == Self.describe(Self.make(object.int)))
        }
        // `Array` keeps every object.
        let all = Array(realm.objects(AllTypes.self).filter("int >= 600"))
        #expect(all.map(\.int) == Array(600..<Self.count))
        #expect(all.map(\.string) == (600..<Self.count).map { "object \($0)" })
    }

    /// An object held while the iterator moves on reads its own row, never
    /// the row the cursor now stands on.
    @Test func anObjectHeldAcrossStepsReadsItsOwnRow() throws {
        let realm = try fixture()
        var iterator = realm.objects(AllTypes.self).makeIterator()
        let next = iterator.next()
        let first = try #require(next)
        #expect(first.int == 0)
        weak var weakSecond: AllTypes?
        do {
            let next = iterator.next()
            let second = try #require(next)
            weakSecond = second
            #expect(second.int == 1)
            for expected in 2..<10 { #expect(iterator.next()?.int == expected) }
            #expect(second.string == "object 1")
        }
        #expect(weakSecond == nil)
        #expect(first.int == 0 && first.string == "object 0")
        #expect(Self.describe(first) == Self.describe(Self.make(0)))
    }

    @Test func anObjectKeptByALoopThatBreaksReadsAfterTheLoop() throws {
        let realm = try fixture()
        var found: AllTypes?
        for object in realm.objects(AllTypes.self) where object.int == 42 {
            found = object
            break
        }
        let object = try #require(found)
        #expect(Self.describe(object) == Self.describe(Self.make(42)))
        // Live: a later write shows.
        try realm.write { object.string = "changed" }
        #expect(object.string == "changed")
    }

    @Test func aWriteInsideTheLoopIsSeenByTheObjectsItHandsOut() throws {
        let realm = try fixture()
        var kept: [AllTypes] = []
        try realm.write {
            for object in realm.objects(AllTypes.self).filter("int < 50") {
                object.int32 = -1
                #expect(object.int32 == -1)
                #expect(object.string == "object \(object.int)")
                kept.append(object)
            }
        }
        #expect(kept.count == 50)
        #expect(kept.allSatisfy { $0.int32 == -1 })
        #expect(realm.objects(AllTypes.self).filter("int32 == -1").count == 50)
    }

    @Test func nestedLoopsReadTheirOwnRows() throws {
        let realm = try fixture()
        let results = realm.objects(AllTypes.self).filter("int < 20")
        var pairs = 0
        for outer in results {
            for inner in results where inner.int == outer.int {
                #expect(inner.string == outer.string)
                pairs += 1
            }
            #expect(outer.string == "object \(outer.int)")
        }
        #expect(pairs == 20)
    }

    @Test func aWriteMidLoopFallsBackToReadsByKey() throws {
        let realm = try fixture()
        var sum = 0
        var iterator = realm.objects(AllTypes.self).filter("int < 10").makeIterator()
        let next = iterator.next()
        let first = try #require(next)
        try realm.write { first.string = "written" }
        #expect(first.string == "written")
        while let next = iterator.next() { sum += next.int }
        #expect(sum == (1..<10).reduce(0, +))
        #expect(first.int == 0)
    }

    /// Another thread's commit, seen by a refresh mid-loop: the object
    /// the loop stands on reads the new version, and the loop goes on over
    /// the matches it began with.
    @Test func aRefreshMidLoopShowsTheNewVersion() throws {
        let configuration = inMemoryConfiguration(types: [AllTypes.self, Holder.self, Station.self, Reading.self])
        let realm = try Realm(configuration: configuration)
        try realm.write {
            for index in 0..<Self.count { realm.add(Self.make(index)) }
        }
        var seen: [Int] = []
        for object in realm.objects(AllTypes.self).filter("int < 100") {
            seen.append(object.int)
            if object.int == 10 {
                #expect(object.string == "object 10")
                try DispatchQueue.global().sync {
                    let other = try Realm(configuration: configuration)
                    try other.write { other.objects(AllTypes.self).filter("int == 10").first!.string = "from elsewhere" }
                }
                realm.refresh()
                #expect(object.string == "from elsewhere")
            }
        }
        #expect(seen == Array(0..<100))
    }

    @Test func aCancelledWriteMidLoopRestoresWhatTheObjectsRead() throws {
        let realm = try fixture()
        var kept: [AllTypes] = []
        realm.beginWrite()
        for object in realm.objects(AllTypes.self).filter("int < 20") {
            object.string = "changed"
            kept.append(object)
        }
        realm.cancelWrite()
        #expect(kept.count == 20)
        #expect(kept.map(\.string) == (0..<20).map { "object \($0)" })
    }

    /// A class of nothing but `@Persisted` properties gets one instance
    /// rebound to each object; a weak reference across a step sees its
    /// object or nil, and one the loop kept reads its own row.
    @Test func reboundInstancesReadInPlace() throws {
        let realm = try fixture()
        try realm.write {
            for index in 0..<500 {
                let reading = Reading()
                reading.sensor = index
                reading.value = index % 9 == 0 ? .nan : Double(index) / 2
                reading.label = "reading \(index) with a label longer than fifteen bytes"
                reading.flag = index % 2 == 0
                reading.note = index % 3 == 0 ? nil : "note \(index)"
                realm.add(reading)
            }
        }
        var count = 0
        weak var weakly: Reading?
        var strongly: Reading?
        for reading in realm.objects(Reading.self) {
            let index = reading.sensor
            #expect(index == count)
            #expect(reading.label == "reading \(index) with a label longer than fifteen bytes")
            #expect(index % 9 == 0 ? reading.value.isNaN : reading.value == Double(index) / 2)
            #expect(reading.flag == (index % 2 == 0))
            #expect(reading.note == (index % 3 == 0 ? nil : "note \(index)"))
            if let weakly { #expect(weakly.sensor == 100) }
            if index == 100 { weakly = reading }
            if index == 200 { strongly = reading }
            count += 1
        }
        #expect(count == 500)
        #expect(strongly?.sensor == 200)
        #expect(strongly?.label == "reading 200 with a label longer than fifteen bytes")
    }

    final class Reading: Object {
        @Persisted var sensor = 0
        @Persisted var value = 0.0
        @Persisted var label = ""
        @Persisted var flag = false
        @Persisted var note: String?
    }

    /// A class with a list selects fewer columns than it has properties.
    @Test func aClassWithListsReadsInPlace() throws {
        let realm = try fixture()
        try realm.write {
            for index in 0..<300 {
                let station = Station()
                station.name = "station \(index)"
                station.level = Double(index)
                station.active = index % 2 == 1
                station.readings.append(Self.make(index))
                realm.add(station)
            }
        }
        var index = 0
        var kept: [Station] = []
        for station in realm.objects(Station.self) {
            #expect(station.name == "station \(index)")
            #expect(station.level == Double(index))
            #expect(station.active == (index % 2 == 1))
            #expect(station.readings.first?.int == index)
            if index % 50 == 0 { kept.append(station) }
            index += 1
        }
        #expect(index == 300)
        #expect(kept.map(\.name) == stride(from: 0, to: 300, by: 50).map { "station \($0)" })
    }

    @Test func listLoopsReadInPlace() throws {
        let realm = try fixture()
        let holder = Holder()
        try realm.write {
            realm.add(holder)
            holder.objects.append(objectsIn: realm.objects(AllTypes.self).filter("int < 300"))
        }
        var kept: [AllTypes] = []
        var index = 0
        for object in holder.objects {
            #expect(Self.describe(object) == Self.describe(Self.make(index)))
            if index % 7 == 0 { kept.append(object) }
            index += 1
        }
        #expect(index == 300)
        #expect(kept.map(\.int) == stride(from: 0, to: 300, by: 7).map { $0 })
    }

    final class Holder: Object {
        let objects = List<AllTypes>()
    }

    final class Station: Object {
        @Persisted var name = ""
        let readings = List<AllTypes>()
        @Persisted var level = 0.0
        @Persisted var active = false
    }
}
