import Foundation
import RealmObjects
import RealmSync
import Testing

/// A model with a set and a map, which synchronized Realms do not hold yet.
final class SyncedBag: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
}

extension SyncTests {
    /// The changeset format has no set or map instructions yet (issue 38):
    /// a synchronized Realm with such a property fails with an error that
    /// names it, rather than replicating it as something else.
    @Suite struct SetAndMapRefusal {
        @Test func aSynchronizedRealmRefusesSetAndMapProperties() async throws {
            let server = try await TestServer.start()
            defer { Task { await server.stop() } }
            let user = try await SyncedRealms.register("carol", on: server)
            let configuration = Realm.Configuration(
                syncConfiguration: SyncConfiguration(user: user, realmURL: SyncedRealms.realmURL(server, "/~/bags")),
                objectTypes: [SyncedBag.self])
            let message = try await offloaded { () -> String? in
                do {
                    let realm = try Realm(configuration: configuration)
                    try realm.write { realm.create(SyncedBag.self, value: ["id": 1, "tags": ["a"]]) }
                    return nil
                } catch {
                    return "\(error)"
                }
            }
            let text = try #require(message)
            #expect(text.contains("SyncedBag.tags") && text.contains("do not support"), "\(text)")
        }
    }
}
