import Dispatch
import Foundation
import RealmObjects
import RealmSync
import Synchronization
import Testing

extension SyncTests {
    /// Seed 001's samples of "Access Control", "Client reset" and
    /// "Permission denied errors". The seed gives them in Objective-C only;
    /// each is here in Realm Swift's spelling of the same calls (realm-swift
    /// 3.13's `SyncUser.apply(_:callback:)`, `createOfferForRealm(at:…)` …),
    /// the Objective-C quoted above it. Callbacks name a queue, since a
    /// Linux test runs no main run loop (SPEC section 4).
    @Suite struct SeedAccessControlSamples {
        typealias Realms = SyncedRealms

        /// "Reading permissions":
        /// `[[RLMSyncUser currentUser] retrievePermissionsWithCallback:^(RLMResults<RLMSyncPermission *> *permissions, NSError *error) {`
        @Test func readingPermissions() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                _ = try await Realms.register("only", on: server)
                let retrieved = Mutex<Int?>(nil)
                let error: (any Error)? = await withCheckedContinuation { continuation in
                    SyncUser.current!.retrievePermissions(callbackQueue: DispatchQueue(label: "permissions")) { permissions, error in
                        if let error = error {
                            // handle error
                            continuation.resume(returning: error)
                            return
                        }
                        // success! access permissions
                        retrieved.withLock { $0 = permissions!.count }
                        continuation.resume(returning: nil)
                    }
                }
                #expect(error == nil)
                #expect(retrieved.withLock { $0 } == 0)
            }
        }

        /// "Granting permissions", by identity and by username:
        /// `RLMSyncPermission *permission = [[RLMSyncPermission alloc] initWithRealmPath:realmPath …`
        @Test func grantingPermissions() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let user = try await Realms.register("owner", on: server)
                let another = try await Realms.register("another", on: server)
                _ = try await Realms.register("alice@realm.example.org", on: server)
                let realmPath = "/~/recipes"
                let anotherUserID = another.identity!
                let queue = DispatchQueue(label: "apply")

                let first: (any Error)? = await withCheckedContinuation { continuation in
                    let permission = SyncPermission(realmPath: realmPath,     // The remote Realm path on which to apply the changes
                                                    identity: anotherUserID,  // The user ID for which these permission changes should be applied
                                                    accessLevel: .write)      // The access level to be granted
                    user.apply(permission, callbackQueue: queue) { error in
                        if let error = error {
                            // handle error
                            continuation.resume(returning: error)
                            return
                        }
                        // permission was successfully applied
                        continuation.resume(returning: nil)
                    }
                }
                #expect(first == nil)

                let second: (any Error)? = await withCheckedContinuation { continuation in
                    let permission = SyncPermission(realmPath: realmPath,
                                                    username: "alice@realm.example.org",
                                                    accessLevel: .write)
                    user.apply(permission, callbackQueue: queue) { error in
                        // ...
                        continuation.resume(returning: error)
                    }
                }
                #expect(second == nil)

                // "Revoking permissions": by `revokePermission:callback:`
                // (Swift: `revoke(_:callback:)`), or by a level of none.
                let third: (any Error)? = await withCheckedContinuation { continuation in
                    user.revoke(SyncPermission(realmPath: realmPath, identity: anotherUserID, accessLevel: .write),
                                callbackQueue: queue) { continuation.resume(returning: $0) }
                }
                #expect(third == nil)
                try await user.apply(SyncPermission(realmPath: realmPath, username: "alice@realm.example.org", accessLevel: .none))
            }
        }

        /// "Offering permissions": the offer, then its acceptance and a
        /// synchronous open with the write access it gave.
        /// `NSURL *realmURL = [NSURL URLWithString:@"realm://realm.example.org/~/recipes"];`
        /// `[receivingUser acceptOfferForToken:token callback:^(NSURL *realmURL, NSError *error) {`
        @Test func offeringPermissions() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let offeringUser = try await Realms.register("offering", on: server)
                let receivingUser = try await Realms.register("receiving", on: server)
                let realmURL = URL(string: "realm://127.0.0.1:\(server.server.port!)/~/recipes")!
                let queue = DispatchQueue(label: "offers")

                // Offer read-write access to `offeringUser`'s personal instance of the `recipes` Realm.
                let token: String? = await withCheckedContinuation { continuation in
                    offeringUser.createOfferForRealm(at: realmURL, accessLevel: .write, expiration: nil, callbackQueue: queue) { token, error in
                        if let error = error {
                            print("Not able to create a permission offer! Error was: \(error)")
                            continuation.resume(returning: nil)
                            return
                        }
                        // (`token` can now be passed out of the block and given to another user...)
                        continuation.resume(returning: token)
                    }
                }
                let offered = try #require(token)

                let opened: Result<URL, any Error> = await withCheckedContinuation { continuation in
                    receivingUser.acceptOffer(forToken: offered, callbackQueue: queue) { realmURL, error in
                        if let error = error {
                            print("Not able to accept a permission offer! Error was: \(error)")
                            continuation.resume(returning: .failure(error))
                            return
                        }
                        // We can now use `realmURL` to open the Realm.
                        // (Remember that if we only have read permissions, we must use the `asyncOpen` API.)
                        let syncConfig = SyncConfiguration(user: receivingUser, realmURL: realmURL!)
                        var config = Realm.Configuration.defaultConfiguration
                        config.syncConfiguration = syncConfig
                        config.objectTypes = [SyncTask.self]
                        continuation.resume(returning: Result {
                            let realm = try Realm(configuration: config)
                            try realm.write { realm.add(SyncTask(value: ["id": 1, "title": "from the receiving user"])) }
                            return realmURL!
                        })
                    }
                }
                let url = try opened.get()
                try await #require(receivingUser.session(for: url)).waitForUpload()
                #expect(try await SyncTests.AccessControl.asyncOpenTasks(Realms.configuration(offeringUser, realmURL)) == ["1 from the receiving user"])
            }
        }

        /// "Client reset" and "Permission denied errors": the error
        /// handler of the seed's sample, for both.
        /// `[[RLMSyncManager sharedManager] setErrorHandler:^(NSError *error, RLMSyncSession *session) {`
        @Test func handlingAPermissionDeniedError() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let owner = try await Realms.register("owner", on: server)
                let reader = try await Realms.register("reader", on: server)
                let ownerURL = Realms.realmURL(server, "/~/menu")
                try await Realms.write(Realms.configuration(owner, ownerURL)) { realm in realm.add(SyncTask(value: ["id": 1, "title": "soup"])) }
                try await #require(owner.session(for: ownerURL)).waitForUpload()
                try await owner.apply(SyncPermission(realmPath: "/~/menu", identity: reader.identity!, accessLevel: .read))

                let handled = Mutex<(codes: [SyncError.Code], backups: [String])>(([], []))
                SyncManager.shared.errorHandler = { error, session in
                    guard let error = error as? SyncError else { return }
                    if error.code == .clientResetError, let (backupPath, token) = error.clientResetInfo() {
                        // realmManager.closeRealmSafely(): the tests' Realms are closed.
                        handled.withLock { $0.backups.append(backupPath) }      // saveBackupRealmPath
                        SyncSession.immediatelyHandleError(token)
                        return
                    }
                    if error.code == .permissionDeniedError, let token = error.deleteRealmUserInfo() {
                        handled.withLock { $0.codes.append(error.code) }
                        SyncSession.immediatelyHandleError(token)
                        return
                    }
                    // Handle other errors...
                }
                defer { SyncManager.shared.errorHandler = nil }

                // Opened without asyncOpen by a reader: permission denied.
                let url = Realms.realmURL(server, "/\(owner.identity!)/menu")
                let config = Realms.configuration(reader, url)
                _ = try await Realms.tasks(config)
                let deadline = ContinuousClock.now + .seconds(10)
                while handled.withLock({ $0.codes.isEmpty }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                #expect(handled.withLock { $0.codes } == [.permissionDeniedError])
                // The handler deleted the file at once (the Realm was closed):
                // opened the correct way, it syncs.
                let tasks: [String] = try await withCheckedThrowingContinuation { continuation in
                    Realm.asyncOpen(configuration: config, callbackQueue: DispatchQueue(label: "open")) { result in
                        continuation.resume(with: result.map { $0.objects(SyncTask.self).map(\.title) })
                    }
                }
                #expect(tasks == ["soup"])
            }
        }
    }
}
