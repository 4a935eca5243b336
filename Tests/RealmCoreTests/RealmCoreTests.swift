import Foundation
import RealmCore
import Testing

@Suite struct SmokeTests {
    @Test func createReadUpdateDelete() throws {
        let directory = TemporaryDirectory()
        let coordinator = try openCoordinator(directory)
        let transaction = try coordinator.makeTransaction()
        let dogs = try transaction.classHandle(named: "Dog")
        let people = try transaction.classHandle(named: "Person")
        try transaction.beginWrite()
        let rex = try transaction.createObject(in: dogs, values: [.string("Rex"), .int(3)])
        let person = try transaction.createObject(in: people, values: [.int(1), .string("Tim")])
        let list = try transaction.list(2, of: person, in: people)
        try transaction.append(.object(rex), to: list)
        try transaction.setValue(.object(person), of: rex, property: 2, in: dogs)
        let changes = try transaction.commitWrite()
        #expect(changes.classes["Dog"]?.insertions.count == 1)
        #expect(try transaction.value(of: rex, property: 0, in: dogs) == .string("Rex"))
        #expect(try transaction.count(of: list) == 1)
        #expect(try transaction.linkingObjects(to: rex, from: people, property: 2) == [person])
        try transaction.write {
            try transaction.deleteObject(rex, in: dogs)
        }
        #expect(try transaction.count(of: list) == 0)
        #expect(try transaction.count(of: dogs) == 0)
    }
}
