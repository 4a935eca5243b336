import Foundation
import RealmObjects
import Testing

/// A model whose initializer sets its own properties, as Realm Swift's
/// tests write them.
final class SelfInitializingDog: Object {
    @Persisted var name = ""
    @Persisted var age = 0
    @Persisted var tags: String?

    required init() {
        super.init()
        name = "unnamed"
        age = name.count
    }

    convenience init(name: String) {
        self.init()
        self.name = name
        tags = "named"
    }
}

@Suite struct InitializerModelTests {
    /// Reading the schema makes an instance; its init using its properties
    /// must not start the reading again (it overflowed the stack).
    @Test func anInitThatSetsPropertiesDoesNotRecurse() throws {
        let dog = SelfInitializingDog()
        #expect(dog.name == "unnamed" && dog.age == 7)
        #expect(dog.objectSchema.properties.map(\.name) == ["name", "age", "tags"])
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.add(SelfInitializingDog(name: "Rex"))
            realm.create(SelfInitializingDog.self, value: ["name": "Fido"])
        }
        let stored = realm.objects(SelfInitializingDog.self).sorted(byKeyPath: "name")
        #expect(stored.map(\.name) == ["Fido", "Rex"])
        #expect(stored.map(\.age) == [7, 7])
        #expect(stored.map(\.tags) == [nil, "named"])
    }
}
