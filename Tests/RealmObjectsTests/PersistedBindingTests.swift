import Foundation
@testable import RealmObjects
import Testing

/// A `@Persisted` storage is a plain value until its object is bound (it
/// becomes managed, a typed-query probe, or gets values set by name); then
/// it knows its object and property index and reads and writes through
/// them. Every path that binds, and every path that must not, is here.
@Suite struct PersistedBindingTests {
    class Vehicle: Object {
        @Persisted(primaryKey: true) var id = 0
        @Persisted var make = ""
    }

    /// Inherited properties first, then its own; `notes` is ignored and
    /// stays a plain stored value even when the object is managed.
    final class Truck: Vehicle {
        @Persisted var axles = 2
        @Persisted var notes = "none"
        @Persisted var payload: Double?

        override static func ignoredProperties() -> [String] { ["notes"] }
    }

    final class Garage: Object {
        @Persisted var name = ""
        @Persisted var vehicle: Vehicle?
        let notes = List<String>()
    }

    /// Reads and writes its own properties in `init`, which runs while the
    /// schema is discovered.
    final class SelfStarting: Object {
        @Persisted var count = 0
        @Persisted var label = ""

        required init() {
            super.init()
            count += 1
            label = "started \(count)"
        }
    }

    /// Its first instance's `init` blocks until released: reflection over
    /// the class, which makes that instance, stays under way on one thread
    /// while another uses the class.
    final class SlowToReflect: Object {
        @Persisted var value = 0

        nonisolated(unsafe) static var isArmed = true
        static let reflecting = DispatchSemaphore(value: 0)
        static let release = DispatchSemaphore(value: 0)

        required init() {
            super.init()
            if Self.isArmed {
                Self.isArmed = false
                Self.reflecting.signal()
                Self.release.wait()
            }
        }
    }

    private func realm(_ name: String) throws -> Realm {
        try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "persisted-binding-\(name)",
                                                     objectTypes: [Vehicle.self, Truck.self, Garage.self, SelfStarting.self]))
    }

    @Test func aPlainUnmanagedObjectStaysUnbound() {
        let truck = Truck()
        truck.id = 4
        truck.make = "Volvo"
        truck.payload = 1.5
        #expect(truck.id == 4 && truck.make == "Volvo" && truck.payload == 1.5 && truck.axles == 2)
        #expect(!truck._arePersistedPropertiesBound)
    }

    @Test func aManagedObjectReadsAndWritesEachPropertyAtItsOwnIndex() throws {
        let realm = try realm("indices")
        let truck = Truck()
        truck.id = 7
        truck.make = "Scania"
        truck.axles = 3
        truck.payload = 12.5
        try realm.write { realm.add(truck) }
        #expect(truck._arePersistedPropertiesBound)
        let other = try #require(realm.object(ofType: Truck.self, forPrimaryKey: 7))
        try realm.write {
            other.make = "MAN"
            other.axles = 4
            other.payload = nil
        }
        // The instance that was added sees the writes made through another.
        #expect(truck.id == 7 && truck.make == "MAN" && truck.axles == 4 && truck.payload == nil)
        #expect(realm.objects(Truck.self).filter("axles == 4 AND make == 'MAN'").count == 1)
    }

    @Test func anIgnoredPropertyStaysAPlainValueOnAManagedObject() throws {
        let realm = try realm("ignored")
        let truck = Truck()
        truck.id = 1
        truck.notes = "fragile"
        try realm.write { realm.add(truck) }
        #expect(truck.notes == "fragile")
        truck.notes = "changed outside a write"
        #expect(truck.notes == "changed outside a write")
        let other = try #require(realm.object(ofType: Truck.self, forPrimaryKey: 1))
        #expect(other.notes == "none")
    }

    @Test func anObjectWhoseAddFailedKeepsItsOwnValues() throws {
        let realm = try realm("failed-add")
        // Its list is written once it is managed, and fails (a string over
        // 16 MB): it is bound, then unmanaged again.
        let garage = Garage()
        garage.name = "north"
        garage.notes.append(String(repeating: "x", count: 16 * 1024 * 1024 + 1))
        realm.beginWrite()
        #expect(throws: Realm.Error.self) { try realm.add(garage, update: .error) }
        realm.cancelWrite()
        #expect(garage.realm == nil && garage._arePersistedPropertiesBound)
        #expect(garage.name == "north")
        garage.name = "south"
        garage.notes.removeAll()
        #expect(garage.name == "south")
        try realm.write { realm.add(garage) }
        #expect(realm.objects(Garage.self).first?.name == "south")
    }

    @Test func aValueSetByNameIsReadUntilThePropertyIsSet() {
        let vehicle = Vehicle()
        vehicle["make"] = "by name"
        #expect(vehicle._arePersistedPropertiesBound)
        #expect(vehicle.make == "by name")
        vehicle.make = "by property"
        #expect(vehicle.make == "by property")
        #expect(vehicle["make"] as? String == "by property")
        let made = Vehicle(value: ["id": 9, "make": "from a dictionary"])
        #expect(made.id == 9 && made.make == "from a dictionary")
    }

    @Test func typedKeyPathsNameTheirProperties() throws {
        let realm = try realm("typed")
        try realm.write {
            realm.create(Truck.self, value: ["id": 1, "make": "a", "axles": 2])
            realm.create(Truck.self, value: ["id": 2, "make": "b", "axles": 6])
        }
        let heavy = realm.objects(Truck.self).where { $0.axles > 4 }
        #expect(heavy.map(\.make) == ["b"])
    }

    @Test func anInitThatUsesItsPropertiesWorksBeforeAndAfterDiscovery() throws {
        let realm = try realm("init")
        let object = SelfStarting()
        #expect(object.count == 1 && object.label == "started 1")
        try realm.write { realm.add(object) }
        let read = try #require(realm.objects(SelfStarting.self).first)
        #expect(read.count == 1 && read.label == "started 1")
    }

    @Test func anotherThreadsReflectionDoesNotLeaveObjectsUnbound() throws {
        let reflector = Thread { _ = try? ClassInfo.reflecting(SlowToReflect.self) }
        reflector.start()
        SlowToReflect.reflecting.wait()
        defer { SlowToReflect.release.signal() }
        // This thread reflects over the class for itself, then names a
        // property through a probe object while the other thread's
        // reflection is still under way.
        let realm = try Realm(configuration: Realm.Configuration(inMemoryIdentifier: "persisted-binding-reflection",
                                                                 objectTypes: [SlowToReflect.self]))
        try realm.write { realm.create(SlowToReflect.self, value: ["value": 5]) }
        #expect(realm.objects(SlowToReflect.self).where { $0.value > 4 }.count == 1)
        #expect(realm.objects(SlowToReflect.self).first?.value == 5)
    }
}
