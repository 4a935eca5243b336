import Foundation
import RealmObjects
import Testing

final class LinkedNode: Object {
    @Persisted var name = ""
    @Persisted var n = 0
    let friends = List<LinkedNode>()
}

/// Predicates whose cost grows without bound are refused by the throwing
/// path; those accepted run, whatever SQLite's own limits: a SUBQUERY
/// nested eleven deep used to overflow SQLite's parser stack, and the error
/// stopped the program.
@Suite struct PredicateLimitTests {
    private func makeRealm() throws -> Realm {
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "limits-\(UUID())", objectTypes: [LinkedNode.self]))
        var rng = SystemRandomNumberGenerator()
        try realm.write {
            var made: [LinkedNode] = []
            for index in 0..<60 {
                let node = realm.create(LinkedNode.self, value: ["name": ["a", "b", "c"][index % 3], "n": index])
                for _ in 0..<2 where !made.isEmpty { node.friends.append(made.randomElement(using: &rng)!) }
                made.append(node)
            }
        }
        return realm
    }

    private func nestedSubqueries(_ levels: Int) -> String {
        var inner = "$x\(levels).name == 'a'"
        for level in stride(from: levels, through: 1, by: -1) {
            let source = level == 1 ? "friends" : "$x\(level - 1).friends"
            inner = "SUBQUERY(\(source), $x\(level), \(inner)).@count > 0"
        }
        return inner
    }

    @Test(arguments: [3, 6, 8])
    func subqueriesNestedWithinTheLimitRunAndAgree(levels: Int) throws {
        let realm = try makeRealm()
        let all = realm.objects(LinkedNode.self)
        let matches = try all.filter(validating: nestedSubqueries(levels))
        let complement = try all.filter(validating: "NOT (\(nestedSubqueries(levels)))")
        #expect(matches.count == Array(matches).count)
        #expect(matches.count + complement.count == all.count)
    }

    @Test(arguments: [9, 11, 30])
    func subqueriesNestedPastTheLimitAreRefused(levels: Int) throws {
        let realm = try makeRealm()
        let error = #expect(throws: Realm.Error.self) { _ = try realm.objects(LinkedNode.self).filter(validating: nestedSubqueries(levels)) }
        #expect(error?.message.contains("nested more than 8 deep") == true, "\(String(describing: error))")
    }

    @Test func aKeyPathThroughTooManyListsIsRefused() throws {
        let realm = try makeRealm()
        let all = realm.objects(LinkedNode.self)
        let within = Array(repeating: "friends", count: 48).joined(separator: ".") + ".name == 'a'"
        let matches = try all.filter(validating: within)
        #expect(matches.count == Array(matches).count)
        let past = Array(repeating: "friends", count: 49).joined(separator: ".") + ".name == 'a'"
        let error = #expect(throws: Realm.Error.self) { _ = try all.filter(validating: past) }
        #expect(error?.message.contains("49 lists or linking objects") == true, "\(String(describing: error))")
    }

    /// A megabyte of stars is one star, cut once for all the objects tested.
    @Test func aLikePatternOfAMillionStarsMatchesEverything() throws {
        let realm = try makeRealm()
        let all = realm.objects(LinkedNode.self)
        let stars = String(repeating: "*", count: 1_000_000)
        #expect(try all.filter(validating: "name LIKE '\(stars)'").count == all.count)
        #expect(try all.filter(validating: "name LIKE[c] '\(stars)A\(stars)'").count == 20)
    }
}
