import Foundation
import RealmObjects
import Testing

// realm-swift's RealmSwift/Tests/SortDescriptorTests.swift, ported.
// `RealmQuery.SortDescriptor`: Foundation's own is visible too
// (Docs/DifferencesFromApplePlatforms.md).

@Suite struct SortDescriptorPortTests {
    let sortDescriptor = RealmQuery.SortDescriptor(keyPath: "property")

    // SortDescriptorTests.testAscendingDefaultsToTrue
    @Test func ascendingDefaultsToTrue() {
        #expect(sortDescriptor.ascending)
    }

    // SortDescriptorTests.testReversedReturnsReversedDescriptor
    @Test func reversedReturnsReversedDescriptor() {
        let reversed = sortDescriptor.reversed()
        #expect(reversed.keyPath == sortDescriptor.keyPath, "Key path should stay the same when reversed.")
        #expect(!reversed.ascending)
        #expect(reversed.reversed().ascending)
    }

    // SortDescriptorTests.testDescription
    @Test func description() {
        #expect(sortDescriptor.description == "SortDescriptor(keyPath: property, direction: ascending)")
    }

    // SortDescriptorTests.testStringLiteralConvertible
    @Test func stringLiteralConvertible() {
        let literalSortDescriptor: RealmQuery.SortDescriptor = "property"
        #expect(sortDescriptor == literalSortDescriptor, "SortDescriptor should conform to StringLiteralConvertible")
    }

    // SortDescriptorTests.testComparison
    @Test func comparison() {
        let sortDescriptor1 = RealmQuery.SortDescriptor(keyPath: "property1", ascending: true)
        let sortDescriptor2 = RealmQuery.SortDescriptor(keyPath: "property1", ascending: false)
        let sortDescriptor3 = RealmQuery.SortDescriptor(keyPath: "property2", ascending: true)
        let sortDescriptor4 = RealmQuery.SortDescriptor(keyPath: "property2", ascending: false)

        // validate different
        #expect(sortDescriptor1 != sortDescriptor2, "Should not match")
        #expect(sortDescriptor1 != sortDescriptor3, "Should not match")
        #expect(sortDescriptor1 != sortDescriptor4, "Should not match")

        #expect(sortDescriptor2 != sortDescriptor3, "Should not match")
        #expect(sortDescriptor2 != sortDescriptor4, "Should not match")

        #expect(sortDescriptor3 != sortDescriptor4, "Should not match")

        let sortDescriptor5 = RealmQuery.SortDescriptor(keyPath: "property1", ascending: true)
        let sortDescriptor6 = RealmQuery.SortDescriptor(keyPath: "property2", ascending: true)

        // validate same
        #expect(sortDescriptor1 == sortDescriptor5, "Should match")
        #expect(sortDescriptor3 == sortDescriptor6, "Should match")
    }
}
