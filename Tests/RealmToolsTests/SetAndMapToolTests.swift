import Foundation
import RealmCore
import RealmObjects
import Testing

final class ToolBag: Object {
    @Persisted(primaryKey: true) var id = ""
    @Persisted var tags: MutableSet<String>
    @Persisted var amounts: MutableSet<Decimal128?>
    @Persisted var scores: Map<String, Int>
    @Persisted var friends: Map<String, ToolBag?>
}

final class ToolMixedBox: Object {
    @Persisted(primaryKey: true) var id = ""
    @Persisted var value: AnyRealmValue
    @Persisted var values: List<AnyRealmValue>
    @Persisted var byKey: Map<String, AnyRealmValue>
}

@Suite struct SetAndMapToolTests {
    private func configuration(_ url: URL) -> Realm.Configuration {
        Realm.Configuration(fileURL: url, objectTypes: [ToolBag.self])
    }

    @Test("sets export as arrays and maps as objects, and import back")
    func roundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let source = directory.appendingPathComponent("bags.realm")
            try autoreleasepool {
                let realm = try Realm(configuration: configuration(source))
                try realm.write {
                    let ann = realm.create(ToolBag.self, value: ["id": "ann", "tags": ["b", "a"], "amounts": ["1.50", nil],
                                                                 "scores": ["math": 9, "art": 7]])
                    realm.create(ToolBag.self, value: ["id": "bob", "friends": ["best": ann]])
                }
            }
            let exported = try await realm(["export", source.path, "--class", "ToolBag", "--format", "json"])
            #expect(exported.status == 0, "\(exported.stderr)\(exported.stdout)")
            #expect(exported.stdout.contains(#""tags":["a","b"]"#), "\(exported.stdout)")
            #expect(exported.stdout.contains(#""amounts":[null,"1.50"]"#), "\(exported.stdout)")
            #expect(exported.stdout.contains(#""scores":{"art":7,"math":9}"#), "\(exported.stdout)")
            #expect(exported.stdout.contains(#""friends":{"best":"ann"}"#), "\(exported.stdout)")
            let file = directory.appendingPathComponent("bags.json")
            try exported.stdout.write(to: file, atomically: true, encoding: .utf8)

            let copy = directory.appendingPathComponent("copy.realm")
            try autoreleasepool { _ = try Realm(configuration: configuration(copy)) }
            let imported = try await realm(["import", copy.path, "ToolBag", file.path])
            #expect(imported.status == 0, "\(imported.stderr)")
            let again = try await realm(["export", copy.path, "--class", "ToolBag", "--format", "json"])
            #expect(again.stdout == exported.stdout)
            let schema = try await realm(["schema", copy.path])
            #expect(schema.stdout.contains("set<string>") && schema.stdout.contains("map<string, ToolBag?>"), "\(schema.stdout)")
        }
    }

    @Test("lists and dictionaries nested in mixed values export and import back")
    func nestedMixedRoundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let source = directory.appendingPathComponent("boxes.realm")
            let types: [Object.Type] = [ToolMixedBox.self]
            try autoreleasepool {
                let realm = try Realm(configuration: Realm.Configuration(fileURL: source, objectTypes: types))
                try realm.write {
                    let box = ToolMixedBox()
                    box.id = "a"
                    box.value = .fromDictionary(["n": .int(1), "list": .fromArray([.string("x"), .fromDictionary(["deep": .bool(true)])])])
                    box.values.append(.fromArray([.double(2.5)]))
                    box.byKey["k"] = .fromDictionary(["m": .fromArray([])])
                    realm.add(box)
                }
            }
            let exported = try await realm(["export", source.path, "--class", "ToolMixedBox", "--format", "json"])
            #expect(exported.status == 0, "\(exported.stderr)\(exported.stdout)")
            #expect(exported.stdout.contains(#"{"$type":"list","value":[{"$type":"string","value":"x"}"#), "\(exported.stdout)")
            let file = directory.appendingPathComponent("boxes.json")
            try exported.stdout.write(to: file, atomically: true, encoding: .utf8)

            let copy = directory.appendingPathComponent("copy.realm")
            try autoreleasepool { _ = try Realm(configuration: Realm.Configuration(fileURL: copy, objectTypes: types)) }
            let imported = try await realm(["import", copy.path, "ToolMixedBox", file.path])
            #expect(imported.status == 0, "\(imported.stderr)")
            let again = try await realm(["export", copy.path, "--class", "ToolMixedBox", "--format", "json"])
            #expect(again.stdout == exported.stdout)
            try autoreleasepool {
                let realm = try Realm(configuration: Realm.Configuration(fileURL: copy, objectTypes: types))
                let box = try #require(realm.object(ofType: ToolMixedBox.self, forPrimaryKey: "a"))
                #expect(box.value.dictionaryValue?["list"]?.listValue?[1].dictionaryValue?["deep"] == .bool(true))
                #expect(box.values.first?.listValue?.first == .double(2.5))
                #expect(box.byKey["k"]?.dictionaryValue?["m"]?.listValue?.count == 0)
            }
        }
    }
}
