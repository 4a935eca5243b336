import Foundation
import RealmObjects
import Testing

// realm-swift v10.54.6's RealmSwift/Tests/SectionedResultsTests.swift,
// SectionedResultsTests class, ported.
//
// Adaptations: `ModernAllTypesObject` is `SPortObject`, with the
// properties these tests use; `SortDescriptor` is `RealmQuery.SortDescriptor`
// (Foundation has one too); notifications that Realm delivers on the run
// loop are delivered by `refresh()`; typed key paths in `observe(keyPaths:)`
// are their names (this package observes by name); `write(withoutNotifying:)`
// in testObservation is a plain write, which both observers hear: skipping
// a collection observer's notification in one write is not built here
// (`commitWrite(withoutNotifying:)` skips Realm observers, as the seeds
// describe).
//
// Not ported: the primitive test classes (their data generator covers types
// not sectionable here: sections of values need `Comparable` elements), and
// SectionedResultsProjectionTests (projections are not built yet).

final class SPortObject: Object {
    @Persisted var stringCol = ""
    @Persisted var intCol = 0
    @Persisted var boolCol = false
    @Persisted var arrayString: List<String>
    @Persisted var setString: MutableSet<String>

    var firstLetter: String? { stringCol.first.map { String($0) } }
}

@Suite struct SectionedResultsPortTests {
    /// SectionedResultsTestsBase.createObjects().
    private func createObjects(_ name: String = #function) throws -> Realm {
        let o1 = SPortObject()
        o1.stringCol = "banana"
        o1.arrayString.append(objectsIn: ["banana", "box", "apple", "chalk"])
        o1.setString.insert(objectsIn: ["banana", "box", "apple", "chalk"])
        let o2 = SPortObject()
        o2.stringCol = "box"
        let o3 = SPortObject()
        o3.stringCol = "apple"
        let o4 = SPortObject()
        o4.stringCol = "chalk"
        let realm = try Realm(configuration: inMemoryConfiguration(name, types: [SPortObject.self]))
        try realm.write {
            realm.deleteAll()
            realm.add([o1, o2, o3, o4])
        }
        return realm
    }

    @Test func creationFromResults() throws {
        let realm = try createObjects()
        let results = realm.objects(SPortObject.self)
        func check(ascending: Bool, sectionCount: Int, sectionKeys: [String]) {
            let sectionedResults = results.sectioned(by: \.firstLetter, ascending: ascending)
            #expect(sectionedResults.count == sectionCount)
            #expect(sectionedResults.map { $0.key } == sectionKeys)
            let sectionedResults2 = results.sectioned(by: \.firstLetter,
                                                      sortDescriptors: [RealmQuery.SortDescriptor(keyPath: "stringCol", ascending: ascending)])
            #expect(sectionedResults2.count == sectionCount)
            #expect(sectionedResults2.map { $0.key } == sectionKeys)
            let sectionedResults3 = results.sectioned(by: { String($0.stringCol.first!) },
                                                      sortDescriptors: [RealmQuery.SortDescriptor(keyPath: "stringCol", ascending: ascending)])
            #expect(sectionedResults3.count == sectionCount)
            #expect(sectionedResults3.map { $0.key } == sectionKeys)
        }
        check(ascending: true, sectionCount: 3, sectionKeys: ["a", "b", "c"])
        check(ascending: false, sectionCount: 3, sectionKeys: ["c", "b", "a"])
    }

    @Test func creationFromList() throws {
        let realm = try createObjects()
        let list = realm.objects(SPortObject.self)[0].arrayString
        func check(ascending: Bool, sectionCount: Int, sectionKeys: [String]) {
            let sectionedResults = list.sectioned(by: { String($0.first!) }, ascending: ascending)
            #expect(sectionedResults.count == sectionCount)
            #expect(sectionedResults.map { $0.key } == sectionKeys)
        }
        check(ascending: true, sectionCount: 3, sectionKeys: ["a", "b", "c"])
        check(ascending: false, sectionCount: 3, sectionKeys: ["c", "b", "a"])
    }

    @Test func createFromMutableSet() throws {
        let realm = try createObjects()
        let set = realm.objects(SPortObject.self)[0].setString
        func check(ascending: Bool, sectionCount: Int, sectionKeys: [String]) {
            let sectionedResults = set.sectioned(by: { String($0.first!) }, ascending: ascending)
            #expect(sectionedResults.count == sectionCount)
            #expect(sectionedResults.map { $0.key } == sectionKeys)
        }
        check(ascending: true, sectionCount: 3, sectionKeys: ["a", "b", "c"])
        check(ascending: false, sectionCount: 3, sectionKeys: ["c", "b", "a"])
    }

    @Test func allKeys() throws {
        let realm = try createObjects()
        let sectionedResults = realm.objects(SPortObject.self).sectioned(by: \.firstLetter, ascending: true)
        #expect(sectionedResults.allKeys == ["a", "b", "c"])
    }

    @Test func subscripts() throws {
        let realm = try createObjects()
        let sectionedResults = realm.objects(SPortObject.self).sectioned(by: \.firstLetter, ascending: true)
        let section = sectionedResults[0]
        #expect(section.count == 1)
        #expect(section[0].stringCol == "apple")
        #expect(sectionedResults[IndexPath(item: 0, section: 0)].stringCol == "apple")
    }

    @Test func observation() throws {
        let realm = try createObjects()
        let results = realm.objects(SPortObject.self)
        let sectionedResults = results.sectioned(by: \.firstLetter, ascending: true)
        var first: [String] = []
        let token = sectionedResults.observe { changes in
            switch changes {
            case .initial(let collection): first.append("initial \(collection.count)")
            case .update: first.append("update")
            }
        }
        realm.refresh()
        #expect(first == ["initial 3"])
        var second = 0
        let token2 = sectionedResults.observe { _ in second += 1 }
        realm.refresh()
        #expect(second == 1)
        try realm.write { realm.delete(results) }
        realm.refresh()
        #expect(second == 2)
        #expect(first == ["initial 3", "update"])
        token.invalidate()
        token2.invalidate()
    }

    @Test func observeWithKeyPathFilter() throws {
        let realm = try createObjects()
        let results = realm.objects(SPortObject.self)
        let sectionedResults = results.sectioned(by: \.firstLetter, ascending: true)
        var calls = 0
        let token = sectionedResults.observe(keyPaths: ["boolCol"]) { _ in calls += 1 }
        realm.refresh()
        let obj = results.where { $0.stringCol.starts(with: "a") }[0]
        // A notification as the object changes sections.
        try realm.write { obj.stringCol = "box" }
        // A notification as the observed property changes.
        try realm.write { obj.boolCol = true }
        realm.refresh()
        #expect(calls == 3)
        // None as the object stays in its section.
        try realm.write { obj.stringCol = "box" }
        try realm.write { obj.stringCol = "box" }
        realm.refresh()
        #expect(calls == 3)
        token.invalidate()
    }

    @Test func observeOnQueue() throws {
        let realm = try createObjects()
        let results = realm.objects(SPortObject.self)
        let sectionedResults = results.sectioned(by: \.firstLetter, ascending: true)
        let sema = DispatchSemaphore(value: 0)
        let queue = DispatchQueue(label: "background")
        let firstRun = Locked(true)
        let outcome = Locked<[String]>([])
        let token = sectionedResults.observe(keyPaths: ["stringCol"], on: queue) { changes in
            switch changes {
            case .initial(let collection):
                outcome.value.append("initial \(collection.count)")
            case let .update(collection, deletions, insertions, modifications, sectionsToInsert, sectionsToDelete):
                if firstRun.value {
                    let expected = collection.count == 3 && sectionsToDelete == [0] && sectionsToInsert == [2]
                        && deletions == [IndexPath(item: 0, section: 1), IndexPath(item: 1, section: 1)]
                        && modifications.isEmpty && insertions == [IndexPath(item: 0, section: 0), IndexPath(item: 0, section: 2)]
                    outcome.value.append("first \(expected)")
                } else {
                    let expected = collection.count == 3 && sectionsToDelete.isEmpty && sectionsToInsert.isEmpty
                        && deletions.isEmpty && insertions.isEmpty && modifications == [IndexPath(item: 0, section: 0)]
                    outcome.value.append("second \(expected)")
                }
            }
            sema.signal()
        }
        sema.wait()
        try realm.write {
            realm.delete([results[2], results[0]]) // banana, apple
            results[0].stringCol = "bog" // previously: box
            let o = SPortObject()
            o.stringCol = "zebra"
            realm.add(o)
        }
        sema.wait()
        firstRun.value = false
        try realm.write {
            results[0].stringCol = "bogg" // previously: bog
            results[1].intCol = 1 // should be ignored.
        }
        sema.wait()
        #expect(outcome.value == ["initial 3", "first true", "second true"])
        token.invalidate()
    }

    @Test func observationOnSection() throws {
        let realm = try createObjects()
        let results = realm.objects(SPortObject.self)
        let sectionedResults = results.sectioned(by: \.firstLetter, ascending: true)
        let section1 = sectionedResults[0]
        let section2 = sectionedResults[1]
        var firstRun = true
        var heard1: [String] = []
        var heard2: [String] = []
        // Only notifications for key 'a'.
        let token1 = section1.observe(keyPaths: ["stringCol"]) { changes in
            switch changes {
            case .initial(let collection):
                heard1.append("initial \(collection.count == 1)")
            case let .update(collection, deletions, insertions, modifications, sectionsToInsert, sectionsToDelete):
                if firstRun {
                    heard1.append("first \(sectionsToDelete == [0] && sectionsToInsert.isEmpty && deletions.isEmpty && modifications.isEmpty && insertions.isEmpty)")
                } else {
                    heard1.append("second \(collection.count == 1 && insertions == [IndexPath(item: 0, section: 0)] && sectionsToInsert == [0])")
                }
            }
        }
        // Only notifications for key 'b'.
        let token2 = section2.observe(keyPaths: ["stringCol"]) { changes in
            switch changes {
            case .initial(let collection):
                heard2.append("initial \(collection.count == 2)")
            case let .update(collection, deletions, insertions, modifications, sectionsToInsert, sectionsToDelete):
                if firstRun {
                    heard2.append("first \(collection.count == 1 && sectionsToDelete.isEmpty && sectionsToInsert.isEmpty && deletions == [IndexPath(item: 0, section: 1)] && modifications.isEmpty && insertions.isEmpty)")
                } else {
                    heard2.append("second \(collection.count == 2 && sectionsToDelete.isEmpty && sectionsToInsert.isEmpty && deletions == [IndexPath(item: 0, section: 0)] && modifications.isEmpty && insertions == [IndexPath(item: 0, section: 0), IndexPath(item: 1, section: 0)])")
                }
            }
        }
        realm.refresh()
        try realm.write { realm.delete([results[2], results[0]]) } // banana, apple
        try realm.write {}
        firstRun = false
        try realm.write {
            results[0].stringCol = "bog" // previously: box
            let o = SPortObject()
            o.stringCol = "bag"
            realm.add(o)
        }
        try realm.write {}
        try realm.write {
            let o = SPortObject()
            o.stringCol = "app"
            realm.add(o)
        }
        try realm.write {}
        #expect(heard1 == ["initial true", "first true", "second true"])
        #expect(heard2 == ["initial true", "first true", "second true"])
        token1.invalidate()
        token2.invalidate()
    }

    @Test func frozenResults() throws {
        let realm = try createObjects()
        let frozenResults = realm.objects(SPortObject.self).freeze()
        #expect(frozenResults.isFrozen)
        try realm.write {
            let o = SPortObject()
            o.stringCol = "z"
            realm.add(o)
        }
        func check(ascending: Bool, sectionCount: Int, sectionKeys: [String]) {
            let sectionedResults = frozenResults.sectioned(by: \.firstLetter, ascending: ascending)
            #expect(sectionedResults.isFrozen)
            #expect(sectionedResults.count == sectionCount)
            #expect(sectionedResults.map { $0.key } == sectionKeys)
            guard let thawed = sectionedResults.thaw() else {
                Issue.record("Could not produce thawed sectioned results")
                return
            }
            #expect(!thawed.isFrozen)
            #expect(thawed.count == 4)
            #expect(thawed.map { $0.key } == (ascending ? sectionKeys + ["z"] : ["z"] + sectionKeys))
        }
        check(ascending: true, sectionCount: 3, sectionKeys: ["a", "b", "c"])
        check(ascending: false, sectionCount: 3, sectionKeys: ["c", "b", "a"])
    }

    @Test func frozen() throws {
        let realm = try createObjects()
        let results = realm.objects(SPortObject.self)
        #expect(!results.isFrozen)
        func check(ascending: Bool, sectionCount: Int, sectionKeys: [String], newSection: String) throws {
            let frozenSectionedResults = results.sectioned(by: \.firstLetter, ascending: ascending).freeze()
            try realm.write {
                let o = SPortObject()
                o.stringCol = newSection
                realm.add(o)
            }
            #expect(frozenSectionedResults.isFrozen)
            #expect(frozenSectionedResults.count == sectionCount)
            #expect(frozenSectionedResults.map { $0.key } == sectionKeys)
            let thawed = try #require(frozenSectionedResults.thaw())
            #expect(!thawed.isFrozen)
            #expect(thawed.count == sectionCount + 1)
            #expect(thawed.map { $0.key } == (ascending ? sectionKeys + [newSection] : [newSection] + sectionKeys))
        }
        try check(ascending: true, sectionCount: 3, sectionKeys: ["a", "b", "c"], newSection: "d")
        try check(ascending: false, sectionCount: 4, sectionKeys: ["d", "c", "b", "a"], newSection: "e")
    }

    @Test func frozenSection() throws {
        let realm = try createObjects()
        let results = realm.objects(SPortObject.self)
        func check(ascending: Bool, sectionKey: String) throws {
            let frozenSection = results.sectioned(by: \.firstLetter, ascending: ascending)[0].freeze()
            try realm.write {
                let o = SPortObject()
                o.stringCol = sectionKey
                realm.add(o)
            }
            #expect(frozenSection.isFrozen)
            #expect(frozenSection.count == 1)
            #expect(frozenSection.key == sectionKey)
            let thawed = try #require(frozenSection.thaw())
            #expect(!thawed.isFrozen)
            #expect(thawed.count == 2)
            #expect(thawed.key == sectionKey)
        }
        try check(ascending: true, sectionKey: "a")
        try check(ascending: false, sectionKey: "c")
    }
}
