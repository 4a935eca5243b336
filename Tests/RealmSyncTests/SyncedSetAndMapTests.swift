import Foundation
import RealmObjects
import RealmSync
import Testing

/// A model with sets and maps of values and of objects.
final class SyncedBag: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Int>
    @Persisted var prices: MutableSet<Decimal128>
    @Persisted var tasks: MutableSet<SyncTask>
    @Persisted var assignees: Map<String, SyncTask?>
}

/// Mixed values, alone and in a set and a map.
final class SyncedMixedBag: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var anything: AnyRealmValue
    @Persisted var bag: MutableSet<AnyRealmValue>
    @Persisted var dictionary: Map<String, AnyRealmValue>
}

/// A list of mixed values.
final class SyncedMixedList: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var values: List<AnyRealmValue>
}

/// A map of embedded objects.
final class SyncedNote: EmbeddedObject {
    @Persisted var text = ""
}

final class SyncedNotebook: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var notes: Map<String, SyncedNote?>
}

extension SyncTests {
    /// Sets and maps end to end (Docs/SyncDesign.md, "Sets and maps"): a
    /// register per member and key, last writer wins, a clear erases what
    /// the clearing client held, links wait for their objects.
    @Suite struct SyncedSetsAndMaps {
        typealias R = SyncedRealms

        static func configuration(_ user: SyncUser, _ url: URL) -> Realm.Configuration {
            Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: url), objectTypes: [SyncedBag.self, SyncTask.self])
        }

        /// Bag 1, described: its sets sorted, its maps by key.
        static func bag(_ configuration: Realm.Configuration) async throws -> String {
            try await offloaded {
                let realm = try Realm(configuration: configuration)
                guard let bag = realm.object(ofType: SyncedBag.self, forPrimaryKey: 1) else { return "no bag" }
                let tags = bag.tags.sorted().joined(separator: ",")
                let scores = bag.scores.keys.sorted().map { "\($0)=\(bag.scores[$0]!)" }.joined(separator: ",")
                let prices = bag.prices.map(\.canonicalText).sorted().joined(separator: ",")
                let tasks = bag.tasks.map(\.id).sorted().map(String.init).joined(separator: ",")
                let assignees = bag.assignees.keys.sorted().map { "\($0)=\(bag.assignees[$0]!.map { String($0.id) } ?? "nil")" }
                    .joined(separator: ",")
                return "tags[\(tags)] scores[\(scores)] prices[\(prices)] tasks[\(tasks)] assignees[\(assignees)]"
            }
        }

        @Test func setsAndMapsReachAnotherDeviceAndANewOne() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let (alice, bob, carol) = (try await R.register("alice", on: server), try await R.register("bob", on: server),
                                           try await R.register("carol", on: server))
                let url = R.realmURL(server, "/shared/bags")
                let (aliceConfig, bobConfig) = (Self.configuration(alice, url), Self.configuration(bob, url))
                try await R.write(aliceConfig) { realm in
                    let (one, two) = (SyncTask(value: ["id": 1, "title": "one"]), SyncTask(value: ["id": 2, "title": "two"]))
                    let bag = realm.create(SyncedBag.self, value: ["id": 1, "tags": ["a", "b"], "scores": ["x": 1, "y": 2]])
                    bag.prices.insert(try Decimal128(string: "1.50"))
                    bag.tasks.insert(objectsIn: [one, two])
                    bag.assignees["first"] = one
                    bag.assignees["none"] = .some(nil)
                }
                _ = try await Self.bag(bobConfig)
                let (aliceSession, bobSession) = (try #require(alice.session(for: url)), try #require(bob.session(for: url)))
                try await R.sync(aliceSession, to: bobSession)
                let expected = "tags[a,b] scores[x=1,y=2] prices[1.50] tasks[1,2] assignees[first=1,none=nil]"
                #expect(try await Self.bag(bobConfig) == expected)

                // Bob removes, replaces and erases; alice sees it.
                try await R.write(bobConfig) { realm in
                    let bag = realm.object(ofType: SyncedBag.self, forPrimaryKey: 1)!
                    bag.tags.remove("a")
                    bag.tags.insert("c")
                    bag.scores["x"] = 10
                    bag.scores.removeObject(for: "y")
                    bag.tasks.remove(realm.object(ofType: SyncTask.self, forPrimaryKey: 2)!)
                    bag.assignees["first"] = realm.object(ofType: SyncTask.self, forPrimaryKey: 2)
                }
                try await R.sync(bobSession, to: aliceSession)
                let changed = "tags[b,c] scores[x=10] prices[1.50] tasks[1] assignees[first=2,none=nil]"
                #expect(try await Self.bag(aliceConfig) == changed)

                // Deleting a task takes it out of the set, and leaves its
                // key with nil, on every replica.
                try await R.write(aliceConfig) { realm in realm.delete(realm.object(ofType: SyncTask.self, forPrimaryKey: 2)!) }
                try await R.sync(aliceSession, to: bobSession)
                let afterDeletion = "tags[b,c] scores[x=10] prices[1.50] tasks[1] assignees[first=nil,none=nil]"
                #expect(try await Self.bag(bobConfig) == afterDeletion)
                #expect(try await Self.bag(aliceConfig) == afterDeletion)

                // A new device gets the same from the server's state.
                let carolConfig = Self.configuration(carol, url)
                _ = try await Self.bag(carolConfig)
                try await #require(carol.session(for: url)).waitForDownload()
                #expect(try await Self.bag(carolConfig) == afterDeletion)
            }
        }

        @Test func concurrentOfflineChangesConvergeMemberByMember() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let (alice, bob) = (try await R.register("alice", on: server), try await R.register("bob", on: server))
                let url = R.realmURL(server, "/shared/offline-bags")
                let (aliceConfig, bobConfig) = (Self.configuration(alice, url), Self.configuration(bob, url))
                try await R.write(aliceConfig) { realm in
                    realm.create(SyncedBag.self, value: ["id": 1, "tags": ["a", "b"], "scores": ["x": 1, "y": 2, "z": 3]])
                    realm.create(SyncTask.self, value: ["id": 1, "title": "one"])
                }
                _ = try await Self.bag(bobConfig)
                let (aliceSession, bobSession) = (try #require(alice.session(for: url)), try #require(bob.session(for: url)))
                try await R.sync(aliceSession, to: bobSession)
                // Offline: alice clears the tags and sets x and z; bob, later,
                // adds a tag, sets x, erases z and adds decimal 2.50 where
                // alice adds 2.5 first.
                try await R.offline(.init(aliceSession, aliceConfig) { realm in
                    let bag = realm.object(ofType: SyncedBag.self, forPrimaryKey: 1)!
                    bag.tags.removeAll()
                    bag.scores["x"] = 100
                    bag.scores["z"] = 300
                    bag.prices.insert(try Decimal128(string: "2.5"))
                    bag.tasks.insert(realm.object(ofType: SyncTask.self, forPrimaryKey: 1)!)
                }, then: .init(bobSession, bobConfig) { realm in
                    let bag = realm.object(ofType: SyncedBag.self, forPrimaryKey: 1)!
                    bag.tags.insert("c")
                    bag.scores["x"] = 200
                    bag.scores.removeObject(for: "z")
                    bag.prices.insert(try Decimal128(string: "2.50"))
                    realm.delete(realm.object(ofType: SyncTask.self, forPrimaryKey: 1)!)
                })
                let aliceBag = try await Self.bag(aliceConfig)
                #expect(aliceBag == (try await Self.bag(bobConfig)), "the replicas converge")
                // The tag bob added unseen survives alice's clear; his later
                // writes of x and z win; the set's task is gone with it.
                #expect(aliceBag == "tags[c] scores[x=200,y=2] prices[2.50] tasks[] assignees[]")
            }
        }

        /// A map of embedded objects: each key's object travels with its
        /// owner; a replaced one goes whole, edits inside it with it.
        @Test func mapsOfEmbeddedObjectsTravelWithTheirOwner() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let (alice, bob, carol) = (try await R.register("alice", on: server), try await R.register("bob", on: server),
                                           try await R.register("carol", on: server))
                let url = R.realmURL(server, "/shared/notebooks")
                func configuration(_ user: SyncUser) -> Realm.Configuration {
                    Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: url),
                                        objectTypes: [SyncedNotebook.self, SyncedNote.self])
                }
                func notes(_ configuration: Realm.Configuration) async throws -> String {
                    try await offloaded {
                        let realm = try Realm(configuration: configuration)
                        guard let book = realm.object(ofType: SyncedNotebook.self, forPrimaryKey: 1) else { return "no notebook" }
                        let entries = book.notes.keys.sorted().map { "\($0)=\(book.notes[$0]!?.text ?? "nil")" }
                        return entries.joined(separator: ",")
                    }
                }
                let (aliceConfig, bobConfig) = (configuration(alice), configuration(bob))
                try await R.write(aliceConfig) { realm in
                    let book = realm.create(SyncedNotebook.self, value: ["id": 1])
                    book.notes["a"] = SyncedNote(value: ["text": "first"])
                    book.notes["b"] = SyncedNote(value: ["text": "second"])
                    book.notes["c"] = SyncedNote(value: ["text": "third"])
                }
                _ = try await notes(bobConfig)
                let (aliceSession, bobSession) = (try #require(alice.session(for: url)), try #require(bob.session(for: url)))
                try await R.sync(aliceSession, to: bobSession)
                #expect(try await notes(bobConfig) == "a=first,b=second,c=third")

                // Offline, bob edits note a while alice replaces it; bob
                // empties b and alice deletes c's object.
                try await R.offline(.init(bobSession, bobConfig) { realm in
                    let book = realm.object(ofType: SyncedNotebook.self, forPrimaryKey: 1)!
                    book.notes["a"]!!.text = "edited by bob"
                    book.notes["b"] = .some(nil)
                }, then: .init(aliceSession, aliceConfig) { realm in
                    let book = realm.object(ofType: SyncedNotebook.self, forPrimaryKey: 1)!
                    book.notes["a"] = SyncedNote(value: ["text": "replaced by alice"])
                    realm.delete(book.notes["c"]!!)
                })
                let converged = try await notes(aliceConfig)
                #expect(converged == (try await notes(bobConfig)), "the replicas converge")
                #expect(converged == "a=replaced by alice,b=nil,c=nil", "bob's edit went with the note alice replaced")

                // A new device gets the same from the server's state.
                let carolConfig = configuration(carol)
                _ = try await notes(carolConfig)
                try await #require(carol.session(for: url)).waitForDownload()
                #expect(try await notes(carolConfig) == converged)
            }
        }

        /// Mixed values travel typed, links with their class; a set of
        /// them holds the int 1 and the double 1.0 once, as RealmCore does.
        @Test func mixedValuesTravelTyped() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let (alice, bob, carol) = (try await R.register("alice", on: server), try await R.register("bob", on: server),
                                           try await R.register("carol", on: server))
                let url = R.realmURL(server, "/shared/mixed")
                func configuration(_ user: SyncUser) -> Realm.Configuration {
                    Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: url),
                                        objectTypes: [SyncedMixedBag.self, SyncTask.self])
                }
                func describe(_ configuration: Realm.Configuration) async throws -> String {
                    try await offloaded {
                        let realm = try Realm(configuration: configuration)
                        guard let bag = realm.object(ofType: SyncedMixedBag.self, forPrimaryKey: 1) else { return "no bag" }
                        func text(_ value: AnyRealmValue) -> String {
                            switch value {
                            case .object(let object): "task \((object as? SyncTask)?.id ?? -1)"
                            case .int(let number): "int \(number)"
                            case .double(let number): "double \(number)"
                            case .string(let string): "string \(string)"
                            case .none: "nil"
                            default: "\(value)"
                            }
                        }
                        let members = bag.bag.map(text).sorted().joined(separator: ",")
                        let entries = bag.dictionary.keys.sorted().map { "\($0)=\(text(bag.dictionary[$0]!))" }.joined(separator: ",")
                        return "anything[\(text(bag.anything))] bag[\(members)] dictionary[\(entries)]"
                    }
                }
                let (aliceConfig, bobConfig) = (configuration(alice), configuration(bob))
                try await R.write(aliceConfig) { realm in
                    let task = realm.create(SyncTask.self, value: ["id": 7, "title": "seven"])
                    let bag = realm.create(SyncedMixedBag.self, value: ["id": 1, "anything": AnyRealmValue.object(task)])
                    bag.bag.insert(objectsIn: [.int(1), .string("one"), .object(task)])
                    bag.dictionary["n"] = .double(2.5)
                    bag.dictionary["t"] = .object(task)
                }
                _ = try await describe(bobConfig)
                let (aliceSession, bobSession) = (try #require(alice.session(for: url)), try #require(bob.session(for: url)))
                try await R.sync(aliceSession, to: bobSession)
                #expect(try await describe(bobConfig) == "anything[task 7] bag[int 1,string one,task 7] dictionary[n=double 2.5,t=task 7]")

                // Offline: alice inserts the double 1.0 (one member with the
                // int 1 bob erases later) and sets anything; bob deletes the
                // task.
                try await R.offline(.init(aliceSession, aliceConfig) { realm in
                    let bag = realm.object(ofType: SyncedMixedBag.self, forPrimaryKey: 1)!
                    bag.anything = .string("from alice")
                    bag.bag.remove(.int(1))
                    bag.bag.insert(.double(1))
                }, then: .init(bobSession, bobConfig) { realm in
                    let bag = realm.object(ofType: SyncedMixedBag.self, forPrimaryKey: 1)!
                    bag.bag.remove(.int(1))
                    realm.delete(realm.object(ofType: SyncTask.self, forPrimaryKey: 7)!)
                })
                let converged = try await describe(aliceConfig)
                #expect(converged == (try await describe(bobConfig)), "the replicas converge")
                #expect(converged == "anything[string from alice] bag[string one] dictionary[n=double 2.5,t=nil]")

                let carolConfig = configuration(carol)
                _ = try await describe(carolConfig)
                try await #require(carol.session(for: url)).waitForDownload()
                #expect(try await describe(carolConfig) == converged)
            }
        }

        /// A list of mixed values converges as lists do, its elements
        /// typed; an element whose object is deleted stays, nil, as
        /// RealmCore and Realm leave it.
        @Test func listsOfMixedValuesConverge() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let (alice, bob, carol) = (try await R.register("alice", on: server), try await R.register("bob", on: server),
                                           try await R.register("carol", on: server))
                let url = R.realmURL(server, "/shared/mixed-lists")
                func configuration(_ user: SyncUser) -> Realm.Configuration {
                    Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: url),
                                        objectTypes: [SyncedMixedList.self, SyncTask.self])
                }
                func describe(_ configuration: Realm.Configuration) async throws -> String {
                    try await offloaded {
                        let realm = try Realm(configuration: configuration)
                        guard let list = realm.object(ofType: SyncedMixedList.self, forPrimaryKey: 1) else { return "no list" }
                        return list.values.map { value -> String in
                            switch value {
                            case .object(let object): "task \((object as? SyncTask)?.id ?? -1)"
                            case .int(let number): "int \(number)"
                            case .double(let number): "double \(number)"
                            case .string(let string): "string \(string)"
                            case .none: "nil"
                            default: "\(value)"
                            }
                        }.joined(separator: ",")
                    }
                }
                let (aliceConfig, bobConfig) = (configuration(alice), configuration(bob))
                try await R.write(aliceConfig) { realm in
                    let task = realm.create(SyncTask.self, value: ["id": 7, "title": "seven"])
                    let list = realm.create(SyncedMixedList.self, value: ["id": 1])
                    list.values.append(objectsIn: [.int(1), .string("two"), .object(task), .double(4.5)])
                }
                _ = try await describe(bobConfig)
                let (aliceSession, bobSession) = (try #require(alice.session(for: url)), try #require(bob.session(for: url)))
                try await R.sync(aliceSession, to: bobSession)
                #expect(try await describe(bobConfig) == "int 1,string two,task 7,double 4.5")

                // Offline: alice moves the task to the front and sets the
                // last element; bob deletes the task, inserts, and sets the
                // first element later than alice's write.
                try await R.offline(.init(aliceSession, aliceConfig) { realm in
                    let list = realm.object(ofType: SyncedMixedList.self, forPrimaryKey: 1)!
                    list.values.move(from: 2, to: 0)
                    list.values[3] = .string("from alice")
                }, then: .init(bobSession, bobConfig) { realm in
                    let list = realm.object(ofType: SyncedMixedList.self, forPrimaryKey: 1)!
                    realm.delete(realm.object(ofType: SyncTask.self, forPrimaryKey: 7)!)
                    list.values.insert(.int(9), at: 1)
                    list.values[0] = .string("from bob")
                })
                let converged = try await describe(aliceConfig)
                #expect(converged == (try await describe(bobConfig)), "the replicas converge")
                #expect(converged == "nil,string from bob,int 9,string two,string from alice")

                let carolConfig = configuration(carol)
                _ = try await describe(carolConfig)
                try await #require(carol.session(for: url)).waitForDownload()
                #expect(try await describe(carolConfig) == converged)
            }
        }

        /// Lists and dictionaries nested in mixed values converge
        /// (Docs/SyncDesign.md, "Nested collections"): edits inside them
        /// merge by the rules of lists and maps; a collection made anew
        /// replaces the one before, whose concurrent edits go with it.
        @Test func nestedCollectionsConverge() async throws {
            try await TestClient.run {
                let server = try await TestServer.start()
                defer { Task { await server.stop() } }
                let (alice, bob, carol) = (try await R.register("alice", on: server), try await R.register("bob", on: server),
                                           try await R.register("carol", on: server))
                let url = R.realmURL(server, "/shared/nested")
                func configuration(_ user: SyncUser) -> Realm.Configuration {
                    Realm.Configuration(syncConfiguration: SyncConfiguration(user: user, realmURL: url),
                                        objectTypes: [SyncedMixedBag.self, SyncTask.self])
                }
                @Sendable func text(_ value: AnyRealmValue) -> String {
                    switch value {
                    case .object(let object): "task \((object as? SyncTask)?.id ?? -1)"
                    case .int(let number): "\(number)"
                    case .string(let string): string
                    case .none: "nil"
                    case .list(let list): "[\(list.map(text).joined(separator: ","))]"
                    case .dictionary(let map): "{\(map.keys.sorted().map { "\($0):\(text(map[$0]!))" }.joined(separator: ","))}"
                    default: "\(value)"
                    }
                }
                func describe(_ configuration: Realm.Configuration) async throws -> String {
                    try await offloaded {
                        let realm = try Realm(configuration: configuration)
                        guard let bag = realm.object(ofType: SyncedMixedBag.self, forPrimaryKey: 1) else { return "no bag" }
                        return "anything \(text(bag.anything)) n \(bag.dictionary["n"].map(text) ?? "-")"
                    }
                }
                let (aliceConfig, bobConfig) = (configuration(alice), configuration(bob))
                try await R.write(aliceConfig) { realm in
                    let task = realm.create(SyncTask.self, value: ["id": 7, "title": "seven"])
                    let bag = realm.create(SyncedMixedBag.self, value: ["id": 1])
                    bag.anything = .fromArray([.int(1), .fromDictionary(["k": .string("v")])])
                    bag.dictionary["n"] = .fromArray([.object(task)])
                }
                _ = try await describe(bobConfig)
                let (aliceSession, bobSession) = (try #require(alice.session(for: url)), try #require(bob.session(for: url)))
                try await R.sync(aliceSession, to: bobSession)
                #expect(try await describe(bobConfig) == "anything [1,{k:v}] n [task 7]")

                // Offline: alice edits inside `anything`; bob edits inside
                // `n` and deletes the task its list links to.
                try await R.offline(.init(aliceSession, aliceConfig) { realm in
                    let bag = realm.object(ofType: SyncedMixedBag.self, forPrimaryKey: 1)!
                    bag.anything.listValue?.append(.int(2))
                    bag.anything.listValue?[1].dictionaryValue?["a"] = .int(1)
                }, then: .init(bobSession, bobConfig) { realm in
                    let bag = realm.object(ofType: SyncedMixedBag.self, forPrimaryKey: 1)!
                    bag.dictionary["n"]?.listValue?.append(.string("b"))
                    realm.delete(realm.object(ofType: SyncTask.self, forPrimaryKey: 7)!)
                })
                var converged = try await describe(aliceConfig)
                #expect(converged == (try await describe(bobConfig)), "the replicas converge")
                #expect(converged == "anything [1,{a:1,k:v},2] n [nil,b]")

                // Offline again: bob appends to `anything`'s list; alice,
                // later, makes `anything` a new list.
                try await R.offline(.init(bobSession, bobConfig) { realm in
                    realm.object(ofType: SyncedMixedBag.self, forPrimaryKey: 1)!.anything.listValue?.append(.int(3))
                }, then: .init(aliceSession, aliceConfig) { realm in
                    realm.object(ofType: SyncedMixedBag.self, forPrimaryKey: 1)!.anything = .fromArray([.string("alice")])
                })
                converged = try await describe(aliceConfig)
                #expect(converged == (try await describe(bobConfig)), "the replicas converge")
                #expect(converged == "anything [alice] n [nil,b]")

                let carolConfig = configuration(carol)
                _ = try await describe(carolConfig)
                try await #require(carol.session(for: url)).waitForDownload()
                #expect(try await describe(carolConfig) == converged)
            }
        }
    }
}
