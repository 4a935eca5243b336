import Foundation
import RealmObjects
import Testing

/// A loop that lets each object go gets one instance rebound to each object
/// in turn; nothing a program can hold or see tells the difference.
@Suite struct RebindingTests {
    /// A class with nothing but `@Persisted` properties: rebindable.
    final class Reading: Object {
        @Persisted var sensor = 0
        @Persisted var value = 0.0
        @Persisted var label = ""
    }

    /// A class with a stored property of its own: never rebound, so that
    /// one object's state never shows on another.
    final class AnnotatedReading: Object {
        @Persisted var sensor = 0
        var note = ""
    }

    static let count = 600

    func fixture(_ name: String = #function) throws -> Realm {
        let realm = try Realm(configuration: inMemoryConfiguration(name, types: [Reading.self, AnnotatedReading.self]))
        try realm.write {
            for index in 0..<Self.count {
                let reading = Reading()
                reading.sensor = index
                reading.value = Double(index) / 2
                reading.label = "reading \(index)"
                realm.add(reading)
                let annotated = AnnotatedReading()
                annotated.sensor = index
                realm.add(annotated)
            }
        }
        return realm
    }

    @Test func aLoopThatLetsGoReadsEveryObject() throws {
        let realm = try fixture()
        var sensors: [Int] = []
        var labels: [String] = []
        for reading in realm.objects(Reading.self).filter("sensor >= 100") {
            sensors.append(reading.sensor)
            labels.append(reading.label)
            #expect(reading.value == Double(reading.sensor) / 2)
            #expect(!reading.isInvalidated)
        }
        #expect(sensors == Array(100..<Self.count))
        #expect(labels == (100..<Self.count).map { "reading \($0)" })
    }

    @Test func objectsKeptByTheLoopStayThemselves() throws {
        let realm = try fixture()
        var kept: [Reading] = []
        for reading in realm.objects(Reading.self) where reading.sensor % 2 == 0 {
            kept.append(reading)
        }
        #expect(kept.map(\.sensor) == Array(stride(from: 0, to: Self.count, by: 2)))
        #expect(Set(kept.map(ObjectIdentifier.init)).count == kept.count)
        #expect(Array(realm.objects(Reading.self)).map(\.sensor) == Array(0..<Self.count))
    }

    /// A weak reference sees its object or nil, never the next object.
    @Test func weaklyHeldObjectsAreNotRebound() throws {
        let realm = try fixture()
        weak var first: Reading?
        for reading in realm.objects(Reading.self) {
            if reading.sensor == 0 { first = reading }
            // Rebinding the first instance would show sensor 1, 2, ... here.
            #expect(first == nil || first?.sensor == 0)
        }
    }

    @Test func objectsWeaklyHeldDuringTheLoopKeepTheirIdentity() throws {
        let realm = try fixture()
        var seen: [Int] = []
        var iterator = realm.objects(Reading.self).makeIterator()
        weak var watched: Reading?
        if let first = iterator.next() {
            watched = first
            seen.append(first.sensor)
        }
        // The walk's instance is weakly held now: the next object is a new one.
        while let next = iterator.next() {
            #expect(next !== watched)
            seen.append(next.sensor)
            if seen.count == 5 { break }
        }
        #expect(seen == [0, 1, 2, 3, 4])
        if let watched { #expect(watched.sensor == 0) }
    }

    @Test func aClassWithItsOwnStateIsNeverRebound() throws {
        let realm = try fixture()
        var notes: [String] = []
        for annotated in realm.objects(AnnotatedReading.self) {
            notes.append(annotated.note)
            annotated.note = "seen \(annotated.sensor)"
        }
        #expect(notes.count == Self.count)
        #expect(notes.allSatisfy { $0.isEmpty })
    }

    @Test func aDeletedObjectsInstanceIsRenewedForTheNext() throws {
        let realm = try fixture()
        var deleted = 0
        try realm.write {
            for reading in realm.objects(Reading.self).filter("sensor < 10") {
                #expect(!reading.isInvalidated)
                realm.delete(reading)
                #expect(reading.isInvalidated)
                deleted += 1
            }
        }
        #expect(deleted == 10)
        #expect(realm.objects(Reading.self).count == Self.count - 10)
    }

    @Test func listLoopsRebindToo() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Reading.self, Station.self]))
        let station = Station()
        try realm.write {
            realm.add(station)
            for index in 0..<Self.count {
                let reading = Reading()
                reading.sensor = index
                station.readings.append(reading)
            }
        }
        var total = 0
        var count = 0
        for reading in station.readings {
            total += reading.sensor
            count += 1
        }
        #expect(count == Self.count)
        #expect(total == (0..<Self.count).reduce(0, +))
    }

    final class Station: Object {
        let readings = List<Reading>()
    }
}
