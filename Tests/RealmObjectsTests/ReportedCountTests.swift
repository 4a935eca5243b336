import Foundation
import RealmCore
@testable import RealmObjects
import Testing

/// A loop held to the count its collection answered: exactly that many
/// elements, whatever the rows of a damaged file say.
@Suite struct ReportedCountTests {
    /// Runs a loop over `rows` held to `expected`; returns what it handed
    /// out (placeholders as -1) and the mismatches it reported.
    private func loop(_ rows: [Int], expected: Int) -> (elements: [Int], mismatches: [Int]) {
        var loop = CountedLoop(expected: expected)
        var iterator = rows.makeIterator()
        var elements: [Int] = []
        var mismatches: [Int] = []
        while let element = loop.next({ iterator.next() }, placeholder: { -1 }, mismatch: { mismatches.append($0) }) {
            elements.append(element)
        }
        return (elements, mismatches)
    }

    @Test func rowsAsManyAsCountedPassUnchanged() {
        let result = loop([1, 2, 3], expected: 3)
        #expect(result.elements == [1, 2, 3])
        #expect(result.mismatches.isEmpty)
    }

    @Test func fewerRowsArePaddedWithPlaceholders() {
        let result = loop([1, 2], expected: 5)
        #expect(result.elements == [1, 2, -1, -1, -1])
        #expect(result.mismatches == [2], "told once, with the rows there were")
    }

    @Test func moreRowsAreCutAtTheCount() {
        let result = loop([1, 2, 3, 4], expected: 2)
        #expect(result.elements == [1, 2])
        #expect(result.mismatches == [3], "told once that there were more")
    }

    @Test func noRowsAndNoCount() {
        #expect(loop([], expected: 0).elements.isEmpty)
        #expect(loop([], expected: 0).mismatches.isEmpty)
    }
}

/// A count answered before a loop that deletes what it walks is no damage:
/// the loop walks a snapshot of the matches as they were.
@Suite struct CountedLoopInWritesTests {
    @Test func deletingWhileIteratingAfterACountIsNotDamage() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            for index in 0..<300 { realm.create(Dog.self, value: ["name": "d\(index)", "age": index % 7]) }
        }
        let dogs = realm.objects(Dog.self).filter("age > 2")
        let counted = dogs.count
        var deleted = 0
        try realm.write {
            #expect(dogs.count == counted)
            for dog in dogs {
                realm.delete(dog)
                deleted += 1
            }
        }
        #expect(deleted == counted)
        #expect(dogs.count == 0)
        // No damage was noted: the next write goes through.
        try realm.write { realm.create(Dog.self, value: ["name": "after"]) }
        let person = try realm.write { realm.create(Person.self, value: ["name": "Ann"]) }
        try realm.write { for dog in realm.objects(Dog.self) { person.dogs.append(dog) } }
        let listed = person.dogs.count
        var removed = 0
        try realm.write {
            for dog in person.dogs {
                realm.delete(dog)
                removed += 1
            }
        }
        #expect(removed == listed)
        try realm.write { realm.create(Dog.self, value: ["name": "after again"]) }
    }
}
