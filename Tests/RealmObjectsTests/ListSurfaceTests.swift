import Foundation
import RealmObjects
import Testing

final class Scores: Object {
    let ints = List<Int>()
    let optionalDoubles = List<Double?>()
    let dates = List<Date>()
    let names = List<String>()
    let dogs = List<Dog>()
}

final class Shelf: Object {
    let books = List<Book>()
}

/// List as Realm Swift's tests use it: the range-replaceable and mutable
/// collection surface, and the aggregates of lists of values, managed and
/// unmanaged alike.
@Suite struct ListSurfaceTests {
    /// Runs `body` on an unmanaged list and on a managed one (in a write),
    /// and returns both lists' contents after it.
    private func both(_ initial: [Int], _ body: (List<Int>) -> Void) throws -> (unmanaged: [Int], managed: [Int]) {
        let unmanaged = Scores()
        unmanaged.ints.append(objectsIn: initial)
        body(unmanaged.ints)
        let realm = try Realm(configuration: inMemoryConfiguration(UUID().uuidString))
        let managed = Scores()
        managed.ints.append(objectsIn: initial)
        try realm.write { realm.add(managed) }
        try realm.write { body(managed.ints) }
        return (Array(unmanaged.ints), Array(realm.objects(Scores.self).first!.ints))
    }

    @Test func rangeReplaceableOperations() throws {
        let cases: [(String, (List<Int>) -> Void, [Int])] = [
            ("replaceSubrange", { $0.replaceSubrange(1..<3, with: [7, 8, 9]) }, [0, 7, 8, 9, 3, 4]),
            ("replaceSubrange closed", { $0.replaceSubrange(1...2, with: [7]) }, [0, 7, 3, 4]),
            ("insert(contentsOf:at:)", { $0.insert(contentsOf: [5, 6], at: 2) }, [0, 1, 5, 6, 2, 3, 4]),
            ("append(contentsOf:)", { $0.append(contentsOf: (10..<12).lazy.map { $0 }) }, [0, 1, 2, 3, 4, 10, 11]),
            ("removeFirst", { $0.removeFirst() }, [1, 2, 3, 4]),
            ("removeFirst(2)", { $0.removeFirst(2) }, [2, 3, 4]),
            ("removeLast", { $0.removeLast() }, [0, 1, 2, 3]),
            ("removeLast(3)", { $0.removeLast(3) }, [0, 1]),
            ("removeSubrange", { $0.removeSubrange(1..<4) }, [0, 4]),
            ("removeSubrange partial", { $0.removeSubrange(3...) }, [0, 1, 2]),
            ("swapAt", { $0.swapAt(0, 4) }, [4, 1, 2, 3, 0]),
            ("move", { $0.move(from: 0, to: 3) }, [1, 2, 3, 0, 4]),
            ("subscript set", { $0[2] = 20 }, [0, 1, 20, 3, 4]),
            ("removeAll", { $0.removeAll() }, []),
        ]
        for (name, body, expected) in cases {
            let (unmanaged, managed) = try both([0, 1, 2, 3, 4], body)
            #expect(unmanaged == expected, "\(name), unmanaged")
            #expect(managed == expected, "\(name), managed")
        }
    }

    @Test func aFailedReplaceChangesNothing() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let scores = Scores()
        scores.names.append(objectsIn: ["a", "b"])
        try realm.write { realm.add(scores) }
        let error = #expect(throws: Realm.Error.self) {
            try realm.write {
                scores.names.replaceSubrange(0..<1, with: ["ok", String(repeating: "x", count: 16 * 1024 * 1024 + 1)])
            }
        }
        #expect(error?.code == .valueTooLarge)
        #expect(Array(scores.names) == ["a", "b"])
    }

    @Test func aggregatesOfListsOfValues() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let scores = Scores()
        scores.ints.append(objectsIn: [3, 1, 2, 3])
        scores.optionalDoubles.append(objectsIn: [1.5, nil, 2.5])
        let early = Date(timeIntervalSince1970: 100), late = Date(timeIntervalSince1970: 200)
        scores.dates.append(objectsIn: [late, early])
        for list in [scores] {
            #expect(list.ints.sum() == 9 && list.ints.min() == 1 && list.ints.max() == 3 && list.ints.average() == 2.25)
            #expect(list.optionalDoubles.sum() == 4 && list.optionalDoubles.min() == 1.5 && list.optionalDoubles.average() == 2)
            #expect(list.dates.min() == early && list.dates.max() == late)
        }
        try realm.write { realm.add(scores) }
        let managed = try #require(realm.objects(Scores.self).first)
        #expect(managed.ints.sum() == 9 && managed.ints.min() == 1 && managed.ints.max() == 3 && managed.ints.average() == 2.25)
        #expect(managed.optionalDoubles.sum() == 4 && managed.optionalDoubles.max() == 2.5 && managed.optionalDoubles.average() == 2)
        #expect(Array(managed.ints.sorted(ascending: false)) == [3, 3, 2, 1])
        #expect(Array(managed.ints.sorted()) == [1, 2, 3, 3])
        #expect(Array(managed.ints.distinct()) == [3, 1, 2])
        #expect(managed.ints.index(of: 2) == 2)
        #expect(Array(managed.dates.sorted()) == [early, late])
        #expect(Array(managed.optionalDoubles.sorted()) == [nil, 1.5, 2.5])
        #expect(Array(managed.optionalDoubles.sorted(ascending: false)) == [2.5, 1.5, nil])
        #expect(Array(managed.optionalDoubles.distinct()) == [1.5, nil, 2.5])
        // Empty lists: a sum of zero, no minimum, maximum or average.
        let empty = Scores()
        #expect(empty.ints.sum() == 0 && empty.ints.min() == nil && empty.ints.max() == nil && empty.ints.average() == nil)
    }

    @Test func listsOfObjectsTakeTheSameOperations() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let scores = try realm.write { realm.create(Scores.self) }
        try realm.write {
            scores.dogs.append(contentsOf: [Dog(value: ["name": "a", "age": 1]), Dog(value: ["name": "b", "age": 2])])
            scores.dogs.insert(contentsOf: [Dog(value: ["name": "c", "age": 3])], at: 1)
            scores.dogs.replaceSubrange(0..<1, with: [Dog(value: ["name": "d", "age": 4])])
        }
        #expect(scores.dogs.map(\.name) == ["d", "c", "b"])
        #expect(realm.objects(Dog.self).count == 4)
        try realm.write { scores.dogs.removeFirst(); scores.dogs.removeLast() }
        #expect(scores.dogs.map(\.name) == ["c"])
    }

    /// A new object appended to a list is added with it: one made property
    /// by property with one INSERT, one made from input by name through the
    /// writer, which refuses input it could not take, naming the property,
    /// and keeps nothing of the write.
    @Test func appendingNewObjects() throws {
        let realm = try Realm(configuration: inMemoryConfiguration(types: [Shelf.self, Book.self]))
        let shelf = Shelf()
        let two = Book()
        two.id = 2
        two.title = "Two"
        try realm.write {
            realm.add(shelf)
            shelf.books.append(Book(value: ["id": 1, "title": "One"]))
            shelf.books.append(two)
        }
        #expect(two.realm != nil)
        #expect(shelf.books.map(\.title) == ["One", "Two"])
        #expect(realm.objects(Book.self).count == 2)
        let error = #expect(throws: Realm.Error.self) {
            try realm.write { shelf.books.append(Book(value: ["id": 3, "title": 42])) }
        }
        #expect(error?.code == .wrongType)
        #expect(error?.message.contains("Book.title") == true)
        #expect(shelf.books.count == 2 && realm.objects(Book.self).count == 2)
    }
}
