import Foundation
import RealmObjects
import Testing

/// Key-path filtered notifications follow links, lists and backlinks.
@Suite struct KeyPathNotificationTests {
    private func setUp() throws -> (Realm, Person, Dog) {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let rex = Dog(value: ["name": "Rex", "age": 1])
        let jim = Person(value: ["name": "Jim"])
        try realm.write {
            realm.add(jim)
            jim.dogs.append(rex)
            rex.owner = jim
        }
        return (realm, jim, rex)
    }

    /// The modifications each commit reports, for collections observed with
    /// `keyPaths`.
    private func modifications<C>(_ observe: (@escaping (RealmCollectionChange<C>) -> Void) -> NotificationToken,
                                  realm: Realm, commits: [() -> Void]) throws -> [[Int]] {
        var seen: [[Int]] = []
        let token = observe { change in
            if case .update(_, _, _, let modified) = change { seen.append(modified) }
        }
        realm.refresh()
        for commit in commits {
            try realm.write { commit() }
            realm.refresh()
        }
        withExtendedLifetime(token) {}
        return seen
    }

    @Test func throughAList() throws {
        let (realm, _, rex) = try setUp()
        let people = realm.objects(Person.self)
        let seen = try modifications({ people.observe(keyPaths: ["dogs.name"], $0) }, realm: realm, commits: [
            { rex.age = 2 },          // not in the key paths
            { rex.name = "Max" },     // is
        ])
        #expect(seen == [[0]])
    }

    /// A change two links away counts though the class between was not
    /// touched (only the end of `owner.dogs.name` changed).
    @Test func throughALinkToAnUntouchedClass() throws {
        let (realm, jim, rex) = try setUp()
        let fido = Dog(value: ["name": "Fido"])
        try realm.write { jim.dogs.append(fido) }
        var changed: [String] = []
        let token = rex.observe(keyPaths: ["owner.dogs.name"]) { change in
            if case .change(let properties) = change { changed += properties.map(\.name) }
        }
        realm.refresh()
        try realm.write { fido.age = 4 }
        try realm.write { fido.name = "Fido II" }
        realm.refresh()
        #expect(changed == ["owner"])
        let dogs = realm.objects(Dog.self).filter("name == 'Rex'")
        let seen = try modifications({ dogs.observe(keyPaths: ["owner.dogs.name"], $0) }, realm: realm, commits: [
            { fido.age = 5 },
            { fido.name = "Fido III" },
        ])
        #expect(seen == [[0]])
        withExtendedLifetime(token) {}
    }

    /// Realm 10's Swift key paths name the same properties.
    @Test func swiftKeyPaths() throws {
        let (realm, jim, rex) = try setUp()
        let dogs = realm.objects(Dog.self)
        let throughLink = try modifications({ dogs.observe(keyPaths: [\Dog.owner?.name], $0) }, realm: realm, commits: [
            { jim.birthdate = Date(timeIntervalSince1970: 5) },
            { jim.name = "James" },
        ])
        #expect(throughLink == [[0]])
        let people = realm.objects(Person.self)
        let list = try modifications({ people.observe(keyPaths: [\Person.dogs], $0) }, realm: realm, commits: [
            { jim.name = "Jim" },
            { jim.dogs.append(Dog(value: ["name": "Fido"])) },
        ])
        #expect(list == [[0]])
        let owned = try modifications({ jim.dogs.observe(keyPaths: [\Dog.age], $0) }, realm: realm, commits: [
            { rex.name = "Max" },
            { rex.age = 7 },
        ])
        #expect(owned == [[0]])
        var changed: [String] = []
        let token = rex.observe(keyPaths: [\Dog.age]) { change in
            if case .change(let properties) = change { changed += properties.map(\.name) }
        }
        try realm.write { rex.name = "Rex" }
        try realm.write { rex.age = 8 }
        realm.refresh()
        #expect(changed == ["age"])
        withExtendedLifetime(token) {}
    }

    @Test func swiftKeyPathsOnSectionedResults() throws {
        let (realm, jim, rex) = try setUp()
        let sections = realm.objects(Dog.self).sectioned(by: \.name, ascending: true)
        var whole: [[IndexPath]] = []
        let wholeToken = sections.observe(keyPaths: [\Dog.owner?.name]) { change in
            if case .update(_, _, _, let modifications, _, _) = change { whole.append(modifications) }
        }
        var section: [[IndexPath]] = []
        let sectionToken = sections[0].observe(keyPaths: [\Dog.age]) { change in
            if case .update(_, _, _, let modifications, _, _) = change { section.append(modifications) }
        }
        realm.refresh()
        try realm.write { rex.age = 2 }
        realm.refresh()
        try realm.write { jim.name = "James" }
        realm.refresh()
        #expect(whole == [[IndexPath(item: 0, section: 0)]], "only the owner's name counts for the whole")
        #expect(section == [[IndexPath(item: 0, section: 0)]], "only the age counts for the section")
        withExtendedLifetime((wholeToken, sectionToken)) {}
    }

    @Test func swiftKeyPathsOnAnActor() async throws {
        let configuration = inMemoryConfiguration()
        let source = KeyPathSource(configuration: configuration)
        let log = KeyPathLog()
        try await source.observe(on: log)
        // `.initial` reflects the Realm when it is delivered: a write before
        // that would be in it, as in Realm.
        try await waitUntil { await log.notes == ["results initial"] }
        seedRunOnThread {
            let realm = try! Realm(configuration: configuration)
            let dog = realm.objects(Dog.self).first!
            try! realm.write { dog.name = "Max" }
            try! realm.write { dog.age = 9 }
        }
        try await waitUntil { await log.notes.count >= 3 }
        try await Task.sleep(for: .milliseconds(50))
        let notes = await log.notes.dropFirst()
        #expect(Set(notes) == ["results [0]", "dog [\"age\"]"], "the name change counts for neither")
        #expect(notes.count == 2)
        await source.stop()
    }

    @Test func throughAToOneLink() throws {
        let (realm, jim, _) = try setUp()
        let dogs = realm.objects(Dog.self)
        let seen = try modifications({ dogs.observe(keyPaths: ["owner.name"], $0) }, realm: realm, commits: [
            { jim.birthdate = Date(timeIntervalSince1970: 5) },
            { jim.name = "James" },
        ])
        #expect(seen == [[0]])
    }

    @Test func throughBacklinks() throws {
        let (realm, jim, _) = try setUp()
        let dogs = realm.objects(Dog.self)
        let seen = try modifications({ dogs.observe(keyPaths: ["owners.name"], $0) }, realm: realm, commits: [
            { jim.birthdate = Date(timeIntervalSince1970: 5) },
            { jim.name = "James" },
        ])
        #expect(seen == [[0]])
    }

    @Test func objectNotificationsThroughALink() throws {
        let (realm, jim, rex) = try setUp()
        var names: [[String]] = []
        let token = rex.observe(keyPaths: ["owner.name"]) { change in
            if case .change(let properties) = change { names.append(properties.map(\.name)) }
        }
        try realm.write { jim.birthdate = Date(timeIntervalSince1970: 5) }
        realm.refresh()
        try realm.write { jim.name = "James" }
        realm.refresh()
        #expect(names == [["owner"]])
        withExtendedLifetime(token) {}
    }

    /// A key path that ends at a link names the link only: a change inside
    /// the linked object does not count (Realm's `linkCol`), a change of the
    /// link does.
    @Test func aKeyPathEndingAtALinkIgnoresChangesInsideIt() throws {
        let (realm, jim, rex) = try setUp()
        let dogs = realm.objects(Dog.self)
        let ann = try realm.write { realm.create(Person.self, value: ["name": "Ann"]) }
        let seen = try modifications({ dogs.observe(keyPaths: ["owner"], $0) }, realm: realm, commits: [
            { jim.name = "James" },   // inside the linked object
            { rex.owner = ann },      // the link itself
        ])
        #expect(seen == [[0]])
        let people = realm.objects(Person.self)
        let listSeen = try modifications({ people.observe(keyPaths: ["dogs"], $0) }, realm: realm, commits: [
            { rex.name = "Max" },     // inside an element
            { jim.dogs.append(realm.create(Dog.self, value: ["name": "Fido"])) },
        ])
        #expect(listSeen == [[0]])
        // "dogs" with "dogs.name" observes both.
        let bothSeen = try modifications({ people.observe(keyPaths: ["dogs", "dogs.name"], $0) }, realm: realm, commits: [
            { rex.age = 7 },
            { rex.name = "Rex" },
        ])
        #expect(bothSeen == [[0]])
        var names: [[String]] = []
        let token = rex.observe(keyPaths: ["owner"]) { change in
            if case .change(let properties) = change { names.append(properties.map(\.name)) }
        }
        try realm.write { ann.name = "Anne" }
        realm.refresh()
        try realm.write { rex.owner = jim }
        realm.refresh()
        #expect(names == [["owner"]])
        withExtendedLifetime(token) {}
    }

    /// A key path through linking objects fires when a new link arrives, as
    /// Realm's backlink columns do.
    @Test func aNewLinkFiresALinkingObjectsKeyPath() throws {
        let (realm, _, _) = try setUp()
        let fido = try realm.write { realm.create(Dog.self, value: ["name": "Fido"]) }
        let dogs = realm.objects(Dog.self)
        for keyPath in ["owners", "owners.name"] {
            let ann = try realm.write { realm.create(Person.self, value: ["name": "Ann-\(keyPath)"]) }
            let seen = try modifications({ dogs.observe(keyPaths: [keyPath], $0) }, realm: realm, commits: [
                { ann.dogs.append(fido) },
                { realm.create(Person.self, value: ["name": "Bob", "dogs": [fido]]) },
            ])
            #expect(seen == [[1], [1]], "\(keyPath)")
        }
        var names: [[String]] = []
        let token = fido.observe(keyPaths: ["owners"]) { change in
            if case .change(let properties) = change { names.append(properties.map(\.name)) }
        }
        try realm.write { realm.create(Person.self, value: ["name": "Cy", "dogs": [fido]]) }
        realm.refresh()
        #expect(names == [["owners"]])
        withExtendedLifetime(token) {}
    }

    /// Realm refuses a key path the class does not have when observing
    /// begins, not when a change arrives.
    @Test func anUnknownKeyPathStopsWhenObservingBegins() async {
        await #expect(processExitsWith: .failure) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "unknown-key-path"))
            let rex = try! realm.write { realm.create(Dog.self, value: ["name": "Rex"]) }
            let token = rex.observe(keyPaths: ["noSuchProperty"]) { _ in }
            // Not reached: no change is ever made.
            withExtendedLifetime(token) {}
            exit(0)
        }
        await #expect(processExitsWith: .failure) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "unknown-key-path"))
            try! realm.write { realm.create(Dog.self, value: ["name": "Rex"]) }
            let token = realm.objects(Dog.self).observe(keyPaths: ["owner.noSuchProperty"]) { _ in }
            withExtendedLifetime(token) {}
            exit(0)
        }
        // A class the file does not have yet: the model's schema tells.
        await #expect(processExitsWith: .failure) {
            let realm = try! Realm(configuration: Realm.Configuration(inMemoryIdentifier: "unknown-key-path-new-class"))
            let token = realm.objects(Dog.self).observe(keyPaths: ["noSuchProperty"]) { _ in }
            withExtendedLifetime(token) {}
            exit(0)
        }
        // Known key paths of a class not in the file yet are accepted.
        let realm = try! realmOnThisThread(Realm.Configuration(inMemoryIdentifier: "known-key-path-new-class-\(UUID())"))
        let token = realm.objects(Dog.self).observe(keyPaths: ["name", "owner.name", "owners"]) { _ in }
        token.invalidate()
    }

    /// realm-swift's testObserveKeyPathOnDifferentQueue, in both spellings.
    @Test func keyPathsOnAQueue() throws {
        let directory = TemporaryDirectory()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file()))
        let object = try realm.write { realm.create(AllTypes.self, value: ["int": 1]) }
        let queue = DispatchQueue(label: "key paths")
        for spelling in 0..<2 {
            let seen = Locked<[String]>([])
            let done = DispatchSemaphore(value: 0)
            let block: (ObjectChange<AllTypes>) -> Void = { change in
                if case .change(let changes) = change {
                    seen.value = changes.properties.map { "\($0.name) \($0.oldValue as? Int ?? -1) \($0.newValue as? Int ?? -1)" }
                }
                done.signal()
            }
            let token = spelling == 0
                ? object.observe(keyPaths: ["int"], on: queue, block)
                : object.observe(on: queue, keyPaths: ["int"], block)
            queue.sync {}
            try realm.write {
                object.string = "not observed"
                object.int = spelling + 2
            }
            #expect(done.wait(timeout: .now() + 10) == .success)
            #expect(seen.value == ["int \(spelling + 1) \(spelling + 2)"])
            token.invalidate()
            queue.sync {}
        }
    }
}

/// What notifications delivered on it noted.
private actor KeyPathLog {
    private(set) var notes: [String] = []

    func note(_ text: String) { notes.append(text) }
}

/// An actor whose Realm's dogs another actor observes, with Swift key paths.
private actor KeyPathSource {
    let configuration: Realm.Configuration
    private var tokens: [NotificationToken] = []

    init(configuration: Realm.Configuration) {
        self.configuration = configuration
    }

    func observe(on log: KeyPathLog) async throws {
        let realm = try await Realm(configuration: configuration, actor: self)
        let dog = try await realm.asyncWrite { realm.create(Dog.self, value: ["name": "Rex", "age": 1]) }
        tokens.append(await realm.objects(Dog.self).observe(keyPaths: [\Dog.age], on: log) { log, change in
            switch change {
            case .initial: log.note("results initial")
            case .update(_, _, _, let modifications): log.note("results \(modifications)")
            case .error: break
            }
        })
        tokens.append(await dog.observe(keyPaths: [\Dog.age], on: log) { log, change in
            if case .change(let properties) = change { log.note("dog \(properties.map(\.name))") }
        })
    }

    func stop() {
        for token in tokens { token.invalidate() }
        tokens = []
    }
}
