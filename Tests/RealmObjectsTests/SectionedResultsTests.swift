import Foundation
import RealmObjects
import Testing

final class SectionedWord: Object {
    @Persisted var word = ""
    @Persisted var rank = 0
    @Persisted var letters: List<String>
    @Persisted var letterSet: MutableSet<String>

    /// Read from `word`: sorting by this key path sorts by `word`.
    var firstLetter: String { word.first.map(String.init) ?? "" }
}

/// Sectioned results: a sorted collection in sections of equal keys, and
/// the changes of its sections.
@Suite struct SectionedResultsTests {
    private func realm(_ words: [String], name: String = #function) throws -> Realm {
        let realm = try Realm(configuration: inMemoryConfiguration(name, types: [SectionedWord.self]))
        try realm.write {
            for (rank, word) in words.enumerated() {
                realm.create(SectionedWord.self, value: ["word": word, "rank": rank])
            }
        }
        return realm
    }

    @Test func sectionsOfResultsByKeyPathAndBlock() throws {
        let realm = try realm(["banana", "box", "apple", "chalk", "avocado"])
        let words = realm.objects(SectionedWord.self)
        let ascending = words.sectioned(by: \.firstLetter, ascending: true)
        #expect(ascending.allKeys == ["a", "b", "c"])
        #expect(ascending.map(\.count) == [2, 2, 1])
        #expect(ascending[0].map(\.word) == ["apple", "avocado"])
        #expect(ascending[IndexPath(item: 1, section: 1)].word == "box")
        #expect(ascending[2].key == "c" && ascending[2].id == "c")

        let descending = words.sectioned(by: \.firstLetter, ascending: false)
        #expect(descending.allKeys == ["c", "b", "a"])
        #expect(descending[2].map(\.word) == ["avocado", "apple"])

        let byBlock = words.sectioned(by: { String($0.word.prefix(1)) },
                                      sortDescriptors: [RealmQuery.SortDescriptor(keyPath: "word", ascending: true)])
        #expect(byBlock.allKeys == ["a", "b", "c"])
        let byKeyPath = words.sectioned(by: \.firstLetter, sortDescriptors: [RealmQuery.SortDescriptor(keyPath: "word", ascending: false),
                                                                             RealmQuery.SortDescriptor(keyPath: "rank")])
        #expect(byKeyPath.allKeys == ["c", "b", "a"])
        #expect(ascending == ascending && ascending != descending)
    }

    @Test func sectionsOfListsAndSetsOfValues() throws {
        let realm = try realm(["x"])
        let object = realm.objects(SectionedWord.self).first!
        try realm.write {
            object.letters.append(objectsIn: ["banana", "box", "apple", "chalk"])
            object.letterSet.insert(objectsIn: ["banana", "box", "apple", "chalk"])
        }
        let fromList = object.letters.sectioned(by: { String($0.first!) }, ascending: true)
        #expect(fromList.allKeys == ["a", "b", "c"])
        #expect(Array(fromList[1]) == ["banana", "box"])
        #expect(object.letters.sectioned(by: { String($0.first!) }, ascending: false).allKeys == ["c", "b", "a"])
        let fromSet = object.letterSet.sectioned(by: { String($0.first!) }, ascending: false)
        #expect(fromSet.allKeys == ["c", "b", "a"])
        #expect(Array(fromSet[1]) == ["box", "banana"])
        // Sections come in the order of their first elements, each with
        // every element of its key (as realm-core makes them).
        let byLength = AnyRealmCollection(object.letters).sectioned(by: { $0.count }, ascending: true)
        #expect(byLength.allKeys == [5, 6, 3])
        #expect(Array(byLength[0]) == ["apple", "chalk"])
    }

    @Test func sectionsFollowWrites() throws {
        let realm = try realm(["apple", "banana"])
        let sections = realm.objects(SectionedWord.self).sectioned(by: \.firstLetter)
        let a = sections[0]
        #expect(a.count == 1)
        try realm.write { realm.create(SectionedWord.self, value: ["word": "avocado"]) }
        #expect(a.count == 2)
        try realm.write { realm.delete(realm.objects(SectionedWord.self).filter("word BEGINSWITH 'a'")) }
        #expect(a.isEmpty)
        #expect(sections.allKeys == ["b"])
    }

    @Test func changesOfSectionsAndRows() throws {
        let realm = try realm(["apple", "banana", "cherry"])
        let sections = realm.objects(SectionedWord.self).sectioned(by: \.firstLetter)
        var changes: [String] = []
        let token = sections.observe { change in
            switch change {
            case .initial(let sections):
                changes.append("initial \(sections.allKeys)")
            case .update(let sections, let deletions, let insertions, let modifications, let sectionsToInsert, let sectionsToDelete):
                func describe(_ paths: [IndexPath]) -> String { paths.map { "\($0.section).\($0.item)" }.joined(separator: ",") }
                changes.append("keys \(sections.allKeys) del [\(describe(deletions))] ins [\(describe(insertions))] mod [\(describe(modifications))] "
                    + "+s \(Array(sectionsToInsert)) -s \(Array(sectionsToDelete))")
            }
        }
        realm.refresh()
        // A row in an existing section, then a new section.
        try realm.write { realm.create(SectionedWord.self, value: ["word": "avocado"]) }
        try realm.write { realm.create(SectionedWord.self, value: ["word": "date"]) }
        // A change that keeps the key, then one that moves a row to another section.
        try realm.write { realm.objects(SectionedWord.self).filter("word == 'banana'").first!.rank = 7 }
        try realm.write { realm.objects(SectionedWord.self).filter("word == 'cherry'").first!.word = "blueberry" }
        // The last row of a section goes: the section is deleted, its row not listed.
        try realm.write { realm.delete(realm.objects(SectionedWord.self).filter("word == 'date'")) }
        realm.refresh()
        #expect(changes == [
            "initial [\"a\", \"b\", \"c\"]",
            "keys [\"a\", \"b\", \"c\"] del [] ins [0.1] mod [] +s [] -s []",
            "keys [\"a\", \"b\", \"c\", \"d\"] del [] ins [3.0] mod [] +s [3] -s []",
            "keys [\"a\", \"b\", \"c\", \"d\"] del [] ins [] mod [1.0] +s [] -s []",
            "keys [\"a\", \"b\", \"d\"] del [] ins [1.1] mod [] +s [] -s [2]",
            "keys [\"a\", \"b\"] del [] ins [] mod [] +s [] -s [2]",
        ])
        token.invalidate()
    }

    @Test func aSectionHearsOnlyOfItself() throws {
        let realm = try realm(["apple", "banana"])
        let sections = realm.objects(SectionedWord.self).sectioned(by: \.firstLetter)
        var heard: [String] = []
        let token = sections[1].observe { change in
            switch change {
            case .initial(let section): heard.append("initial \(section.key) \(section.count)")
            case .update(let section, _, let insertions, _, _, _): heard.append("update \(section.key) \(section.count) \(insertions.count)")
            }
        }
        realm.refresh()
        try realm.write { realm.create(SectionedWord.self, value: ["word": "apricot"]) }
        try realm.write { realm.create(SectionedWord.self, value: ["word": "blackberry"]) }
        realm.refresh()
        #expect(heard == ["initial b 1", "update b 2 1"])
        token.invalidate()
    }

    @Test func frozenSectionsKeepTheirVersion() throws {
        let realm = try realm(["apple", "banana"])
        let sections = realm.objects(SectionedWord.self).sectioned(by: \.firstLetter)
        let frozen = sections.freeze()
        let frozenSection = sections[0].freeze()
        #expect(frozen.isFrozen && frozenSection.isFrozen && !sections.isFrozen)
        try realm.write { realm.create(SectionedWord.self, value: ["word": "cherry"]) }
        #expect(sections.allKeys == ["a", "b", "c"])
        #expect(frozen.allKeys == ["a", "b"])
        let reader = SeedUnchecked(value: frozen)
        let keys = Locked<[String]>([])
        seedRunOnThread { keys.value = reader.value.allKeys }
        #expect(keys.value == ["a", "b"])
        #expect(frozen.thaw()?.allKeys == ["a", "b", "c"])
        #expect(frozenSection.thaw()?.count == 1)
    }

    @Test func sectionsObservedOnAQueue() throws {
        let configuration = inMemoryConfiguration(types: [SectionedWord.self])
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.create(SectionedWord.self, value: ["word": "apple"]) }
        let queue = DispatchQueue(label: "sections")
        let keys = Locked<[[String]]>([])
        let token = realm.objects(SectionedWord.self).sectioned(by: \.firstLetter).observe(on: queue) { change in
            switch change {
            case .initial(let sections), .update(let sections, _, _, _, _, _):
                keys.value.append(sections.allKeys)
            }
        }
        try realm.write { realm.create(SectionedWord.self, value: ["word": "banana"]) }
        for _ in 0..<500 where keys.value.last != ["a", "b"] { Thread.sleep(forTimeInterval: 0.01) }
        #expect(keys.value.last == ["a", "b"])
        token.invalidate()
    }
}
