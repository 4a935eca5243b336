import Foundation
import RealmObjects
@testable import RealmSync
import Testing

extension SyncTests {
    /// Seed 001: "Changing it after the first synced Realm is opened will
    /// have no effect."
    @Suite struct LogLevel {
        @Test func aLevelSetAfterTheFirstSyncedRealmOpensChangesNothing() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let user = try await SyncedRealms.register("log-level", on: server)
                let configuration = SyncedRealms.configuration(user, SyncedRealms.realmURL(server, "/~/log-level"))
                try await SyncedRealms.write(configuration) { _ in }
                let fixed = SyncManager.shared.logger.logLevel
                let set = SyncManager.shared.logLevel
                SyncManager.shared.logLevel = set == .all ? .off : .all
                defer { SyncManager.shared.logLevel = set }
                #expect(SyncManager.shared.logLevel != set, "the level set is kept")
                #expect(SyncManager.shared.logger.logLevel == fixed, "and the logger keeps the level it opened with")
            }
        }
    }
}
