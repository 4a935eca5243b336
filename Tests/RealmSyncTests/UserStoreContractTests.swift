import Foundation
import RealmObjects
import RealmSync
import RealmSyncServer
import RealmSyncWire
import Testing

/// The contract every ``UserStore`` keeps, run against both stores: the
/// embedded one (a Realm in the data folder) and PostgreSQL's (a
/// throwaway cluster started by the test). Issue 37: one storage protocol,
/// one test suite.
@Suite struct UserStoreContractTests {
    /// The two stores, each made fresh, and what to do when done.
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case embedded, postgres
        var testDescription: String { rawValue }
    }

    static func withStore(_ kind: Kind, _ body: (any UserStore) async throws -> Void) async throws {
        switch kind {
        case .embedded:
            try await body(try EmbeddedUserStore(directory: temporaryDirectory("store")))
        case .postgres:
            let store = try await PostgresUserStore(url: try await PostgresCluster.shared().makeDatabase())
            do {
                try await body(store)
            } catch {
                await store.shutdown()
                throw error
            }
            await store.shutdown()
        }
    }

    /// A date both stores keep to the microsecond.
    static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: (1_800_000_000 + seconds).rounded()) }

    @Test(arguments: Kind.allCases) func usersAndAccounts(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let ana = UserRecord(identity: "a1", isAdmin: false, created: Self.date(1), metadata: ["team": "blue", "é": "ü"])
            try await store.createUser(ana, account: AccountRecord(provider: .usernamePassword, providerUserIdentity: "ana",
                                                                   userIdentity: "a1", passwordHash: "hash1"))
            #expect(try await store.user(identity: "a1") == ana)
            #expect(try await store.user(identity: "nobody") == nil)
            let account = try #require(try await store.account(provider: .usernamePassword, providerUserIdentity: "ana"))
            #expect(account.userIdentity == "a1" && account.passwordHash == "hash1")
            #expect(try await store.account(provider: .jwt, providerUserIdentity: "ana") == nil)

            // Another user for the same account: refused, and nothing kept.
            await #expect(throws: UserStoreError.accountExists) {
                try await store.createUser(UserRecord(identity: "b2", isAdmin: false, created: Self.date(2)),
                                           account: AccountRecord(provider: .usernamePassword, providerUserIdentity: "ana", userIdentity: "b2"))
            }
            #expect(try await store.user(identity: "b2") == nil)

            try await store.setPasswordHash("hash2", provider: .usernamePassword, providerUserIdentity: "ana")
            #expect(try await store.account(provider: .usernamePassword, providerUserIdentity: "ana")?.passwordHash == "hash2")
            await #expect(throws: UserStoreError.notFound) {
                try await store.setPasswordHash("x", provider: .usernamePassword, providerUserIdentity: "nobody")
            }
            try await store.setAdmin(true, userIdentity: "a1")
            #expect(try await store.user(identity: "a1")?.isAdmin == true)
            await #expect(throws: UserStoreError.notFound) { try await store.setAdmin(true, userIdentity: "nobody") }
            #expect(try await store.accounts(ofUser: "a1").map(\.providerUserIdentity) == ["ana"])
            #expect(try await store.accounts(ofUser: "nobody").isEmpty)
        }
    }

    @Test(arguments: Kind.allCases) func twoCreationsOfOneAccountMakeOneUser(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        do {
                            try await store.createUser(UserRecord(identity: "u\(index)", isAdmin: false, created: Self.date(0)),
                                                       account: AccountRecord(provider: .usernamePassword, providerUserIdentity: "same",
                                                                              userIdentity: "u\(index)"))
                            return true
                        } catch UserStoreError.accountExists {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            let owner = try #require(try await store.account(provider: .usernamePassword, providerUserIdentity: "same")).userIdentity
            for index in 0..<8 where "u\(index)" != owner {
                #expect(try await store.user(identity: "u\(index)") == nil)
            }
        }
    }

    @Test(arguments: Kind.allCases) func refreshTokens(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let live = RefreshTokenRecord(tokenHash: "h1", userIdentity: "a1", issued: Self.date(0), expires: Self.date(1_000))
            let old = RefreshTokenRecord(tokenHash: "h2", userIdentity: "a1", issued: Self.date(0), expires: Self.date(10))
            try await store.insertRefreshToken(live)
            try await store.insertRefreshToken(old)
            #expect(try await store.refreshToken(hash: "h1") == live)
            #expect(try await store.refreshToken(hash: "none") == nil)
            #expect(try await store.deleteRefreshTokens(expiredBefore: Self.date(500)) == 1)
            #expect(try await store.refreshToken(hash: "h2") == nil)
            #expect(try await store.deleteRefreshToken(hash: "h1"))
            #expect(try await !store.deleteRefreshToken(hash: "h1"))
        }
    }

    @Test(arguments: Kind.allCases) func permissionsAndOffers(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            let grants = [
                PermissionRecord(realmPath: "/a1/notes", userIdentity: "b2", accessLevel: .read, updated: Self.date(1)),
                PermissionRecord(realmPath: "/a1/*", userIdentity: "*", accessLevel: .write, updated: Self.date(2)),
                PermissionRecord(realmPath: "*", userIdentity: "c3", accessLevel: .admin, updated: Self.date(3)),
                PermissionRecord(realmPath: "/c3/x", userIdentity: "d4", accessLevel: .read, updated: Self.date(4)),
            ]
            for grant in grants { try await store.setPermission(grant) }
            // Replaced, and kept at none when revoked.
            let revoked = PermissionRecord(realmPath: "/a1/notes", userIdentity: "b2", accessLevel: .none, updated: Self.date(5))
            try await store.setPermission(revoked)
            #expect(try await store.permissions(realmPaths: ["/a1/notes"]) == [revoked])
            #expect(Set(try await store.permissions(realmPaths: ["/a1/*", "*"]).map(\.realmPath)) == ["/a1/*", "*"])
            #expect(try await store.permissions(realmPaths: []).isEmpty)
            // b2's: granted to them, or to everyone.
            #expect(Set(try await store.permissions(concerningUser: "b2").map(\.realmPath)) == ["/a1/notes", "/a1/*"])
            // c3's: granted to them, to everyone, and on their Realms.
            #expect(Set(try await store.permissions(concerningUser: "c3").map(\.realmPath)) == ["/a1/*", "*", "/c3/x"])

            let offer = OfferRecord(tokenHash: "t1", realmPath: "/a1/notes", accessLevel: .write, creator: "a1", created: Self.date(6),
                                    expires: nil)
            let expiring = OfferRecord(tokenHash: "t2", realmPath: "/a1/notes", accessLevel: .read, creator: "a1", created: Self.date(6),
                                       expires: Self.date(100))
            try await store.insertOffer(offer)
            try await store.insertOffer(expiring)
            #expect(try await store.offer(tokenHash: "t1") == offer)
            #expect(try await store.offer(tokenHash: "t2") == expiring)
            #expect(try await store.deleteOffer(tokenHash: "t1"))
            #expect(try await !store.deleteOffer(tokenHash: "t1"))
            #expect(try await store.offer(tokenHash: "t1") == nil)
        }
    }

    /// PostgreSQL's store shares the token secret: the first server makes
    /// it, every other reads it; a second store on the same database
    /// finds its tables made and the secret there.
    @Test func theSharedSecretIsMadeOnce() async throws {
        let database = try await PostgresCluster.shared().makeDatabase()
        let first = try await PostgresUserStore(url: database)
        let second = try await PostgresUserStore(url: database)
        let made = Data(repeating: 1, count: 32)
        #expect(try await first.tokenSecret(orMake: made) == made)
        #expect(try await second.tokenSecret(orMake: Data(repeating: 2, count: 32)) == made)
        await first.shutdown()
        await second.shutdown()
    }

    @Test func aURLThatNamesNoDatabaseIsAConfigurationError() async throws {
        for url in ["mysql://127.0.0.1/x", "postgres://127.0.0.1", "postgres://127.0.0.1/x?sslmode=sometimes", "not a url"] {
            await #expect(throws: SyncServer.Error.self, "\(url)") { _ = try await PostgresUserStore(url: url) }
        }
        // The password is not repeated in the message.
        do {
            _ = try await PostgresUserStore(url: "mysql://user:secret@127.0.0.1/x")
        } catch {
            #expect(!"\(error)".contains("secret"))
        }
    }
}

extension SyncTests {
    /// The server on PostgreSQL, end to end (among the sync tests, which
    /// run in turn: they share the process's users).
    @Suite struct PostgresStore {
        /// Two servers on one PostgreSQL database, end to end: a user
        /// registered through one logs in through the other, and a token
        /// one issued works on the other (they share the database's
        /// secret). Synced Realms are still each server's own.
        @Test func serversOnOneDatabaseShareUsersAndTokens() async throws {
            try await TestClient.run {
                let database = try await PostgresCluster.shared().makeDatabase()
                let first = try await TestServer.start { $0.databaseURL = database }
                defer { Task { await first.stop() } }
                let second = try await TestServer.start { $0.databaseURL = database }
                defer { Task { await second.stop() } }
                let alice = try await SyncTests.SyncedRealms.register("alice", on: first)
                // Alice's tokens come from the first server; her Realm is on the second.
                let url = SyncTests.SyncedRealms.realmURL(second, "/~/tasks")
                let configuration = SyncTests.SyncedRealms.configuration(alice, url)
                try await SyncTests.SyncedRealms.write(configuration) { realm in realm.add(SyncTask(value: ["id": 1, "title": "on postgres"])) }
                try await withDeadline("uploading to the second server") { try await #require(alice.session(for: url)).waitForUpload() }
                alice.logOut()
                let again = try await SyncUser.logIn(with: .usernamePassword(username: "alice", password: "password", register: false),
                                                     server: second.url)
                #expect(again.identity == alice.identity)
                await #expect(throws: (any Error).self) {
                    _ = try await SyncUser.logIn(with: .usernamePassword(username: "alice", password: "wrong", register: false), server: second.url)
                }
            }
        }
    }
}
