import Foundation
import RealmObjects
import Testing

/// An integer sum that overflows wraps around, as Realm's does, and never
/// stops the program (issue 15, item 3).
@Suite struct IntegerSumTests {
    @Test func overflowingSumsWrapAround() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            realm.create(AllTypes.self, value: ["int": Int.max, "ints": [Int.max, 1]])
            realm.create(AllTypes.self, value: ["int": 1, "ints": [1, 2]])
        }
        let all = realm.objects(AllTypes.self)
        let total: Int = all.sum(ofProperty: "int")
        #expect(total == Int.max &+ 1)
        // `@sum` in a predicate: the first object's list sums to Int.min.
        #expect(all.filter("ints.@sum < 0").count == 1)
        #expect(all.filter("ints.@sum == 3").count == 1)
        #expect(all.filter("NOT ints.@sum < 0").map(\.int) == [1])
        #expect(Array(all.filter("ints.@sum < 0")).count == 1)
    }
}
