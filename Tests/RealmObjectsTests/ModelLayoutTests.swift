import Foundation
import RealmCore
@testable import RealmObjects
import Testing

/// The offsets `ModelLayout` finds in the runtime's field metadata reach
/// the properties they name, through inheritance, ignored properties and
/// `let` properties. (Debug builds also check every class against `Mirror`
/// when it is first used, which these classes pass by being used.)
@Suite struct ModelLayoutTests {
    class Animal: Object {
        @Persisted var name = ""
        @Persisted var legs = 4
    }

    final class Cat: Animal {
        var mood = "calm"
        @Persisted var lives = 9
        @Persisted var nickname: String?
        let toys = List<String>()
        let weight = RealmOptional<Double>()

        override static func ignoredProperties() -> [String] { ["nickname"] }
    }

    /// An ignored `let` property before a persisted one: it takes no
    /// index in the schema.
    final class Shelf: Object {
        @Persisted var name = ""
        let scratch = List<String>()
        let books = List<String>()
        let rating = RealmOptional<Int>()

        override static func ignoredProperties() -> [String] { ["scratch"] }
    }

    final class Sensor: Object {
        @Persisted var id = 0
        @Persisted var reading = 0.0
    }

    private func index(_ name: String, in info: ClassInfo) throws -> Int {
        try #require(info.propertyIndex(named: name))
    }

    @Test func persistedOffsetsReadTheirOwnProperties() throws {
        let info = ClassInfo.of(Cat.self)
        let cat = Cat()
        cat.name = "Tom"
        cat.legs = 3
        cat.lives = 7
        cat.nickname = "T"
        let values = info.layout.unmanagedValues(of: cat)
        #expect(values[try index("name", in: info)] as? String == "Tom")
        #expect(values[try index("legs", in: info)] as? Int == 3)
        #expect(values[try index("lives", in: info)] as? Int == 7)
        // The ignored property is not the schema's, so it has no field.
        #expect(info.propertyIndex(named: "nickname") == nil)
        #expect(values.count == 3)
        // In schema order: inherited properties first.
        #expect(info.layout.persistedFields.map(\.index) == [0, 1, 2])
    }

    @Test func referenceOffsetsHoldTheInstancesObjects() throws {
        let info = ClassInfo.of(Cat.self)
        let cat = Cat()
        #expect(info.layout.reference(try index("toys", in: info), of: cat) === cat.toys)
        #expect(info.layout.reference(try index("weight", in: info), of: cat) === cat.weight)
        #expect(info.layout.references(of: cat).count == 2)
    }

    @Test func ignoredLetPropertiesTakeNoIndex() throws {
        let info = ClassInfo.of(Shelf.self)
        let shelf = Shelf()
        #expect(info.propertyIndex(named: "scratch") == nil)
        #expect(info.layout.reference(try index("books", in: info), of: shelf) === shelf.books)
        #expect(info.layout.reference(try index("rating", in: info), of: shelf) === shelf.rating)
        #expect(info.layout.references(of: shelf).count == 2)
        let realm = try Realm(configuration: inMemoryConfiguration(#function, types: [Shelf.self]))
        try realm.write {
            shelf.books.append("Dune")
            shelf.scratch.append("not stored")
            shelf.rating.value = 4
            realm.add(shelf)
        }
        let stored = try #require(realm.objects(Shelf.self).first)
        #expect(Array(stored.books) == ["Dune"])
        #expect(stored.rating.value == 4)
        #expect(stored.scratch.isEmpty)
    }

    @Test func storedValuesFollowTheSchema() throws {
        let sensor = Sensor()
        sensor.id = 12
        sensor.reading = 2.5
        var row: [RealmCore.Value] = []
        try ClassInfo.of(Sensor.self).layout.appendStoredValues(of: sensor, to: &row)
        #expect(row == [.int(12), .double(2.5)])
    }

    @Test func onlyClassesWithoutStateOfTheirOwnStoreOnlyRealmProperties() {
        #expect(ClassInfo.of(Sensor.self).layout.storesOnlyRealmProperties)
        // `mood` and the ignored `nickname` are the instance's own state.
        #expect(!ClassInfo.of(Cat.self).layout.storesOnlyRealmProperties)
    }
}
