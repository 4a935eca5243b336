import Foundation
import RealmCore
import RealmObjects
import RealmTools
import Testing

/// RealmTools in this process: what a long-running tool (the browser) sees
/// when the file changes under it.
@Suite("RealmFile")
struct RealmFileTests {
    @Test("a schema changed by a migration elsewhere is read afresh after refresh()")
    func schemaChange() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("sample.realm").path
            try makeSampleRealm(URL(fileURLWithPath: path))
            let file = try RealmFile(path: path)
            let before = try file.storedClass(named: "ToolNote")
            #expect(before.objectSchema.properties.map(\.name) == ["text"])

            // A migration puts a property before the others.
            let coordinator = try Coordinator.open(.file(path))
            let migration = try coordinator.makeTransaction()
            var schema = migration.schema
            var notes = try #require(schema["ToolNote"])
            notes.properties.insert(Property(name: "mood", type: .int), at: 0)
            schema.upsert(notes)
            try migration.write { try migration.applySchema(schema, schemaVersion: 1) }

            try file.refresh()
            let after = try file.storedClass(named: "ToolNote")
            #expect(after.objectSchema.properties.map(\.name) == ["mood", "text"])
            let output = directory.appendingPathComponent("notes.json").path
            let sink = try OutputSink.newFile(atPath: output)
            _ = try Exporter.write(ObjectQuery(className: "ToolNote"), of: file, format: .json, to: sink)
            try sink.close()
            let exported = try String(contentsOfFile: output, encoding: .utf8)
            #expect(exported == "[\n{\"$key\":1,\"mood\":0,\"text\":\"no primary key\"}\n]\n")
        }
    }
}
