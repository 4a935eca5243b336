import Foundation
import RealmObjects

/// Bad values through every write entry point (`add` of `Object(value:)`,
/// `create` from a dictionary or an array, `setValue(_:forKey:)`, the
/// subscript, list appends, typed setters, `update: .modified`): the process
/// never stops, the commit throws the value's error code, nothing of the
/// transaction is stored, and the Realm stays usable (issue 14).
enum BadValues {
    /// Over the 16 MB limit, made once.
    static let tooLong = String(repeating: "x", count: 16 * 1024 * 1024 + 1)

    enum Entry: CaseIterable {
        case addUnmanaged, createDictionary, createArray, setValueForKey, subscriptSet, listAppend, typedSetter, createModified
    }

    static func run(size: Size, seed: UInt64) throws -> Int32 {
        let report = Report(family: "bad-values", seed: seed)
        let trials = size.cases(ci: 600, full: 20_000)
        let scratch = try Scratch("bad-values")
        defer { scratch.remove() }
        let realm = try Realm(configuration: .init(fileURL: scratch.file("bad.realm"), objectTypes: itemTypes))
        try realm.write {
            realm.create(Item.self, value: ["id": 1, "name": "anchor", "count": 7])
        }
        var rng = SeededGenerator(seed: seed)
        let codes = Tally()
        for index in 0..<trials {
            let entry = Entry.allCases.randomElement(using: &rng)!
            let (property, value) = badValue(&rng)
            report.countCase()
            do {
                try realm.write {
                    // A good change first, rolled back with the bad one.
                    realm.object(ofType: Item.self, forPrimaryKey: 1)!.count = 8
                    try apply(entry, property: property, value: value, in: realm, rng: &rng)
                }
                report.fail("trial \(index) (seed \(seed)): \(entry) of \(property) = \(describe(value)) was committed")
            } catch let error as Realm.Error {
                guard [.wrongType, .missingValue, .valueTooLarge, .duplicatePrimaryKey].contains(error.code) else {
                    report.fail("trial \(index): \(entry) of \(property) = \(describe(value)) threw \(error.code): \(error.message)")
                    continue
                }
                codes.add("\(error.code)")
            } catch {
                report.fail("trial \(index): \(entry) threw \(error)")
            }
            let anchor = realm.object(ofType: Item.self, forPrimaryKey: 1)
            if realm.objects(Item.self).count != 1 || anchor?.count != 7 || anchor?.name != "anchor" {
                report.fail("trial \(index) (seed \(seed)): \(entry) of \(property) left the file changed")
                break
            }
        }
        // Still usable.
        do {
            try realm.write { realm.object(ofType: Item.self, forPrimaryKey: 1)!.count = 9 }
        } catch {
            report.fail("the Realm no longer writes: \(error)")
        }
        report.figure("trials", report.cases)
        report.figure("codes", codes.description)
        return report.finish()
    }

    /// A property and a value it cannot take.
    static func badValue(_ rng: inout SeededGenerator) -> (String, Any) {
        let choices: [(String, Any)] = [
            ("count", "seven"), ("count", 1.5), ("count", NSNull()), ("count", Date()), ("count", true),
            ("name", 12), ("name", NSNull()), ("name", tooLong), ("name", Data([1])),
            ("flag", 1.1), ("flag", "yes"), ("flag", NSNull()),
            ("ratio", true), ("ratio", "1.0"), ("ratio", NSNull()),
            ("when", "2020-01-01"), ("when", 12), ("blob", "bytes"), ("blob", Data(count: 16 * 1024 * 1024 + 1)),
            ("oid", "not an id"), ("uuid", 5), ("amount", "ten"), ("mood", 99), ("mood", "calm"),
            ("tags", [1, 2]), ("tags", "not a list"), ("tags", ["ok", tooLong]), ("scores", ["a"]), ("scores", [1.5]),
            ("note", 5), ("maybe", "x"), ("parent", "not an object"), ("parent", ["id": "x"]),
            ("children", [["id": 5, "name": 3]]), ("id", 1),
        ]
        return choices.randomElement(using: &rng)!
    }

    static func apply(_ entry: Entry, property: String, value: Any, in realm: Realm, rng: inout SeededGenerator) throws {
        let id = Int.random(in: 100...1_000_000, using: &rng)
        // With "id", the value is 1: the anchor's primary key.
        var dictionary: [String: Any] = ["id": id]
        dictionary[property] = value
        switch entry {
        case .addUnmanaged:
            realm.add(Item(value: dictionary))
        case .createDictionary:
            realm.create(Item.self, value: dictionary)
        case .createArray:
            // Every property in order, the bad one in its place.
            let item = Item()
            let properties = item.objectSchema.properties.filter { $0.type != .linkingObjects }
            var values = properties.map { item.value(forKey: $0.name) ?? NSNull() }
            if let position = properties.firstIndex(where: { $0.name == property }) {
                values[position] = value
            }
            if property != "id" { values[0] = id }
            realm.create(Item.self, value: values)
        case .setValueForKey, .subscriptSet:
            let item = realm.create(Item.self, value: ["id": id])
            let target = property == "id" ? "count" : property
            let bad = property == "id" ? "seven" : value
            if entry == .setValueForKey {
                item.setValue(bad, forKey: target)
            } else {
                item[target] = bad
            }
        case .listAppend:
            let item = realm.create(Item.self, value: ["id": id])
            item.tags.append(tooLong)
        case .typedSetter:
            let item = realm.create(Item.self, value: ["id": id])
            if Bool.random(using: &rng) {
                item.name = tooLong
            } else {
                item.blob = Data(count: 16 * 1024 * 1024 + 1)
            }
        case .createModified:
            // Throws at once, leaving the transaction usable; thrown out of
            // the block, it cancels the write.
            let (target, bad): (String, Any) = property == "id" ? ("count", "seven") : (property, value)
            _ = try realm.create(Item.self, value: ["id": 1, target: bad], update: .modified)
        }
    }

    static func describe(_ value: Any) -> String {
        if let text = value as? String, text.count > 40 { return "a string of \(text.utf8.count) bytes" }
        if let data = value as? Data, data.count > 40 { return "\(data.count) bytes of data" }
        return String(describing: value).prefix(80).description
    }
}
