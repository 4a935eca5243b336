import Foundation
import RealmCore
import RealmObjects
import RealmSyncEngine
import Testing

/// The `realm` tool run as a user runs it: the built executable on real
/// files, every command, every format, and the error paths.
@Suite("realm command-line tool")
struct CLITests {
    @Test("schema prints classes, properties, counts and the schema version, as text and JSON")
    func schema() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("sample.realm")
            try makeSampleRealm(file)
            let text = try await realm(["schema", file.path])
            #expect(text.status == 0)
            #expect(text.stdout.contains("schema version 0, 4 classes"))
            #expect(text.stdout.contains("ToolPet: 3 objects"))
            #expect(text.stdout.contains("ToolAddress (embedded): 1 object"))
            let lines = text.stdout.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
            #expect(lines.contains("id int primary key"))
            #expect(lines.contains("name string indexed"))
            #expect(lines.contains("pets list<ToolPet> links to many"))
            #expect(lines.contains("friend ToolOwner? link"))
            #expect(lines.contains("maybe int?"))
            #expect(lines.contains("owners linking objects <ToolOwner.pets> backlinks, computed"))

            let json = try await realm(["schema", file.path, "--json"])
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            let classes = try #require(parsed["classes"] as? [[String: Any]])
            #expect(classes.map { $0["name"] as? String } == ["ToolAddress", "ToolNote", "ToolOwner", "ToolPet"])
            let pet = try #require(classes.first { $0["name"] as? String == "ToolPet" })
            #expect(pet["count"] as? Int == 3)
            #expect(pet["primaryKey"] as? String == "id")
        }
    }

    @Test("query filters, sorts and limits, in table, JSON and CSV")
    func query() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("sample.realm")
            try makeSampleRealm(file)
            let table = try await realm(["query", file.path, "ToolPet", "score > 1", "--sort", "score,desc"])
            #expect(table.status == 0)
            let rows = table.stdout.split(separator: "\n")
            #expect(rows.count == 4)  // header, rule, two pets
            #expect(rows[0].hasPrefix("id  name"))
            #expect(rows[2].hasPrefix("3 "))
            #expect(rows[2].contains("<script>alert(1)</script>⏎line two"))
            #expect(rows[3].hasPrefix("2 "))

            let limited = try await realm(["query", file.path, "ToolPet", "--sort", "id", "--limit", "1", "--format", "json"])
            let objects = try #require(try JSONSerialization.jsonObject(with: Data(limited.stdout.utf8)) as? [[String: Any]])
            #expect(objects.count == 1)
            #expect(objects[0]["name"] as? String == "Rex")
            #expect(objects[0]["born"] as? String == "2023-11-14T22:13:20.123456Z")

            let links = try await realm(["query", file.path, "ToolOwner", "ANY pets.name BEGINSWITH 'Fido'", "--format", "csv"])
            #expect(links.stdout == """
                id,name,pets,address,friend,note
                bob,Bob,[2],,ann,

                """)
            let owners = try await realm(["query", file.path, "ToolOwner", "--sort", "id"])
            #expect(owners.stdout.contains("[1, 3]"))
            #expect(owners.stdout.contains("ToolNote#"))
            #expect(owners.stdout.contains("{\"city\":\"Oslo\",\"zip\":null,\"neighbor\":\"bob\"}"))
        }
    }

    @Test("mistakes are one line on standard error and exit status 1, never a stack trace")
    func errors() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("sample.realm")
            try makeSampleRealm(file)
            let cases: [([String], String)] = [
                (["query", file.path, "ToolPet", "agee > 2"], "agee"),
                (["query", file.path, "ToolPet", "age >"], "at the end"),
                (["query", file.path, "ToolPet", "name == 'x' AND"], "at the end"),
                (["query", file.path, "ToolPet", "name == 'x' ORR score > 1"], "at column 13 ('ORR')"),
                (["query", file.path, "Cat"], "has no class 'Cat'; its classes: ToolAddress, ToolNote, ToolOwner, ToolPet"),
                (["query", file.path, "ToolPet", "--sort", "weight"], "weight"),
                (["schema", directory.appendingPathComponent("missing.realm").path], "no such file"),
                (["export", file.path, "--format", "json", "--output", file.path], "exists"),
            ]
            for (arguments, expected) in cases {
                let run = try await realm(arguments)
                #expect(run.status == 1, "\(arguments)")
                let lines = run.stderr.split(separator: "\n")
                #expect(lines.count == 1, "\(arguments): \(run.stderr)")
                #expect(run.stderr.hasPrefix("realm \(arguments[0]): "), "\(run.stderr)")
                #expect(run.stderr.contains(expected), "\(arguments): \(run.stderr)")
            }
            // Not a Realm: another SQLite database, and plain text.
            let text = directory.appendingPathComponent("notes.txt")
            try Data("hello, not a database".utf8).write(to: text)
            let run = try await realm(["schema", text.path])
            #expect(run.status == 1)
            #expect(run.stderr.contains("not a Realm file"), "\(run.stderr)")
            #expect(try String(contentsOf: text, encoding: .utf8) == "hello, not a database")
            // An empty file, which the storage engine would make a Realm of,
            // is left as it is.
            let empty = directory.appendingPathComponent("empty.realm")
            FileManager.default.createFile(atPath: empty.path, contents: nil)
            let emptyRun = try await realm(["import", empty.path, "ToolPet", text.path])
            #expect(emptyRun.stderr.contains("not a Realm file (it is empty)"), "\(emptyRun.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("empty.realm") } == ["empty.realm"])
            #expect(try Data(contentsOf: empty).isEmpty)
            // A missing file is not created by looking at it.
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("missing.realm").path))
        }
    }

    @Test("export → import → export is byte-identical, in JSON and in CSV, for every property type")
    func roundTrip() async throws {
        try await withTemporaryDirectory { directory in
            let source = directory.appendingPathComponent("source.realm")
            try makeSampleRealm(source)
            for format in ["json", "csv"] {
                let copy = directory.appendingPathComponent("copy-\(format).realm")
                try makeEmptyRealm(copy)
                // Notes first: owners link to them by object key.
                for className in ["ToolNote", "ToolPet", "ToolOwner"] {
                    let exported = directory.appendingPathComponent("\(className).\(format)")
                    let first = try await realm(["export", source.path, "--class", className, "--format", format, "--output", exported.path, "--quiet"])
                    #expect(first.status == 0, "\(first.stderr)")
                    let imported = try await realm(["import", copy.path, className, exported.path, "--quiet"])
                    #expect(imported.status == 0, "\(className) \(format): \(imported.stderr)")
                    let again = try await realm(["export", copy.path, "--class", className, "--format", format])
                    #expect(again.stdout == (try String(contentsOf: exported, encoding: .utf8)), "\(className) \(format)")
                }
            }
            let whole = try await realm(["export", source.path, "--format", "json"])
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: [[String: Any]]])
            #expect(parsed.keys.sorted() == ["ToolNote", "ToolOwner", "ToolPet"])
            let ann = try #require(parsed["ToolOwner"]?.first { $0["id"] as? String == "ann" })
            #expect(ann["pets"] as? [Int] == [1, 3])
            #expect((ann["address"] as? [String: Any])?["city"] as? String == "Oslo")
            #expect((ann["address"] as? [String: Any])?["neighbor"] as? String == "bob")
            let ancient = try #require(parsed["ToolPet"]?.first { $0["id"] as? Int == 3 })
            #expect(ancient["born"] as? Double == -100_000_000_000)
            #expect(ann["friend"] as? String == "bob")
            #expect((ann["note"] as? [String: Int])?["$key"] != nil)
            let fido = try #require(parsed["ToolPet"]?.first { $0["id"] as? Int == 2 })
            #expect(fido["photo"] as? String == Data([0, 1, 2, 1]).base64EncodedString())
            #expect(fido["price"] as? String == "1234567890.123456781")
            #expect(fido["tag"] as? String == "65a1b2c3d4e5f60718293a41")
            #expect(fido["maybe"] is NSNull)
            #expect(fido["nicknames"] as? [String] == ["a", "b,c"])
        }
    }

    @Test("a whole file's export imports into another file in one go, links to objects without primary keys included")
    func wholeFile() async throws {
        try await withTemporaryDirectory { directory in
            let source = directory.appendingPathComponent("source.realm")
            try makeSampleRealm(source)
            // Gaps in the notes' keys: the copy's keys will differ.
            try autoreleasepool {
                let realm = try Realm(configuration: configuration(source))
                try realm.write {
                    for index in 0..<5 { realm.create(ToolNote.self, value: ["text": "gap \(index)"]) }
                }
                try realm.write {
                    realm.delete(realm.objects(ToolNote.self).filter("text BEGINSWITH 'gap'"))
                    let late = realm.create(ToolNote.self, value: ["text": "late"])
                    realm.object(ofType: ToolOwner.self, forPrimaryKey: "bob")!.note = late
                }
            }
            let everything = directory.appendingPathComponent("everything.json")
            let exported = try await realm(["export", source.path, "--format", "json", "--output", everything.path, "--quiet"])
            #expect(exported.status == 0, "\(exported.stderr)")
            let text = try String(contentsOf: everything, encoding: .utf8)
            #expect(text.contains("{\"$key\":7,\"text\":\"late\"}"), "\(text)")

            let copy = directory.appendingPathComponent("copy.realm")
            try makeEmptyRealm(copy)
            let imported = try await realm(["import", copy.path, everything.path])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(imported.stderr.contains("imported 7 objects of every class (7 created, 0 updated)"), "\(imported.stderr)")
            let bob = try await realm(["query", copy.path, "ToolOwner", "note.text == 'late'", "--format", "csv"])
            #expect(bob.stdout.contains("\nbob,Bob,"), "\(bob.stdout)")
            let ann = try await realm(["query", copy.path, "ToolOwner", "note.text == 'no primary key' AND address.neighbor.id == 'bob'", "--format", "csv"])
            #expect(ann.stdout.contains("\nann,Ann,"), "\(ann.stdout)")
            // Apart from the new keys, the copy exports as the original.
            let again = try await realm(["export", copy.path, "--format", "json"])
            #expect(again.stdout.replacingOccurrences(of: "\"$key\":2", with: "\"$key\":7") == text)

            // A class's export is not a whole file's, and the other way round.
            let wrongShape = try await realm(["import", copy.path, "ToolPet", everything.path])
            #expect(wrongShape.stderr.contains("holds every class"), "\(wrongShape.stderr)")
        }
    }

    @Test("a nil primary key round-trips: alone in a CSV record, and as a link's target")
    func nilPrimaryKeys() async throws {
        try await withTemporaryDirectory { directory in
            let schema = Schema([
                ObjectSchema(name: "Code", properties: [Property(name: "code", type: .string, isOptional: true, isPrimaryKey: true)]),
                ObjectSchema(name: "Ref", properties: [
                    Property(name: "id", type: .int, isPrimaryKey: true),
                    Property(name: "target", type: .object, isOptional: true, objectClassName: "Code"),
                ]),
            ])
            func make(_ url: URL, filled: Bool) throws {
                let coordinator = try Coordinator.open(.file(url.path, schema: schema))
                let transaction = try coordinator.makeTransaction()
                guard filled else { return }
                let codes = try transaction.classHandle(named: "Code")
                let refs = try transaction.classHandle(named: "Ref")
                try transaction.write {
                    let none = try transaction.createObject(in: codes, values: [.null])
                    let some = try transaction.createObject(in: codes, values: [.string("a")])
                    try transaction.createObject(in: refs, values: [.int(1), .object(none)])
                    try transaction.createObject(in: refs, values: [.int(2), .object(some)])
                }
            }
            let source = directory.appendingPathComponent("source.realm")
            let copy = directory.appendingPathComponent("copy.realm")
            try make(source, filled: true)
            try make(copy, filled: false)
            let codes = directory.appendingPathComponent("codes.csv")
            let refs = directory.appendingPathComponent("refs.json")
            _ = try await realm(["export", source.path, "--class", "Code", "--format", "csv", "--output", codes.path, "--quiet"])
            _ = try await realm(["export", source.path, "--class", "Ref", "--format", "json", "--output", refs.path, "--quiet"])
            #expect(try String(contentsOf: codes, encoding: .utf8) == "code\n\na\n")
            #expect(try String(contentsOf: refs, encoding: .utf8) == "[\n{\"id\":1,\"target\":{\"$primaryKey\":null}},\n{\"id\":2,\"target\":\"a\"}\n]\n")
            for (className, input) in [("Code", codes), ("Ref", refs)] {
                let imported = try await realm(["import", copy.path, className, input.path, "--quiet"])
                #expect(imported.status == 0, "\(imported.stderr)")
            }
            let again = try await realm(["export", copy.path, "--format", "json"])
            let original = try await realm(["export", source.path, "--format", "json"])
            #expect(again.stdout == original.stdout)
        }
    }

    @Test("import is all or nothing, and its errors name the line and property")
    func importErrors() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("sample.realm")
            try makeSampleRealm(file)
            let input = directory.appendingPathComponent("pets.json")
            try Data("""
                [
                {"id": 10, "name": "Ten"},
                {"id": 11, "name": "Eleven",
                 "score": "high"}
                ]
                """.utf8).write(to: input)
            let bad = try await realm(["import", file.path, "ToolPet", input.path])
            #expect(bad.status == 1)
            #expect(bad.stderr.contains("pets.json, line 3: property 'ToolPet.score': expected a number, found \"high\""), "\(bad.stderr)")
            let count = try await realm(["query", file.path, "ToolPet", "--format", "json"])
            #expect(count.stdout.split(separator: "\n").count == 5, "nothing was imported: [, 3 pets, ]")

            let csv = directory.appendingPathComponent("pets.csv")
            try Data("id,name,flag\n20,Twenty,true\n21,TwentyOne,maybe\n".utf8).write(to: csv)
            let badCSV = try await realm(["import", file.path, "ToolPet", csv.path])
            #expect(badCSV.stderr.contains("pets.csv, line 3: property 'ToolPet.flag': expected true or false"), "\(badCSV.stderr)")

            let unknown = directory.appendingPathComponent("unknown.json")
            try Data("[{\"id\": 30, \"colour\": \"red\"}]".utf8).write(to: unknown)
            let badName = try await realm(["import", file.path, "ToolPet", unknown.path])
            #expect(badName.stderr.contains("line 1: class 'ToolPet' has no property 'colour'"), "\(badName.stderr)")

            let dangling = directory.appendingPathComponent("owners.json")
            try Data("[{\"id\": \"cy\", \"pets\": [1, 99]}]".utf8).write(to: dangling)
            let badLink = try await realm(["import", file.path, "ToolOwner", dangling.path])
            #expect(badLink.stderr.contains("property 'ToolOwner.pets': element 1: no ToolPet has the primary key 99"), "\(badLink.stderr)")

            // An existing primary key: refused, then updated with --update.
            let update = directory.appendingPathComponent("update.json")
            try Data("[{\"id\": 1, \"name\": \"Rex the Second\"}]".utf8).write(to: update)
            let duplicate = try await realm(["import", file.path, "ToolPet", update.path])
            #expect(duplicate.stderr.contains("primary key 1 already exists (use --update"), "\(duplicate.stderr)")
            let updated = try await realm(["import", file.path, "ToolPet", update.path, "--update"])
            #expect(updated.status == 0, "\(updated.stderr)")
            #expect(updated.stderr.contains("(0 created, 1 updated)"))
            let rex = try await realm(["query", file.path, "ToolPet", "id == 1", "--format", "json"])
            #expect(rex.stdout.contains("\"name\":\"Rex the Second\""))
            #expect(rex.stdout.contains("\"score\":0.25"), "other properties are kept")

            // Dates are checked against the calendar.
            let february = directory.appendingPathComponent("february.json")
            try Data("[{\"id\": 50, \"born\": \"2024-02-30T00:00:00Z\"}]".utf8).write(to: february)
            let badDate = try await realm(["import", file.path, "ToolPet", february.path])
            #expect(badDate.stderr.contains("property 'ToolPet.born': expected an ISO 8601 date"), "\(badDate.stderr)")

            // Links are set in a second reading: a pipe cannot be read twice.
            let piped = try await realm(["import", file.path, "ToolOwner", "/dev/stdin", "--format", "json"])
            #expect(piped.stderr.contains("give a regular file, not a pipe"), "\(piped.stderr)")

            // Links to objects later in the same file, also from embedded objects.
            let forward = directory.appendingPathComponent("forward.json")
            try Data("""
                [{"id": "dan", "friend": "eve", "address": {"city": "Bergen", "neighbor": "eve"}},
                 {"id": "eve", "friend": "dan"}]
                """.utf8).write(to: forward)
            let linked = try await realm(["import", file.path, "ToolOwner", forward.path, "--quiet"])
            #expect(linked.status == 0, "\(linked.stderr)")
            #expect(linked.stderr.isEmpty)
            let dan = try await realm(["query", file.path, "ToolOwner", "friend.friend.id == 'dan'", "--format", "csv"])
            #expect(dan.stdout.contains("dan,\"\",[],\"{\"\"city\"\":\"\"Bergen\"\",\"\"zip\"\":null,\"\"neighbor\"\":\"\"eve\"\"}\",eve,"), "\(dan.stdout)")
        }
    }

    @Test("compact, copy, verify, encrypt and decrypt")
    func fileCommands() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("sample.realm")
            try makeSampleRealm(file)
            // Free space to reclaim: many objects added and deleted.
            try autoreleasepool {
                let realm = try Realm(configuration: configuration(file))
                try realm.write {
                    for index in 0..<5_000 { realm.create(ToolNote.self, value: ["text": String(repeating: "x", count: 200) + "\(index)"]) }
                }
                try realm.write { realm.delete(realm.objects(ToolNote.self).filter("text != 'no primary key'")) }
            }
            let compacted = try await realm(["compact", file.path])
            #expect(compacted.status == 0, "\(compacted.stderr)")
            #expect(compacted.stderr.isEmpty)
            #expect(compacted.stdout.contains("compacted \(file.path): "))
            let sizes = compacted.stdout.split(separator: ":").last?.split(separator: "→").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            #expect(sizes?.count == 2 && sizes?[0] != sizes?[1], "\(compacted.stdout)")
            let verified = try await realm(["verify", file.path])
            #expect(verified.status == 0)
            #expect(verified.stdout == "\(file.path): ok\n")

            let backup = directory.appendingPathComponent("backup.realm")
            let copied = try await realm(["copy", file.path, backup.path])
            #expect(copied.status == 0, "\(copied.stderr)")
            let again = try await realm(["copy", file.path, backup.path])
            #expect(again.status == 1)
            #expect(again.stderr.contains("exists"))

            let keyFile = directory.appendingPathComponent("realm.key")
            try Data((0..<64).map { String(format: "%02x", $0 * 3 % 256) }.joined().utf8 + [0x0A]).write(to: keyFile)
            let before = try await realm(["export", file.path, "--format", "json"])
            let encrypted = try await realm(["encrypt", file.path, "--key-file", keyFile.path])
            #expect(encrypted.status == 0, "\(encrypted.stderr)")
            let header = try FileHandle(forReadingFrom: file).readData(ofLength: 16)
            #expect(header != Data("SQLite format 3\0".utf8))
            let withoutKey = try await realm(["schema", file.path])
            #expect(withoutKey.status == 1)
            #expect(withoutKey.stderr.contains("--key-file"), "\(withoutKey.stderr)")
            let withKey = try await realm(["export", file.path, "--format", "json", "--key-file", keyFile.path])
            #expect(withKey.stdout == before.stdout)
            let verifiedEncrypted = try await realm(["verify", file.path, "--key-file", keyFile.path])
            #expect(verifiedEncrypted.status == 0, "\(verifiedEncrypted.stdout) \(verifiedEncrypted.stderr)")

            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            let decrypted = try await realm(["decrypt", file.path, "--key-file", keyFile.path])
            #expect(decrypted.status == 0, "\(decrypted.stderr)")
            // The plain file is as private as the encrypted one was.
            #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
            let plainHeader = try FileHandle(forReadingFrom: file).readData(ofLength: 16)
            #expect(plainHeader == Data("SQLite format 3\0".utf8))
            let after = try await realm(["export", file.path, "--format", "json"])
            #expect(after.stdout == before.stdout)

            let badKey = directory.appendingPathComponent("short.key")
            try Data("abc".utf8).write(to: badKey)
            let refused = try await realm(["encrypt", file.path, "--key-file", badKey.path])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("128 hexadecimal digits"))
        }
    }

    @Test("progress is plain lines when standard error is not a terminal, and nothing with --quiet")
    func progress() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("many.realm")
            try makeEmptyRealm(file)
            try autoreleasepool {
                let realm = try Realm(configuration: configuration(file))
                try realm.write {
                    for index in 0..<2_000 { realm.create(ToolPet.self, value: ["id": index, "name": "pet \(index)"]) }
                }
            }
            let output = directory.appendingPathComponent("pets.json")
            let export = try await realm(["export", file.path, "--class", "ToolPet", "--format", "json", "--output", output.path])
            let lines = export.stderr.split(separator: "\n")
            #expect(lines.contains("export: 200 of 2000 objects (10%)"), "\(export.stderr)")
            #expect(lines.last == "exported 2000 objects to \(output.path)")
            #expect(!export.stderr.contains("\r"))
            let quiet = try await realm(["export", file.path, "--class", "ToolPet", "--format", "csv",
                                         "--output", directory.appendingPathComponent("pets.csv").path, "--quiet"])
            #expect(quiet.status == 0)
            #expect(quiet.stderr.isEmpty)

            // On a terminal: a bar redrawn in place, erased before the
            // summary.
            let terminal = try await realmOnTerminal(["import", file.path, "ToolPet", output.path, "--update"])
            #expect(terminal.status == 0, "\(terminal.stdout)")
            #expect(terminal.stdout.contains("\rimport ["), "\(terminal.stdout)")
            #expect(terminal.stdout.contains("] 100%") || terminal.stdout.contains("%"), "\(terminal.stdout)")
            #expect(terminal.stdout.contains("\r\u{1B}[2Kimported 2000 objects of 'ToolPet' (0 created, 2000 updated)"), "\(terminal.stdout)")
        }
    }

    @Test("a synced Realm is read but never changed: a change would not be recorded for sync")
    func syncedRealm() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("synced.realm")
            try makeSampleRealm(file)
            do {
                let coordinator = try Coordinator.open(.file(file.path))
                try ChangesetRecorder.install(on: coordinator)
            }
            let query = try await realm(["query", file.path, "ToolPet", "--format", "csv"])
            #expect(query.status == 0)
            let input = directory.appendingPathComponent("pets.json")
            try Data("[{\"id\": 40}]".utf8).write(to: input)
            let refused = try await realm(["import", file.path, "ToolPet", input.path])
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("is a synced Realm: a change made here would not be recorded for sync"), "\(refused.stderr)")
            let after = try await realm(["query", file.path, "ToolPet", "--format", "csv"])
            #expect(after.stdout == query.stdout)
        }
    }

    @Test("every command has help")
    func help() async throws {
        for command in ["schema", "query", "export", "import", "compact", "verify", "copy", "encrypt", "decrypt", "browse"] {
            let run = try await realm([command, "--help"])
            #expect(run.status == 0, "\(command)")
            #expect(run.stdout.contains("USAGE: realm \(command)"), "\(command)")
            #expect(run.stdout.contains("Example"), "\(command)")
        }
    }
}
