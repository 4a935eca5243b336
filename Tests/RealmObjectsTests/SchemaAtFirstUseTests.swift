import Foundation
import RealmObjects
import Testing

/// A Realm opened without `objectTypes` checks each model class against the
/// file when it is first used. A class whose stored schema differs never
/// stops the program: it reads as having no objects, and the mismatch is
/// thrown by the next throwing call (or the commit, inside a write).
@Suite struct SchemaAtFirstUseTests {
    final class StoredShape: Object {
        @Persisted var name = ""
        @Persisted var sides = 0
        override class func className() -> String { "LazyShape" }
    }

    final class ChangedShape: Object {
        @Persisted var name = ""
        @Persisted var sides = ""
        override class func className() -> String { "LazyShape" }
    }

    /// A file with two shapes of the stored schema.
    private func makeFile(_ directory: TemporaryDirectory) throws -> URL {
        let url = directory.file()
        try autoreleasepool {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, objectTypes: [StoredShape.self]))
            try realm.write {
                realm.add(StoredShape(value: ["name": "triangle", "sides": 3]))
                realm.add(StoredShape(value: ["name": "square", "sides": 4]))
            }
        }
        return url
    }

    private func expectMismatch(_ error: Realm.Error?, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(error?.code == .schemaMismatch, "\(String(describing: error))", sourceLocation: sourceLocation)
        for name in ["LazyShape", "sides"] {
            #expect(error?.message.contains(name) == true, "\(String(describing: error)) names \(name)", sourceLocation: sourceLocation)
        }
    }

    @Test func aReadOfARefusedClassFindsNothingAndTheNextWriteThrows() throws {
        let directory = TemporaryDirectory()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: try makeFile(directory)))
        let shapes = realm.objects(ChangedShape.self)
        #expect(shapes.isEmpty)
        #expect(shapes.count == 0)
        #expect(Array(shapes).isEmpty)
        #expect(shapes.filter("name == 'square'").isEmpty)
        #expect(shapes.sorted(byKeyPath: "name").first == nil)
        let error = #expect(throws: Realm.Error.self) { try realm.write {} }
        expectMismatch(error)
        // Thrown once; the Realm goes on, and the stored model still reads.
        try realm.write {}
        #expect(realm.objects(StoredShape.self).map(\.sides).sorted() == [3, 4])
    }

    @Test func theNextOpenOfTheRealmOnTheThreadThrows() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: try makeFile(directory))
        let realm = try Realm(configuration: configuration)
        #expect(realm.objects(ChangedShape.self).count == 0)
        let error = #expect(throws: Realm.Error.self) { _ = try Realm(configuration: configuration) }
        expectMismatch(error)
        withExtendedLifetime(realm) {}
    }

    @Test func addingARefusedClassFailsTheWrite() throws {
        let directory = TemporaryDirectory()
        let url = try makeFile(directory)
        let realm = try Realm(configuration: Realm.Configuration(fileURL: url))
        let error = #expect(throws: Realm.Error.self) {
            try realm.write {
                realm.add(StoredShape(value: ["name": "pentagon", "sides": 5]))
                realm.add(ChangedShape(value: ["name": "circle", "sides": "none"]))
                realm.create(ChangedShape.self, value: ["name": "ellipse", "sides": "none"])
                #expect(realm.objects(ChangedShape.self).isEmpty)
            }
        }
        expectMismatch(error)
        #expect(realm.objects(StoredShape.self).map(\.name).sorted() == ["square", "triangle"])
    }

    @Test func aWriteThatReadsARefusedClassFailsAtItsCommit() throws {
        let directory = TemporaryDirectory()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: try makeFile(directory)))
        realm.beginWrite()
        realm.add(StoredShape(value: ["name": "pentagon", "sides": 5]))
        #expect(realm.object(ofType: ChangedShape.self, forPrimaryKey: "x") == nil)
        let error = #expect(throws: Realm.Error.self) { try realm.commitWrite() }
        expectMismatch(error)
        #expect(realm.objects(StoredShape.self).count == 2)
    }
}
