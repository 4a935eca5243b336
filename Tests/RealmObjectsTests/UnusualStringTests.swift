import Foundation
import RealmObjects
import Testing

/// Strings compare by code points on every path, caches included, and a NUL
/// inside a needle is a character like any other (issue 15, item 4).
@Suite struct UnusualStringTests {
    private static let names = ["a", "b\0c", "x\0", "\0", "é", "e\u{301}", "ée\u{301}", "", "abc"]

    private func realm() throws -> Realm {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write {
            for name in Self.names { realm.add(Dog(value: ["name": name, "age": 1])) }
        }
        return realm
    }

    private func codePoints(_ string: String) -> [UInt32] { string.unicodeScalars.map(\.value) }

    private func contains(_ text: [UInt32], _ needle: [UInt32]) -> Bool {
        guard text.count >= needle.count else { return false }
        return (0...(text.count - needle.count)).contains { Array(text[$0..<$0 + needle.count]) == needle }
    }

    /// The names the reference matcher (code points, no folding) accepts.
    private func expected(_ test: ([UInt32]) -> Bool) -> [[UInt32]] {
        Self.names.map(codePoints).filter(test).sorted { $0.lexicographicallyPrecedes($1) }
    }

    private func matched(_ results: Results<Dog>) -> [[UInt32]] {
        results.map { codePoints($0.name) }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    @Test func needlesWithANulMatchByCodePoints() throws {
        let dogs = try realm().objects(Dog.self)
        for needle in ["\0", "b\0", "\0c", "x\0", "a\0"] {
            let n = codePoints(needle)
            #expect(matched(dogs.filter("name ENDSWITH %@", needle)) == expected { $0.count >= n.count && Array($0.suffix(n.count)) == n }, "ENDSWITH \(n)")
            #expect(matched(dogs.filter("name BEGINSWITH %@", needle)) == expected { $0.starts(with: n) }, "BEGINSWITH \(n)")
            #expect(matched(dogs.filter("name CONTAINS %@", needle)) == expected { contains($0, n) }, "CONTAINS \(n)")
            #expect(matched(dogs.filter("name == %@", needle)) == expected { $0 == n }, "== \(n)")
        }
        // LIKE and its negation cover every object exactly once.
        for pattern in ["*\0*", "?\0", "\0"] {
            for modifier in ["", "[c]", "[d]", "[cd]"] {
                let like = matched(dogs.filter("name LIKE\(modifier) %@", pattern))
                let notLike = matched(dogs.filter("NOT name LIKE\(modifier) %@", pattern))
                #expect(like.count + notLike.count == Self.names.count, "LIKE\(modifier) \(codePoints(pattern))")
                #expect(Set(like).isDisjoint(with: Set(notLike)))
            }
        }
        #expect(matched(dogs.filter("name LIKE %@", "*\0*")) == expected { $0.contains(0) })
        #expect(matched(dogs.filter("name LIKE %@", "?\0")) == expected { $0.count == 2 && $0[1] == 0 })
    }

    /// SQLite's LIKE and GLOB read a stored string only up to its first NUL:
    /// "b\0c" must not end with "b" nor be LIKE "b", and NOT must keep to
    /// the complement (found by the predicate fuzzer).
    @Test func storedStringsWithANulMatchByCodePoints() throws {
        let dogs = try realm().objects(Dog.self)
        let all = Self.names.count
        let cases: [(String, ([UInt32]) -> Bool)] = [
            ("name ENDSWITH 'b'", { $0.last == 98 }),
            ("name ENDSWITH 'c'", { $0.last == 99 }),
            ("name LIKE 'b'", { $0 == [98] }),
            ("name LIKE 'b*'", { $0.first == 98 }),
            ("name LIKE '*c'", { $0.last == 99 }),
            ("name ==[c] 'B'", { $0 == [98] }),
            ("name ==[c] 'X'", { $0 == [120] }),
            ("name CONTAINS[c] 'C'", { $0.contains(99) }),
            ("name ENDSWITH[c] 'C'", { $0.last == 99 }),
            ("name BEGINSWITH[c] 'B'", { $0.first == 98 }),
            ("name ENDSWITH[d] 'c'", { $0.last == 99 }),
        ]
        for (predicate, reference) in cases {
            #expect(matched(dogs.filter(predicate)) == expected(reference), "\(predicate)")
            #expect(dogs.filter(predicate).count + dogs.filter("NOT (\(predicate))").count == all, "NOT (\(predicate))")
        }
    }

    /// A long or NUL-holding needle is compared as bytes with substr, which
    /// is NULL for an empty string: NOT must still count it.
    @Test func negatedByteComparisonsCountEmptyStrings() throws {
        let dogs = try realm().objects(Dog.self)
        for predicate in ["name BEGINSWITH 'A\0é'", "name ENDSWITH 'x\0'", "name ENDSWITH 'c'"] {
            #expect(dogs.filter(predicate).count + dogs.filter("NOT (\(predicate))").count == Self.names.count, "\(predicate)")
        }
    }

    @Test func canonicallyEquivalentStringsAreDifferentQueries() throws {
        let realm = try realm()
        let dogs = realm.objects(Dog.self)
        // Written in the format, one after the other: the caches of parses,
        // plans and filters must not take one for the other.
        #expect(matched(dogs.filter("name == 'é'")) == [[0xE9]])
        #expect(matched(dogs.filter("name == 'e\u{301}'")) == [[0x65, 0x301]])
        #expect(matched(dogs.filter("name == 'é'")) == [[0xE9]])
        #expect(matched(dogs.filter("name BEGINSWITH 'é'")) == [[0xE9], [0xE9, 0x65, 0x301]])
        #expect(matched(dogs.filter("name BEGINSWITH 'e\u{301}'")) == [[0x65, 0x301]])
        #expect(matched(dogs.filter("name ENDSWITH 'e\u{301}'")) == [[0x65, 0x301], [0xE9, 0x65, 0x301]])
        // As arguments, and through sorted and filtered results.
        #expect(matched(dogs.filter("name == %@", "e\u{301}")) == [[0x65, 0x301]])
        #expect(matched(dogs.filter("name == %@", "é")) == [[0xE9]])
        #expect(matched(dogs.sorted(byKeyPath: "name").filter("name IN %@", ["e\u{301}"])) == [[0x65, 0x301]])
        #expect(realm.objects(Dog.self).filter("name != 'é'").count == Self.names.count - 1)
    }

    @Test func anUpdateToACanonicallyEquivalentStringIsStored() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(Book(value: ["id": 1, "title": "é"])) }
        try realm.write { try realm.create(Book.self, value: ["id": 1, "title": "e\u{301}"], update: .modified) }
        #expect(codePoints(realm.objects(Book.self).first!.title) == [0x65, 0x301])
    }
}
