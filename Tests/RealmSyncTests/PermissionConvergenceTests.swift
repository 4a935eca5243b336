import Dispatch
import Foundation
import RealmObjects
import RealmSync
import RealmSyncServer
import Synchronization
import Testing

/// A mark a replica leaves with each of its writes, never changed or
/// deleted: the ledger of what was acknowledged and what was refused.
final class SyncMark: Object {
    @Persisted(primaryKey: true) var id = ""
}

extension SyncTests {
    /// Seeded randomized convergence with permission changes: an owner's
    /// Realm edited by the owner and two guests whose access the owner
    /// changes at random (write, read, none) between their edits. Writes
    /// made without write access are refused; the refused replica backs its
    /// file up and opens the Realm again once it may read.
    ///
    /// Checked after every run: every replica that may read holds the
    /// owner's objects; every write the server acknowledged is there
    /// (its mark); every refused write is in its replica's backup and
    /// nowhere else.
    ///
    /// `REALM_SYNC_PERMISSION_RUNS` sets the number of runs;
    /// `REALM_SYNC_PERMISSION_SEED` replays one.
    @Suite struct PermissionConvergence {
        typealias Convergence = SyncedConvergence
        static let types: [Object.Type] = Convergence.types + [SyncMark.self]

        /// A user's copy of the run's Realm, and what the test knows of it.
        final class Replica: @unchecked Sendable {
            // @unchecked: used by the test's one task at a time.
            let user: SyncUser
            let configuration: Realm.Configuration
            var level: SyncAccessLevel = .write
            /// Whether its session was refused and its file backed up: it
            /// must be opened again (asynchronously) before it syncs.
            var isClosed = false
            var marks = 0

            init(user: SyncUser, url: URL, clientResetMode: ClientResetMode = .manual(), isPartial: Bool = false) {
                self.user = user
                var sync = SyncConfiguration(user: user, realmURL: url, clientResetMode: clientResetMode)
                sync.isPartial = isPartial
                configuration = Realm.Configuration(syncConfiguration: sync, objectTypes: types)
            }

            var url: URL { configuration.syncConfiguration!.realmURL }
            var session: SyncSession? { user.session(for: url) }
            var describe: Convergence.Replica { Convergence.Replica(user: user, configuration: configuration) }
        }

        /// The errors reported, with the user of their session.
        final class ReportedErrors: Sendable {
            private let errors = Mutex<[(user: String?, error: SyncError)]>([])

            init() {
                SyncManager.shared.errorHandler = { [self] error, session in
                    guard let error = error as? SyncError else { return }
                    errors.withLock { $0.append((session?.parentUser?.identity, error)) }
                }
            }

            /// Waits for a permission denied of `user`'s, and takes it.
            func takeDenial(of user: SyncUser, seconds: Double = 10) async throws -> SyncError? {
                try await take(of: user, within: seconds) { $0.code == .permissionDeniedError }
            }

            /// Waits for an error of `user`'s session that matches, and takes it.
            func take(of user: SyncUser, within seconds: Double, where match: (SyncError) -> Bool) async throws -> SyncError? {
                try await poll(within: seconds, every: .milliseconds(10)) {
                    errors.withLock { errors -> SyncError? in
                        guard let index = errors.firstIndex(where: { $0.user == user.identity && match($0.error) }) else { return nil }
                        return errors.remove(at: index).error
                    }
                }
            }

            /// The errors not taken.
            var rest: [SyncError] { errors.withLock { $0.map(\.error) } }
        }

        @Test func randomEditsWithPermissionChangesConverge() async throws {
            let seeds = randomizedSeeds("PERMISSION", defaultRuns: 20)
            try await TestClient.run {
                let errors = ReportedErrors()
                defer { SyncManager.shared.errorHandler = nil }
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                var totals = (acknowledged: 0, refused: 0, revoked: 0)
                for seed in seeds {
                    let run = try await Self.run(seed: seed, server: server, errors: errors)
                    totals = (totals.acknowledged + run.acknowledged, totals.refused + run.refused, totals.revoked + run.revoked)
                }
                #expect(errors.rest.isEmpty, "no other error: \(errors.rest)")
                // The generator reaches every path (certain to a few parts
                // in a million over 10 runs).
                if seeds.count >= 10 {
                    #expect(totals.acknowledged > 0 && totals.refused > 0 && totals.revoked > 0, "\(totals)")
                }
                print("permission convergence: \(seeds.count) runs, \(totals.acknowledged) writes acknowledged, \(totals.refused) refused, \(totals.revoked) sessions revoked")
            }
        }

        /// One run; returns how many writes were acknowledged and refused,
        /// and how many open sessions a revocation ended.
        static func run(seed: UInt64, server: TestServer, errors: ReportedErrors) async throws -> (acknowledged: Int, refused: Int, revoked: Int) {
            var random = SplitMix64(seed: seed)
            let owner = try await SyncUser.logIn(with: .usernamePassword(username: "owner-\(seed)", password: "password", register: true),
                                                 server: server.url)
            let url = URL(string: "realm://127.0.0.1:\(server.server.port!)/\(owner.identity!)/permissions-\(seed)")!
            var replicas = [Replica(user: owner, url: url)]
            for index in 1...2 {
                let guest = try await SyncUser.logIn(with: .usernamePassword(username: "guest\(index)-\(seed)", password: "password", register: true),
                                                     server: server.url)
                try await owner.apply(SyncPermission(realmPath: url.path, identity: guest.identity!, accessLevel: .write))
                replicas.append(Replica(user: guest, url: url))
            }
            defer { for replica in replicas { replica.user.logOut() } }
            _ = try await Convergence.describe(replicas[0].describe)
            try await #require(replicas[0].session).waitForUpload()
            for replica in replicas.dropFirst() { try await open(replica) }

            var acknowledged: [String] = []
            var refused: [(mark: String, backup: String)] = []
            var revoked = 0
            for _ in 0..<30 {
                let replica = replicas[Int(random.next() % 3)]
                let choice = random.next() % 10
                if choice < 3, replica !== replicas[0] {
                    // The owner changes the guest's access.
                    let level: SyncAccessLevel = [.write, .read, .read, .none][Int(random.next() % 4)]
                    try await owner.apply(SyncPermission(realmPath: url.path, identity: replica.user.identity!, accessLevel: level))
                    let before = replica.level
                    replica.level = level
                    if level == .none, !replica.isClosed, before != .none {
                        // The open session ends: the server tells it.
                        try await close(replica, after: try #require(try await errors.takeDenial(of: replica.user), "seed \(seed): revoked"))
                        revoked += 1
                    }
                    continue
                }
                if replica.isClosed {
                    if replica.level >= .read { try await open(replica) }
                    continue
                }
                let operation = random.next()
                let argument = random.next()
                replica.marks += 1
                let mark = "\(replica.user.identity!.prefix(6))-\(replica.marks)"
                try await offloaded {
                    let realm = try Realm(configuration: replica.configuration)
                    try realm.write {
                        try Convergence.edit(realm, operation: operation, argument: argument)
                        realm.add(SyncMark(value: [mark]))
                    }
                }
                do {
                    // No session: the refusal came before the wait began.
                    let session = try replica.session ?? { throw SyncError(.clientSessionError, "ended") }()
                    try await withDeadline("seed \(seed): uploading") { try await session.waitForUpload() }
                    #expect(replica.level >= .write, "seed \(seed): a write without write access was taken")
                    acknowledged.append(mark)
                } catch let error as SyncError where error.code == .permissionDeniedError || error.code == .clientSessionError {
                    // The refusal, or the ended session's error.
                    #expect(replica.level < .write, "seed \(seed): a write with write access was refused")
                    let denial = try #require(try await errors.takeDenial(of: replica.user), "seed \(seed): reported")
                    refused.append((mark, try await close(replica, after: denial)))
                }
            }

            // Everyone may write again, opens again if refused, and syncs.
            for replica in replicas.dropFirst() where replica.level != .write {
                try await owner.apply(SyncPermission(realmPath: url.path, identity: replica.user.identity!, accessLevel: .write))
                replica.level = .write
            }
            for replica in replicas where replica.isClosed { try await open(replica) }
            for _ in 0..<2 {
                for replica in replicas { try await withDeadline("seed \(seed): uploading") { try await #require(replica.session).waitForUpload() } }
                for replica in replicas { try await withDeadline("seed \(seed): downloading") { try await #require(replica.session).waitForDownload() } }
            }
            let first = try await Convergence.describe(replicas[0].describe)
            for replica in replicas.dropFirst() {
                let other = try await Convergence.describe(replica.describe)
                #expect(other == first, "seed \(seed): the replicas differ; replay with REALM_SYNC_PERMISSION_SEED=\(seed)")
            }
            let configuration = replicas[0].configuration
            let marks = Set(try await offloaded { try Realm(configuration: configuration).objects(SyncMark.self).map(\.id) })
            #expect(marks == Set(acknowledged), "seed \(seed): exactly the acknowledged writes are on the server")
            for (mark, backup) in refused {
                let local = Realm.Configuration(fileURL: URL(fileURLWithPath: backup), readOnly: true, objectTypes: types)
                let kept = try await offloaded { try Realm(configuration: local).object(ofType: SyncMark.self, forPrimaryKey: mark) != nil }
                #expect(kept, "seed \(seed): the refused write \(mark) is in its backup")
            }
            return (acknowledged.count, refused.count, revoked)
        }

        /// Opens the replica's Realm asynchronously (it may be read-only).
        static func open(_ replica: Replica) async throws {
            let configuration = replica.configuration
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                Realm.asyncOpen(configuration: configuration, callbackQueue: DispatchQueue(label: "open")) { result in
                    continuation.resume(with: result.map { _ in () })
                }
            }
            replica.isClosed = false
        }

        /// Backs the refused replica's file up (its Realms are closed), and
        /// returns where.
        @discardableResult
        static func close(_ replica: Replica, after denial: SyncError) async throws -> String {
            let token = try #require(denial.deleteRealmUserInfo())
            let deadline = ContinuousClock.now + .seconds(10)
            while !SyncSession.immediatelyHandleError(token) {
                guard ContinuousClock.now < deadline else { throw SyncError(.clientInternalError, "the refused file stays open") }
                try await Task.sleep(for: .milliseconds(10))
            }
            replica.isClosed = true
            return try #require(denial.errorUserInfo[kRLMSyncPathOfRealmBackupCopyKey] as? String)
        }
    }
}
