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
}
