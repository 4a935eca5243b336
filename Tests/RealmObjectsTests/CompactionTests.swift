import Foundation
import RealmObjects
import Testing

/// What `shouldCompactOnLaunch` is told: the bytes SQLite's pages hold data
/// in, not counting free pages or the unused space inside pages.
@Suite struct CompactionTests {
    private func size(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
    }

    /// Deleting every other object leaves almost no free page but every
    /// page half empty: the used bytes tell (counting free pages alone, the
    /// file looked full), and compaction shrinks the file to about them.
    @Test func spaceInsidePagesIsNotInUse() throws {
        let directory = TemporaryDirectory()
        let url = directory.file()
        try autoreleasepool {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [Dog.self, Person.self]))
            try realm.write {
                for index in 0..<10_000 {
                    realm.create(Dog.self, value: ["name": "dog \(index) " + String(repeating: "x", count: 60), "age": index])
                }
            }
            // Every other object, in every page.
            try realm.write { realm.delete(realm.objects(Dog.self).filter { $0.age % 2 != 0 }) }
        }
        let before = try size(url)
        let told = Locked<[Int]>([])
        let configuration = Realm.Configuration(fileURL: url, shouldCompactOnLaunch: { total, used in
            told.value = [total, used]
            return Double(used) / Double(total) < 0.6
        }, objectTypes: [Dog.self, Person.self])
        try autoreleasepool {
            let realm = try Realm(configuration: configuration)
            #expect(realm.objects(Dog.self).count == 5_000)
        }
        let (total, used) = (told.value[0], told.value[1])
        #expect(total >= before - 64 * 1024)
        #expect(Double(used) < Double(total) * 0.6, "used \(used) of \(total)")
        let after = try size(url)
        #expect(Double(after) < Double(before) * 0.7, "\(before) → \(after)")
        #expect(after >= used)

        // Compacted, the file is mostly in use.
        let again = Locked<[Int]>([])
        try autoreleasepool {
            _ = try Realm(configuration: Realm.Configuration(fileURL: url, shouldCompactOnLaunch: { total, used in
                again.value = [total, used]
                return false
            }, objectTypes: [Dog.self, Person.self]))
        }
        #expect(Double(again.value[1]) / Double(again.value[0]) > 0.7, "\(again.value)")
    }
}
