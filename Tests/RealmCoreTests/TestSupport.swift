import Foundation
import RealmCore
import Testing

/// A temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("realm-core-tests-\(UUID().uuidString)", isDirectory: true)
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// A path inside the directory.
    func path(_ name: String = "test.realm") -> String {
        url.appendingPathComponent(name).path
    }
}

/// The schema most tests use: the seeds' Dog and Person, with a list, a
/// to-one link, a primary key and an index.
enum TestSchema {
    static let dog = ObjectSchema(name: "Dog", properties: [
        Property(name: "name", type: .string, isIndexed: true),
        Property(name: "age", type: .int),
        Property(name: "owner", type: .object, isOptional: true, objectClassName: "Person"),
    ])
    static let person = ObjectSchema(name: "Person", properties: [
        Property(name: "id", type: .int, isPrimaryKey: true),
        Property(name: "name", type: .string),
        Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
        Property(name: "nicknames", type: .string, isOptional: true, isList: true),
    ])
    static let schema = Schema([dog, person])
}

/// Opens a coordinator on a fresh file in `directory`.
func openCoordinator(_ directory: TemporaryDirectory, _ name: String = "test.realm", schema: Schema = TestSchema.schema, version: UInt64 = 0) throws -> Coordinator {
    try Coordinator.open(.file(directory.path(name), schema: schema, schemaVersion: version))
}
