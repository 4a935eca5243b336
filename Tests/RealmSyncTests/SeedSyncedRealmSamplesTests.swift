import Dispatch
import Foundation
import RealmObjects
import RealmSync
import RealmSyncServer
import Synchronization
import Testing

/// Seed 001's "Syncing migrations" models: the app before and after it
/// adds `Person` and `Dog.owner`, and the destructive variant that needs a
/// new Realm.
enum SyncingMigrationV1 {
    final class Dog: Object {
        @Persisted var name = ""
    }
}

enum SyncingMigrationV2 {
    final class Dog: Object {
        @Persisted var name = ""
        @Persisted var owner: Person?
    }

    final class Person: Object {
        // Required: `+requiredProperties` returns `name`.
        @Persisted var name = ""
        @Persisted var birthdate: Date?
    }
}

enum SyncingMigrationV3 {
    final class Dog: Object {
        @Persisted var name = ""
        @Persisted var owner: PersonV2?
    }

    final class PersonV2: Object {
        // Optional: `+requiredProperties` returns nothing.
        @Persisted var name: String?
    }
}

extension SyncTests {
    /// Seed 001's synced-Realm samples, in Realm Swift 3.x's spelling
    /// (Docs/SeedSamples.md, "Seed 001, sync chapters").
    @Suite struct SeedSyncedRealmSamples {
        typealias Realms = SyncedRealms

        /// "Opening a synchronized Realm" and "Syncing migrations": an app
        /// adds a class and a property; the older app, on the same Realm,
        /// goes on working with what it knows.
        @Test func openingASynchronizedRealmAndAdditiveMigrations() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let user = try await Realms.register("owner", on: server)
                let other = try await Realms.register("walker", on: server)
                let port = server.server.port!

                // let syncServerURL = URL(string: "realm://localhost:9080/~/userRealm")!
                // var config = Realm.Configuration.defaultConfiguration
                // config.syncConfiguration = SyncConfiguration(user: user, realmURL: syncServerURL)
                // let realm = try! Realm(configuration: config)
                let userRealmURL = URL(string: "realm://127.0.0.1:\(port)/~/userRealm")!
                var config = Realm.Configuration.defaultConfiguration
                config.syncConfiguration = SyncConfiguration(user: user, realmURL: userRealmURL)
                config.objectTypes = [SyncingMigrationV1.Dog.self]
                let opened = config
                try await offloaded { _ = try Realm(configuration: opened) }
                #expect(user.session(for: userRealmURL) != nil, "opening the Realm started its session")

                // The app before the change, and after it, on the same Realm.
                let syncServerURL = URL(string: "http://127.0.0.1:\(port)/Dogs")!
                var oldConfig = Realm.Configuration.defaultConfiguration
                oldConfig.syncConfiguration = SyncConfiguration(user: other, realmURL: syncServerURL)
                oldConfig.objectTypes = [SyncingMigrationV1.Dog.self]
                var newConfig = Realm.Configuration.defaultConfiguration
                newConfig.syncConfiguration = SyncConfiguration(user: user, realmURL: syncServerURL)
                newConfig.objectTypes = [SyncingMigrationV2.Dog.self, SyncingMigrationV2.Person.self]
                let (old, new) = (oldConfig, newConfig)
                try await offloaded {
                    let realm = try Realm(configuration: old)
                    try realm.write { realm.add(SyncingMigrationV1.Dog(value: ["name": "Rex"])) }
                }
                try await offloaded {
                    let realm = try Realm(configuration: new)
                    try realm.write {
                        let ana = realm.create(SyncingMigrationV2.Person.self, value: ["name": "Ana"])
                        realm.add(SyncingMigrationV2.Dog(value: ["name": "Fido", "owner": ana]))
                    }
                }
                let oldSession = try #require(other.session(for: syncServerURL))
                let newSession = try #require(user.session(for: syncServerURL))
                try await Realms.sync(newSession, to: oldSession)
                try await Realms.sync(oldSession, to: newSession)

                // The old app sees both dogs (it ignores `owner`), and
                // opens the Realm again with its old model.
                let oldNames = try await offloaded {
                    try Realm(configuration: old).objects(SyncingMigrationV1.Dog.self).map(\.name).sorted()
                }
                #expect(oldNames == ["Fido", "Rex"])
                // It still writes to the file that now has `owner`.
                try await offloaded {
                    let realm = try Realm(configuration: old)
                    try realm.write {
                        realm.add(SyncingMigrationV1.Dog(value: ["name": "Spot"]))
                        realm.objects(SyncingMigrationV1.Dog.self).filter("name == 'Fido'").first?.name = "Fido II"
                    }
                }
                try await Realms.sync(oldSession, to: newSession)
                let owners = try await offloaded {
                    try Realm(configuration: new).objects(SyncingMigrationV2.Dog.self).sorted(byKeyPath: "name").map { $0.owner?.name ?? "-" }
                }
                #expect(Array(owners) == ["Ana", "-", "-"], "Fido II keeps Ana; Rex and Spot, from the old app, have no owner")
            }
        }

        /// "Syncing migrations", destructive: a property from required to
        /// optional needs a new Realm ("DogsV2"); on the old Realm the
        /// server refuses it as a bad changeset.
        @Test func destructiveChangesGoToANewRealm() async throws {
            try await TestClient.run {
                let errors = SessionErrors()
                defer { SyncManager.shared.errorHandler = nil }
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let user = try await Realms.register("owner", on: server)
                let port = server.server.port!

                // let syncServerURL = URL(string: "realm://localhost:9080/Dogs")!
                // config.objectTypes = [Dog.self, Person.self]
                var syncServerURL = URL(string: "realm://127.0.0.1:\(port)/Dogs")!
                var config = Realm.Configuration.defaultConfiguration
                config.syncConfiguration = SyncConfiguration(user: user, realmURL: syncServerURL)
                // Limit to initial object type
                config.objectTypes = [SyncingMigrationV2.Dog.self, SyncingMigrationV2.Person.self]
                let initial = config
                try await offloaded {
                    let initialRealm = try Realm(configuration: initial)
                    try initialRealm.write { initialRealm.add(SyncingMigrationV2.Person(value: ["name": "Ana"])) }
                }
                try await #require(user.session(for: syncServerURL)).waitForUpload()

                syncServerURL = URL(string: "realm://127.0.0.1:\(port)/DogsV2")!
                config = Realm.Configuration.defaultConfiguration
                config.syncConfiguration = SyncConfiguration(user: user, realmURL: syncServerURL)
                // Limit to new object types
                config.objectTypes = [SyncingMigrationV3.Dog.self, SyncingMigrationV3.PersonV2.self]
                let renewed = config
                try await offloaded {
                    let newRealm = try Realm(configuration: renewed)
                    try newRealm.write { newRealm.add(SyncingMigrationV3.PersonV2(value: ["name": NSNull()])) }
                }
                try await #require(user.session(for: syncServerURL)).waitForUpload()
                #expect(errors.all.isEmpty, "the new Realm syncs: \(errors.all)")
            }
        }

        /// "Initial downloads" with `asyncOpen`, and "Sync sessions":
        /// `session(for:)`, `allSessions()`, `state`, `configuration`.
        @Test func initialDownloadsAndSessions() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let writer = try await Realms.register("writer", on: server)
                let user = try await Realms.register("reader", on: server)
                let realmURL = Realms.realmURL(server, "/shared/zipcodes")
                try await Realms.write(Realms.configuration(writer, realmURL)) { realm in
                    for id in 1...30 { realm.add(SyncTask(value: ["id": id, "title": "zip \(id)"])) }
                }
                try await #require(writer.session(for: realmURL)).waitForUpload()

                // var config = Realm.Configuration.defaultConfiguration
                // config.syncConfiguration = SyncConfiguration(user: user, realmURL: realmURL)
                // Realm.asyncOpen(configuration: config) { realm, error in … }
                var config = Realm.Configuration.defaultConfiguration
                config.syncConfiguration = SyncConfiguration(user: user, realmURL: realmURL)
                config.objectTypes = [SyncTask.self]
                let opening = config
                let count: Int = try await withCheckedThrowingContinuation { continuation in
                    Realm.asyncOpen(configuration: opening, callbackQueue: DispatchQueue(label: "callback")) { result in
                        switch result {
                        case .success(let realm):
                            // Realm successfully opened, with all remote data available
                            continuation.resume(returning: realm.objects(SyncTask.self).count)
                        case .failure(let error):
                            // Handle error that occurred while opening or downloading the contents of the Realm
                            continuation.resume(throwing: error)
                        }
                    }
                }
                #expect(count == 30)

                let session = try #require(user.session(for: realmURL))
                #expect(user.allSessions().map(\.realmURL) == [realmURL])
                #expect(session.state == .active)
                #expect(session.configuration?.realmURL == realmURL, "a configuration to open the Realm again")
            }
        }

        /// "Progress notifications": both samples, reporting indefinitely
        /// and for the outstanding work.
        @Test func progressNotifications() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let writer = try await Realms.register("writer", on: server)
                let user = try await Realms.register("reader", on: server)
                let realmURL = Realms.realmURL(server, "/shared/progress")
                let readerConfig = Realms.configuration(user, realmURL)
                _ = try await Realms.tasks(readerConfig)
                let session = try #require(user.session(for: realmURL))
                try await session.waitForDownload()

                // let token = session.addProgressNotification(for: .download, mode: .reportIndefinitely) { progress in
                //     if progress.isTransferComplete { hideActivityIndicator() } else { showActivityIndicator() }
                // }
                let indicator = Mutex<[Bool]>([])
                let queue = DispatchQueue(label: "ui")
                let token = session.addProgressNotification(for: .download, mode: .reportIndefinitely, queue: queue) { progress in
                    indicator.withLock { $0.append(!progress.isTransferComplete) }
                }
                try await Realms.write(Realms.configuration(writer, realmURL)) { realm in
                    for id in 1...20 { realm.add(SyncTask(value: ["id": id, "title": String(repeating: "z", count: 50)])) }
                }
                try await #require(writer.session(for: realmURL)).waitForUpload()
                try await session.waitForDownload()
                queue.sync {}
                // Much later...
                token?.invalidate()
                #expect(indicator.withLock { $0 }.last == false, "the indicator is hidden once the download completes")

                // let token = session.addProgressNotification(for: .upload, mode: .forCurrentlyOutstandingWork) { progress in
                //     let progress = progress.fractionTransferred … if progress == 1 { hideProgressBar(); token.invalidate() }
                // }
                session.suspend()
                try await Realms.write(readerConfig) { realm in realm.add(SyncTask(value: ["id": 99, "title": "mine"])) }
                let fractions = Mutex<[Double]>([])
                let transferrables = Mutex<Set<Int>>([])
                let uploadToken = session.addProgressNotification(for: .upload, mode: .forCurrentlyOutstandingWork, queue: queue) { progress in
                    fractions.withLock { $0.append(progress.fractionTransferred) }
                    transferrables.withLock { _ = $0.insert(progress.transferrableBytes) }
                }
                session.resume()
                try await session.waitForUpload()
                try await Task.sleep(for: .milliseconds(50))
                queue.sync {}
                uploadToken?.invalidate()
                // The page: the block captures the transferrable bytes at
                // registration and reports the bytes transferred (since the
                // session began) relative to that value.
                let reported = fractions.withLock { $0 }
                #expect(reported.count >= 2, "a first report at registration, then the completed upload")
                #expect(try #require(reported.first) < 1, "the new object was still outstanding")
                #expect(reported == reported.sorted(), "the bar only fills")
                #expect(reported.last == 1, "the progress bar fills, then unregisters")
                #expect(transferrables.withLock { $0 }.count == 1, "transferrable stays the value captured at registration")
            }
        }
    }
}
