import Foundation
import RealmObjects

/// A Realm of `Item`s with every kind of property, values chosen by a seed.
enum ItemFixture {
    static func randomString(_ rng: inout SeededGenerator, maxLength: Int) -> String {
        let alphabet: [Unicode.Scalar] = ["a", "b", "c", "x", "é", "ß", "'", "%", " ", "\u{0}", "\u{301}", "😀", "中"]
        let length = Int.random(in: 0...maxLength, using: &rng)
        var text = String.UnicodeScalarView()
        for _ in 0..<length { text.append(alphabet.randomElement(using: &rng)!) }
        return String(text)
    }

    /// Adds `count` items to `realm` inside a write.
    static func fill(_ realm: Realm, count: Int, startingAt first: Int, rng: inout SeededGenerator) throws {
        try realm.write {
            var made: [Item] = []
            for id in first..<(first + count) {
                let item = Item()
                item.id = id
                item.name = randomString(&rng, maxLength: Int.random(in: 0...1, using: &rng) == 0 ? 12 : 300)
                item.flag = Bool.random(using: &rng)
                item.count = Int.random(in: -1_000_000...1_000_000, using: &rng)
                item.ratio = Double.random(in: -1e6...1e6, using: &rng)
                item.small = Float.random(in: -1000...1000, using: &rng)
                item.blob = Data((0..<Int.random(in: 0...400, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
                item.when = Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &rng))
                item.amount = Decimal(Int.random(in: -100_000...100_000, using: &rng)) / 100
                item.note = Bool.random(using: &rng) ? nil : randomString(&rng, maxLength: 40)
                item.maybe = Bool.random(using: &rng) ? nil : Int.random(in: 0...99, using: &rng)
                item.mood = [Mood.calm, .busy, .lost].randomElement(using: &rng)!
                if !made.isEmpty, Bool.random(using: &rng) { item.parent = made.randomElement(using: &rng) }
                for _ in 0..<Int.random(in: 0...4, using: &rng) { item.tags.append(randomString(&rng, maxLength: 10)) }
                for _ in 0..<Int.random(in: 0...8, using: &rng) { item.scores.append(Int.random(in: -99...99, using: &rng)) }
                for _ in 0..<Int.random(in: 0...2, using: &rng) where !made.isEmpty {
                    item.children.append(made.randomElement(using: &rng)!)
                }
                realm.add(item)
                made.append(item)
            }
        }
    }

    /// Reads every property of every item, every list and backlink, and runs
    /// queries, sorts and aggregates over them. Returns how many values were
    /// read.
    static func readEverything(_ realm: Realm) -> Int {
        var touched = 0
        let items = realm.objects(Item.self)
        for item in items {
            touched &+= item.id & 1
            touched &+= item.name.utf8.count > 0 ? 1 : 0
            touched &+= item.flag ? 1 : 0
            touched &+= item.count & 1
            touched &+= item.ratio.isNaN ? 1 : 0
            touched &+= item.small.isNaN ? 1 : 0
            touched &+= item.blob.count & 1
            touched &+= item.when.timeIntervalSinceReferenceDate > 0 ? 1 : 0
            touched &+= item.oid.stringValue.count & 1
            touched &+= item.uuid.uuidString.count & 1
            touched &+= item.amount.isNaN ? 1 : 0
            touched &+= (item.note?.count ?? 0) & 1
            touched &+= (item.maybe ?? 0) & 1
            touched &+= item.mood.rawValue
            touched &+= item.parent?.name.count ?? 0
            for tag in item.tags { touched &+= tag.count & 1 }
            for score in item.scores { touched &+= score & 1 }
            for child in item.children { touched &+= child.count & 1 }
            touched &+= item.offspring.count
            touched &+= item.tags.count + item.scores.count + item.children.count
        }
        touched &+= items.count
        touched &+= items.filter("name BEGINSWITH[c] 'a' OR count > 10").count
        touched &+= items.filter("ANY tags CONTAINS 'x' AND NOT (ratio < 0)").count
        touched &+= items.filter("parent.name != '' AND children.@count > 0").count
        touched &+= items.sorted(byKeyPath: "ratio").first?.count ?? 0
        touched &+= items.sorted(byKeyPath: "name", ascending: false).last?.id ?? 0
        touched &+= (items.sum(ofProperty: "count") as Int) & 1
        touched &+= ((items.max(ofProperty: "ratio") as Double?) ?? 0) > 0 ? 1 : 0
        touched &+= ((items.average(ofProperty: "small") as Double?) ?? 0) > 0 ? 1 : 0
        touched &+= realm.object(ofType: Item.self, forPrimaryKey: 5)?.name.count ?? 0
        touched &+= items.distinct(by: ["mood"]).count
        return touched
    }

    /// Reads the items again through every indexed path: each position of
    /// the results (plain, sorted, filtered through the `name` index), of
    /// every list and backlink, and copies of them as arrays, whose count
    /// and elements come from separate reads of the file.
    static func readByIndex(_ realm: Realm) -> Int {
        var touched = 0
        let items = realm.objects(Item.self)
        let sorted = items.sorted(byKeyPath: "name")
        let indexed = items.filter("name BEGINSWITH 'a' OR name == 'b' OR name IN {'c', 'x', ''}")
        for results in [items, sorted, indexed] {
            for index in 0..<results.count { touched &+= results[index].id & 1 }
            touched &+= Array(results).count
            touched &+= results.map(\.count).count
            touched &+= results.last?.id ?? 0
            touched &+= results.index(of: results.first ?? Item()) ?? 0
        }
        for item in Array(items) {
            touched &+= Array(item.tags).count &+ Array(item.scores).count &+ Array(item.children).count
            for index in 0..<item.children.count { touched &+= item.children[index].id & 1 }
            for index in 0..<item.tags.count { touched &+= item.tags[index].count & 1 }
            touched &+= Array(item.offspring).count
            for index in 0..<item.offspring.count { touched &+= item.offspring[index].id & 1 }
            touched &+= item.children.sorted(byKeyPath: "count").map(\.id).count
            touched &+= (item.scores.max() ?? 0) & 1
        }
        touched &+= Array(items.value(forKey: "name") as? [String] ?? []).count
        return touched
    }
}
