import Foundation
import RealmObjects
import Testing

/// The dynamic API: objects by class name, created from untyped input.
@Suite struct DynamicAPITests {
    private func realm() throws -> Realm {
        try Realm(configuration: inMemoryConfiguration(types: [Dog.self, Person.self, Book.self, AllTypes.self, Address.self]))
    }

    @Test func dynamicCreateFromDictionariesArraysAndNesting() throws {
        let realm = try realm()
        let jim = try realm.write {
            realm.dynamicCreate("Dog", value: ["name": "Rex", "age": 3])
            return realm.dynamicCreate("Person", value: ["name": "Jim", "dogs": [["name": "Fido", "age": 5], ["Spot", 2, NSNull()]]])
        }
        #expect(jim.className == "Person")
        #expect(jim["name"] as? String == "Jim")
        #expect(realm.objects(Dog.self).count == 3)
        let person = try #require(realm.objects(Person.self).first)
        #expect(person.dogs.map(\.name) == ["Fido", "Spot"])
        #expect(realm.dynamicObjects("Dog").filter("name == 'Rex'").first?["age"] as? Int == 3)
    }

    @Test func dynamicCreateLinksToExistingObjectsAndUpdatesByPrimaryKey() throws {
        let realm = try realm()
        try realm.write {
            let rex = realm.dynamicCreate("Dog", value: ["name": "Rex", "age": 3])
            let typed = realm.create(Dog.self, value: ["name": "Typed", "age": 4])
            realm.dynamicCreate("Person", value: ["name": "Ann", "dogs": [rex, typed]])
            realm.dynamicCreate("Book", value: ["id": 1, "title": "Cheese", "price": 1.0])
            realm.dynamicCreate("Book", value: ["id": 1, "title": "Bread"], update: .modified)
        }
        #expect(realm.objects(Dog.self).count == 2)
        #expect(realm.objects(Person.self).first?.dogs.map(\.name) == ["Rex", "Typed"])
        let book = try #require(realm.dynamicObject(ofType: "Book", forPrimaryKey: 1))
        #expect(book["title"] as? String == "Bread")
        #expect(book["price"] as? Double == 1.0)
    }

    @Test func dynamicCreateRecordsBadInput() throws {
        let realm = try realm()
        try realm.write { realm.dynamicCreate("Book", value: ["id": 1]) }
        let duplicate = #expect(throws: Realm.Error.self) {
            try realm.write {
                realm.dynamicCreate("Dog", value: ["name": "Rolled back", "age": 1])
                let placeholder = realm.dynamicCreate("Book", value: ["id": 1])
                #expect(placeholder.realm == nil)
            }
        }
        #expect(duplicate?.code == .duplicatePrimaryKey)
        let wrongType = #expect(throws: Realm.Error.self) {
            try realm.write { realm.dynamicCreate("Dog", value: ["name": "Rex", "age": "old"]) }
        }
        #expect(wrongType?.code == .wrongType)
        #expect(wrongType?.message.contains("Dog.age") == true)
        #expect(realm.objects(Dog.self).isEmpty)
        #expect(realm.objects(Book.self).count == 1)
    }

    @Test func selfIsTheObject() throws {
        let realm = try realm()
        let rex = try realm.write { realm.create(Dog.self, value: ["name": "Rex", "age": 3]) }
        #expect((rex.value(forKey: "self") as? Dog)?.isSameObject(as: rex) == true)
        let unmanaged = Dog()
        #expect(unmanaged.value(forKey: "self") as? Dog === unmanaged)
        let selves = realm.objects(Dog.self).value(forKey: "self")
        #expect((selves.first as? Dog)?.name == "Rex")
    }
}

/// `dynamicList(_:)`: a live list of dynamic objects, usable as an array.
@Suite struct DynamicListTests {
    @Test func aDynamicListReadsAndChangesTheList() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Dog.self, Person.self]))
        let jim = try realm.write { realm.create(Person.self, value: ["name": "Jim", "dogs": [["name": "Rex", "age": 1]]]) }
        let dogs = jim.dynamicList("dogs")
        #expect(dogs.count == 1)
        #expect(dogs[0]["name"] as? String == "Rex")
        #expect(dogs[0].className == "Dog")
        #expect(Array(dogs).map { $0["age"] as? Int } == [1])
        #expect(dogs.filter("age > 0").count == 1)

        try realm.write {
            dogs.append(realm.dynamicCreate("Dog", value: ["name": "Fido", "age": 4]))
            dogs.insert(realm.dynamicCreate("Dog", value: ["name": "Spot", "age": 2]), at: 0)
            dogs.move(from: 0, to: 2)
        }
        // The typed list sees the same elements: they are one list.
        #expect(jim.dogs.map(\.name) == ["Rex", "Fido", "Spot"])
        #expect(dogs.map { $0["name"] as? String } == ["Rex", "Fido", "Spot"])
        try realm.write { dogs.remove(at: 1) }
        #expect(jim.dogs.map(\.name) == ["Rex", "Spot"])

        // From a dynamic object too.
        let dynamicJim = try #require(realm.dynamicObjects("Person").first)
        #expect(dynamicJim.dynamicList("dogs").count == 2)
    }

    @Test func aDynamicListRefusesObjectsOfAnotherClass() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Dog.self, Person.self]))
        let jim = try realm.write { realm.create(Person.self, value: ["name": "Jim"]) }
        let error = #expect(throws: Realm.Error.self) {
            try realm.write { jim.dynamicList("dogs").append(realm.dynamicCreate("Person", value: ["name": "Ann"])) }
        }
        #expect(error?.code == .wrongType)
        #expect(error?.message.contains("'Person'") == true && error?.message.contains("'Dog'") == true)
        #expect(jim.dogs.isEmpty)
    }
}
