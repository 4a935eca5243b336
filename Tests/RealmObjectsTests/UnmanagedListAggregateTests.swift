import Foundation
import RealmObjects
import Testing

/// An unmanaged list aggregates its elements in memory, as Realm's
/// `ListTests` check for standalone lists.
@Suite struct UnmanagedListAggregateTests {
    @Test func anUnmanagedListOfObjectsAggregates() throws {
        let person = Person()
        #expect(person.dogs.min(ofProperty: "age") as Int? == nil)
        #expect(person.dogs.sum(ofProperty: "age") as Int == 0)
        person.dogs.append(Dog(value: ["name": "Rex", "age": 3]))
        person.dogs.append(Dog(value: ["name": "Fido", "age": 5]))
        person.dogs.append(Dog(value: ["name": "Ace", "age": 1]))
        #expect(person.dogs.min(ofProperty: "age") as Int? == 1)
        #expect(person.dogs.max(ofProperty: "age") as Int? == 5)
        #expect(person.dogs.sum(ofProperty: "age") as Int == 9)
        #expect(person.dogs.average(ofProperty: "age") as Double? == 3)
    }

    @Test func anUnmanagedListOfValuesAggregates() throws {
        let values = AllTypes()
        values.ints.append(objectsIn: [4, 1, 7])
        #expect(values.ints.min() == 1)
        #expect(values.ints.max() == 7)
        #expect(values.ints.sum() == 12)
        #expect(values.ints.average() == 4)
    }

    /// Realm 10's aggregates by Swift key path, on a list unmanaged and
    /// managed, and on `Results`: the same answers as by name.
    @Test func keyPathsNameTheAggregatedProperty() throws {
        let person = Person()
        for (name, age) in [("Rex", 3), ("Fido", 5), ("Ace", 1)] {
            person.dogs.append(Dog(value: ["name": name, "age": age]))
        }
        func check<C: RealmCollection>(_ dogs: C, sourceLocation: SourceLocation = #_sourceLocation) where C.Element == Dog {
            #expect(dogs.min(of: \.age) == 1, sourceLocation: sourceLocation)
            #expect(dogs.max(of: \.age) == 5, sourceLocation: sourceLocation)
            #expect(dogs.sum(of: \.age) == 9, sourceLocation: sourceLocation)
            #expect(dogs.average(of: \.age) == 3, sourceLocation: sourceLocation)
        }
        check(person.dogs)
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(person) }
        check(person.dogs)
        check(realm.objects(Dog.self))
        #expect(realm.objects(Dog.self).filter("age > 10").min(of: \.age) == nil)
        #expect(realm.objects(Dog.self).filter("age > 10").sum(of: \.age) == 0)
    }
}
