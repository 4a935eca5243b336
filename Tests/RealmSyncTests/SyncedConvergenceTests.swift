import Foundation
import RealmObjects
import RealmSync
import RealmSyncServer
import Testing

/// The models of the randomized end-to-end test: a primary-key class with
/// every kind of property sync carries, an embedded class, and a class
/// without a primary key (global identities).
final class SyncNote: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var text = ""
    @Persisted var count = 0
    @Persisted var score: Double?
    @Persisted var link: SyncNote?
    @Persisted var address: SyncAddress?
    let tags = List<String>()
    let children = List<SyncNote>()
    @Persisted var labels: MutableSet<String>
    @Persisted var friends: MutableSet<SyncNote>
    @Persisted var marks: Map<String, Int>
    @Persisted var pals: Map<String, SyncNote?>
    @Persisted var rooms: Map<String, SyncAddress?>
    @Persisted var anything: AnyRealmValue
    @Persisted var mixed: List<AnyRealmValue>
}

final class SyncAddress: EmbeddedObject {
    @Persisted var street = ""
}

final class SyncPin: Object {
    @Persisted var label = ""
    @Persisted var note: SyncNote?
}

extension SyncTests {
    /// Seeded randomized convergence through the real server: clients edit
    /// one Realm with every kind of change (deletes of linked objects and
    /// list moves included), dropping off and coming back at random; once
    /// all have synced, every replica holds the same objects.
    ///
    /// `REALM_SYNC_E2E_RUNS` sets the number of runs (CI runs the
    /// default); `REALM_SYNC_E2E_SEED` replays one run.
    @Suite struct SyncedConvergence {
        static let types: [Object.Type] = [SyncNote.self, SyncAddress.self, SyncPin.self]

        /// One replica: a user's copy of the run's Realm.
        struct Replica {
            let user: SyncUser
            let configuration: Realm.Configuration
            var session: SyncSession? { user.session(for: configuration.syncConfiguration!.realmURL) }
        }

        @Test func randomEditsWithDisconnectsConverge() async throws {
            let seeds = randomizedSeeds("E2E", defaultRuns: 200)
            try await TestClient.run {
                let errors = SessionErrors()
                defer {
                    SyncManager.shared.errorHandler = nil
                    #expect(errors.all.isEmpty, "no session failed: \(errors.all)")
                }
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                for seed in seeds {
                    try await Self.run(seed: seed, server: server)
                }
            }
        }

        static func run(seed: UInt64, server: TestServer) async throws {
            if let trace = ProcessInfo.processInfo.environment["REALM_SYNC_E2E_TRACE"] {
                let line = Data("run \(seed) \(Date())\n".utf8)
                if let handle = FileHandle(forWritingAtPath: trace) { handle.seekToEndOfFile(); handle.write(line); try? handle.close() }
                else { _ = FileManager.default.createFile(atPath: trace, contents: line) }
            }
            var random = SplitMix64(seed: seed)
            let url = URL(string: "realm://127.0.0.1:\(server.server.port!)/shared/run-\(seed)")!
            var replicas: [Replica] = []
            for index in 0..<3 {
                let user = try await SyncUser.logIn(with: .usernamePassword(username: "r\(index)-\(seed)", password: "password", register: true),
                                                    server: server.url)
                replicas.append(Replica(user: user, configuration: Realm.Configuration(
                    syncConfiguration: SyncConfiguration(user: user, realmURL: url), objectTypes: types)))
            }
            defer { for replica in replicas { replica.user.logOut() } }
            for replica in replicas { _ = try await describe(replica) }

            for _ in 0..<24 {
                let replica = replicas[Int(random.next() % 3)]
                let session = try #require(replica.session)
                switch random.next() % 10 {
                case 0: session.suspend()
                case 1: session.resume()
                default:
                    let operation = random.next()
                    let argument = random.next()
                    try await offloaded {
                        let realm = try Realm(configuration: replica.configuration)
                        try realm.write { try edit(realm, operation: operation, argument: argument) }
                    }
                }
            }
            for replica in replicas { replica.session?.resume() }
            // Everyone uploads, then everyone downloads, twice: what one
            // learns in the first pass reaches the others in the second.
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
            let first = try await describe(replicas[0])
            for replica in replicas.dropFirst() {
                let other = try await describe(replica)
                #expect(other == first, "seed \(seed): the replicas differ; replay with REALM_SYNC_E2E_SEED=\(seed)")
                if other != first { return }
            }
        }

        /// One random change, of every kind sync carries.
        static func edit(_ realm: Realm, operation: UInt64, argument: UInt64) throws {
            let id = Int(argument % 6)
            let note = realm.object(ofType: SyncNote.self, forPrimaryKey: id)
            let other = realm.object(ofType: SyncNote.self, forPrimaryKey: Int((argument / 7) % 6))
            switch operation % 30 {
            case 0, 1: _ = try realm.create(SyncNote.self, value: ["id": id, "text": "made \(argument % 1000)"], update: .modified)
            case 2: note?.text = "text \(argument % 1000)"
            case 3: note?.count = Int(argument % 100)
            case 4: note?.score = argument % 2 == 0 ? nil : Double(argument % 50) / 4
            case 5: note?.tags.append("t\(argument % 20)")
            case 6:
                if let tags = note?.tags, tags.count > 1 { tags.move(from: Int(argument % UInt64(tags.count)), to: 0) }
            case 7:
                if let tags = note?.tags, !tags.isEmpty { tags.remove(at: Int(argument % UInt64(tags.count))) }
            case 8: note?.link = other
            case 9: if let other { note?.children.append(other) }
            case 10: if let note { realm.delete(note) }
            case 11: note?.address = SyncAddress(value: ["street": "street \(argument % 10)"])
            case 12: realm.add(SyncPin(value: ["label": "pin \(argument % 10)", "note": other as Any]))
            case 14: note?.address = nil
            case 15: note?.address?.street = "edited \(argument % 10)"
            case 16:
                if let children = note?.children, children.count > 1 { children.move(from: 0, to: Int(argument % UInt64(children.count))) }
            case 17:
                if let children = note?.children, !children.isEmpty { children.remove(at: Int(argument % UInt64(children.count))) }
            case 18:
                if let children = note?.children, !children.isEmpty, let other { children.replace(index: Int(argument % UInt64(children.count)), object: other) }
            case 19:
                if let tags = note?.tags, tags.count > 1 {
                    if argument % 2 == 0 { tags.swapAt(0, tags.count - 1) } else { tags.replace(index: 0, object: "r\(argument % 20)") }
                }
            case 20:
                if argument % 2 == 0 { note?.tags.removeAll() } else { note?.children.removeAll() }
            case 21:
                // A creation that leaves every property at its default.
                if note == nil { realm.create(SyncNote.self, value: ["id": id]) }
            case 22:
                if argument % 3 == 0 { note?.labels.remove("l\(argument % 8)") } else { note?.labels.insert("l\(argument % 8)") }
            case 23:
                if let other { if argument % 3 == 0 { note?.friends.remove(other) } else { note?.friends.insert(other) } }
            case 24:
                if argument % 3 == 0 { note?.marks.removeObject(for: "m\(argument % 4)") } else { note?.marks["m\(argument % 4)"] = Int(argument % 100) }
            case 25:
                if argument % 3 == 0 { note?.pals.removeObject(for: "p\(argument % 3)") } else { note?.pals["p\(argument % 3)"] = other }
            case 26:
                switch argument % 5 {
                case 0: note?.labels.removeAll()
                case 1: note?.friends.removeAll()
                case 2: note?.marks.removeAll()
                case 3: note?.pals.removeAll()
                default: note?.rooms.removeAll()
                }
            case 27:
                let key = "r\(argument % 3)"
                switch argument % 4 {
                case 0: note?.rooms[key] = SyncAddress(value: ["street": "room \(argument % 10)"])
                case 1: note?.rooms[key]??.street = "painted \(argument % 10)"
                case 2: note?.rooms[key] = .some(nil)
                default: note?.rooms.removeObject(for: key)
                }
            case 28:
                switch argument % 7 {
                case 0: note?.anything = .int(Int(argument % 10))
                case 1: note?.anything = .string("any \(argument % 10)")
                case 2: note?.anything = other.map { .object($0) } ?? .none
                // Nested collections: made anew, and edited inside.
                case 3: note?.anything = .fromArray([.int(Int(argument % 10)), other.map { .object($0) } ?? .none, .fromDictionary(["d": .int(1)])])
                case 4: note?.anything = .fromDictionary(["d": .string("d\(argument % 10)")])
                case 5:
                    if let list = note?.anything.listValue {
                        if argument % 2 == 0 || list.isEmpty { list.append(.string("n\(argument % 10)")) } else { list.remove(at: Int(argument / 11) % list.count) }
                    }
                    note?.anything.dictionaryValue?["k\(argument % 3)"] = argument % 2 == 0 ? .int(Int(argument % 10)) : other.map { .object($0) } ?? .none
                    if let list = note?.anything.listValue, let inner = list.compactMap(\.dictionaryValue).first { inner["i"] = .int(Int(argument % 10)) }
                default: note?.anything = .none
                }
            case 29:
                guard let mixed = note?.mixed else { break }
                let index = Int((argument / 11) % UInt64(max(mixed.count, 1)))
                switch argument % 5 {
                case 0: mixed.insert(.int(Int(argument % 10)), at: min(index, mixed.count))
                case 1: if let other { mixed.insert(.object(other), at: min(index, mixed.count)) }
                case 2: if !mixed.isEmpty { mixed[index] = argument % 2 == 0 ? .string("m\(argument % 10)") : .none }
                case 3: if mixed.count > 1 { mixed.move(from: index, to: 0) }
                default: if !mixed.isEmpty { mixed.remove(at: index) }
                }
            default:
                let pins = realm.objects(SyncPin.self)
                if !pins.isEmpty { realm.delete(pins[Int(argument % UInt64(pins.count))]) }
            }
        }

        /// A note by content: its sets sorted, its maps by key.
        static func describe(_ note: SyncNote) -> String {
            let marks = note.marks.keys.sorted().map { "\($0)=\(note.marks[$0] ?? -1)" }
            let pals = note.pals.keys.sorted().map { "\($0)=\(note.pals[$0]??.id ?? -1)" }
            return "note \(note.id) \(note.text) \(note.count) \(note.score.map { "\($0)" } ?? "nil") link \(note.link?.id ?? -1) "
                + "address \(note.address?.street ?? "-") tags \(Array(note.tags)) children \(note.children.map(\.id)) "
                + "labels \(Array(note.labels).sorted()) friends \(note.friends.map(\.id).sorted()) marks \(marks) pals \(pals) "
                + "rooms \(note.rooms.keys.sorted().map { "\($0)=\(note.rooms[$0]??.street ?? "-")" }) "
                + "anything \(describe(note.anything)) mixed \(note.mixed.map(describe))"
        }

        /// A mixed value by content: an object by its id.
        static func describe(_ value: AnyRealmValue) -> String {
            switch value {
            case .list(let list): "[\(list.map(describe).joined(separator: ","))]"
            case .dictionary(let map): "{\(map.keys.sorted().map { "\($0):\(map[$0].map(describe) ?? "-")" }.joined(separator: ","))}"
            default: (value.object(SyncNote.self)?.id).map { "note \($0)" } ?? "\(value)"
            }
        }

        /// A replica's objects by content, in an order every replica shares.
        static func describe(_ replica: Replica) async throws -> [String] {
            let configuration = replica.configuration
            return try await offloaded {
                let realm = try Realm(configuration: configuration)
                let notes = realm.objects(SyncNote.self).sorted(byKeyPath: "id").map(describe)
                let pins = realm.objects(SyncPin.self).map { "pin \($0.label) \($0.note?.id ?? -1)" }.sorted()
                return Array(notes) + pins
            }
        }
    }
}

/// A small seeded generator (SplitMix64), so that a run replays from its
/// seed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
