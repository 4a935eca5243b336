import Foundation
import RealmObjects
import RealmSync
import RealmSyncServer
import Testing

extension SyncTests {
    /// Seeded randomized convergence with query-based clients: two clients
    /// of the whole Realm and two query-based ones edit one Realm with
    /// every kind of change the convergence test makes, while the
    /// query-based ones subscribe and unsubscribe at random (queries of
    /// both classes, one with a sort and a limit) and every session drops
    /// its connection at random. A query-based client's edits touch only
    /// what it sees, except creations, which may merge with objects it does
    /// not see. Every other run is on a server that compacts its history
    /// every few versions, whatever the clients have integrated, so that
    /// sessions fall behind it and are sent whole views mid-session.
    ///
    /// Checked after every run: the full replicas are identical, and each
    /// query-based replica holds exactly what its subscriptions select on
    /// them, with everything that links to from there, each object as the
    /// full replicas have it.
    ///
    /// `REALM_SYNC_QUERY_RUNS` sets the number of runs;
    /// `REALM_SYNC_QUERY_SEED` replays one.
    @Suite struct QueryBasedConvergence {
        typealias Convergence = SyncedConvergence

        /// The queries subscribed to, by name: class, predicate, and an
        /// optional sort by id (descending) with a limit.
        static let queries: [(name: String, pins: Bool, predicate: String, limit: Int?)] = [
            ("busy notes", false, "count > 50", nil),
            ("made notes", false, "text BEGINSWITH 'made'", nil),
            ("first notes", false, "id < 2", nil),
            ("scored notes", false, "score != nil", nil),
            ("last two notes", false, "TRUEPREDICATE", 2),
            ("edited notes", false, "text CONTAINS 'text' AND count < 30", nil),
            ("odd pins", true, "label ENDSWITH '1' OR label ENDSWITH '3' OR label ENDSWITH '5'", nil),
            ("pins of notes", true, "note != nil", nil),
        ]

        @Test func randomEditsAndSubscriptionsConverge() async throws {
            let seeds = randomizedSeeds("QUERY", defaultRuns: 20)
            try await TestClient.run {
                let errors = SessionErrors()
                defer {
                    SyncManager.shared.errorHandler = nil
                    #expect(errors.all.isEmpty, "no session failed: \(errors.all)")
                }
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let compacting = try await TestServer.start { configuration in
                    configuration.historyCompactionInterval = 4
                    configuration.clientHistoryRetention = 0
                }
                defer { Task { await compacting.stop() } }
                var totals = (subscribed: 0, unsubscribed: 0, viewed: 0)
                for seed in seeds {
                    let run = try await Self.run(seed: seed, server: seed % 2 == 0 ? server : compacting)
                    totals = (totals.subscribed + run.subscribed, totals.unsubscribed + run.unsubscribed, totals.viewed + run.viewed)
                }
                print("query-based convergence: \(seeds.count) runs, \(totals.subscribed) subscriptions, \(totals.unsubscribed) removed, \(totals.viewed) objects in views at the end")
            }
        }

        static func run(seed: UInt64, server: TestServer) async throws -> (subscribed: Int, unsubscribed: Int, viewed: Int) {
            var random = SplitMix64(seed: seed)
            let url = URL(string: "realm://127.0.0.1:\(server.server.port!)/shared/query-\(seed)")!
            var replicas: [Convergence.Replica] = []
            for index in 0..<4 {
                let user = try await SyncUser.logIn(with: .usernamePassword(username: "q\(index)-\(seed)", password: "password", register: true),
                                                    server: server.url)
                replicas.append(Convergence.Replica(user: user, configuration: Realm.Configuration(
                    syncConfiguration: SyncConfiguration(user: user, realmURL: url, isPartial: index >= 2), objectTypes: Convergence.types)))
            }
            defer { for replica in replicas { replica.user.logOut() } }
            for replica in replicas { _ = try await Convergence.describe(replica) }

            var subscribed = 0
            var unsubscribed = 0
            for replica in replicas[2...] {
                for _ in 0..<2 {
                    let query = queries[Int(random.next() % UInt64(queries.count))]
                    _ = try await offloaded { subscribe(try Realm(configuration: replica.configuration), to: query) }
                    subscribed += 1
                }
            }
            for _ in 0..<40 {
                let replica = replicas[Int(random.next() % 4)]
                let session = try #require(replica.session)
                let isPartial = replica.configuration.syncConfiguration!.isPartial
                let choice = random.next() % 12
                let argument = random.next()
                switch choice {
                case 0: session.suspend()
                case 1: session.resume()
                case 2 where isPartial, 3 where isPartial, 4 where isPartial:
                    let query = queries[Int(argument % UInt64(queries.count))]
                    try await offloaded {
                        let realm = try Realm(configuration: replica.configuration)
                        if choice < 4 {
                            _ = subscribe(realm, to: query)
                        } else {
                            realm.subscription(named: query.name)?.unsubscribe()
                        }
                    }
                    if choice < 4 { subscribed += 1 } else { unsubscribed += 1 }
                default:
                    let operation = random.next()
                    try await offloaded {
                        let realm = try Realm(configuration: replica.configuration)
                        try realm.write { try Convergence.edit(realm, operation: operation, argument: argument) }
                    }
                }
            }
            for replica in replicas { replica.session?.resume() }
            for replica in replicas[2...] { try await waitForSubscriptions(replica, seed: seed) }
            for _ in 0..<2 {
                for replica in replicas {
                    let session = try #require(replica.session)
                    try await withDeadline("seed \(seed): uploading (\(session.diagnostics))") { try await session.waitForUpload() }
                }
                for replica in replicas {
                    let session = try #require(replica.session)
                    try await withDeadline("seed \(seed): downloading (\(session.diagnostics))") { try await session.waitForDownload() }
                }
            }
            let full = try await Convergence.describe(replicas[0])
            #expect(try await Convergence.describe(replicas[1]) == full,
                    "seed \(seed): the full replicas differ; replay with REALM_SYNC_QUERY_SEED=\(seed)")
            var viewed = 0
            for replica in replicas[2...] {
                let names = try await offloaded { try Realm(configuration: replica.configuration).subscriptions().compactMap(\.name) }
                let expected = try await view(of: names, in: replicas[0])
                let actual = try await Convergence.describe(replica)
                viewed += actual.count
                #expect(actual == expected, "seed \(seed): a query-based replica differs from its view (\(names)); replay with REALM_SYNC_QUERY_SEED=\(seed)")
            }
            return (subscribed, unsubscribed, viewed)
        }

        static func subscribe(_ realm: Realm, to query: (name: String, pins: Bool, predicate: String, limit: Int?)) -> String {
            if query.pins {
                return "\(realm.objects(SyncPin.self).filter(query.predicate).subscribe(named: query.name).state)"
            }
            var notes = realm.objects(SyncNote.self).filter(query.predicate)
            if query.limit != nil { notes = notes.sorted(byKeyPath: "id", ascending: false) }
            return "\(notes.subscribe(named: query.name, limit: query.limit).state)"
        }

        /// Waits until every subscription of `replica` is complete.
        static func waitForSubscriptions(_ replica: Convergence.Replica, seed: UInt64) async throws {
            let deadline = ContinuousClock.now + .seconds(30)
            while true {
                let states = try await offloaded {
                    try Realm(configuration: replica.configuration).subscriptions().map { "\($0.name ?? "") \($0.state)" }
                }
                if states.allSatisfy({ $0.hasSuffix(" complete") }) { return }
                guard ContinuousClock.now < deadline else {
                    Issue.record("seed \(seed): subscriptions not complete: \(states)")
                    return
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }

        /// What subscriptions named `names` select in a full replica, with
        /// what that links to, described as ``SyncedConvergence/describe(_:)``
        /// describes a replica.
        static func view(of names: [String], in replica: Convergence.Replica) async throws -> [String] {
            let configuration = replica.configuration
            return try await offloaded {
                let realm = try Realm(configuration: configuration)
                var notes = Set<Int>()
                var pins: [SyncPin] = []
                var pending: [SyncNote] = []
                for name in names {
                    guard let query = queries.first(where: { $0.name == name }) else { continue }
                    if query.pins {
                        for pin in realm.objects(SyncPin.self).filter(query.predicate) where !pins.contains(where: { $0.isSameObject(as: pin) }) {
                            pins.append(pin)
                            if let note = pin.note { pending.append(note) }
                        }
                    } else {
                        var matches = Array(realm.objects(SyncNote.self).filter(query.predicate).sorted(byKeyPath: "id", ascending: false))
                        if let limit = query.limit { matches = Array(matches.prefix(limit)) }
                        pending += matches
                    }
                }
                while let note = pending.popLast() {
                    guard notes.insert(note.id).inserted else { continue }
                    if let link = note.link { pending.append(link) }
                    pending += Array(note.children)
                    pending += Array(note.friends)
                    pending += note.pals.values.compactMap { $0 }
                    // Mixed values link too: alone, in a list, and in the
                    // collections nested in them.
                    var mixed = [note.anything] + Array(note.mixed)
                    while let value = mixed.popLast() {
                        switch value {
                        case .list(let list): mixed += Array(list)
                        case .dictionary(let map): mixed += map.values.map { $0 }
                        default: if let linked = value.object(SyncNote.self) { pending.append(linked) }
                        }
                    }
                }
                let described = realm.objects(SyncNote.self).sorted(byKeyPath: "id").filter { notes.contains($0.id) }
                    .map(SyncTests.SyncedConvergence.describe)
                return Array(described) + pins.map { "pin \($0.label) \($0.note?.id ?? -1)" }.sorted()
            }
        }
    }
}
