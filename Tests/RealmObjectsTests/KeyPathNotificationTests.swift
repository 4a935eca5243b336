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
}
