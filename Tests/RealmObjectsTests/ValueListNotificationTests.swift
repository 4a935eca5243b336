import Foundation
import RealmObjects
import Testing

final class ValueListHolder: Object {
    @Persisted var numbers: List<Int?>
}

/// Notifications of lists of values come from the change sets' record of
/// the operations, as realm-core's do: equal values (nils, repeats) get
/// the indexes written, and an element set to the value it held is a
/// modification.
@Suite struct ValueListNotificationTests {
    let directory = TemporaryDirectory()

    private func realm(_ name: String = "test.realm") throws -> Realm {
        try Realm(configuration: Realm.Configuration(fileURL: directory.file(name), objectTypes: [ValueListHolder.self]))
    }

    /// The updates the list reported across `writes`, delivered once after
    /// all of them (each write a commit of its own, from another Realm).
    private func changes(initial: [Int?], _ writes: [@Sendable (List<Int?>) -> Void])
        throws -> [(deletions: [Int], insertions: [Int], modifications: [Int])] {
        let realm = try realm(UUID().uuidString)
        let holder = ValueListHolder()
        holder.numbers.append(objectsIn: initial)
        try realm.write { realm.add(holder) }
        var updates: [(deletions: [Int], insertions: [Int], modifications: [Int])] = []
        let token = holder.numbers.observe { change in
            if case .update(_, let deletions, let insertions, let modifications) = change { updates.append((deletions, insertions, modifications)) }
        }
        defer { token.invalidate() }
        realm.refresh()
        // On another thread, so that the commits all wait for one delivery.
        let configuration = realm.configuration
        seedRunOnThread {
            let other = try! Realm(configuration: configuration)
            let list = other.objects(ValueListHolder.self).first!.numbers
            for write in writes { try! other.write { write(list) } }
        }
        realm.refresh()
        return updates
    }

    @Test func anElementSetToItsValueIsAModification() throws {
        let updates = try changes(initial: [1, 2, 3], [{ $0[1] = 2 }])
        #expect(updates.count == 1)
        #expect(updates.first?.modifications == [1] && updates.first?.deletions == [] && updates.first?.insertions == [])
    }

    @Test func nilsAreTheOnesWritten() throws {
        let insertion = try changes(initial: [nil, nil, 1], [{ $0.insert(nil, at: 0) }])
        #expect(insertion.first?.insertions == [0] && insertion.first?.deletions == [] && insertion.first?.modifications == [])
        let replacement = try changes(initial: [nil, 5, nil], [{ $0[2] = 7 }])
        #expect(replacement.count == 1, "\(replacement)")
        #expect(replacement.first?.modifications == [2] && replacement.first?.deletions == [] && replacement.first?.insertions == [])
    }

    @Test func commitsDeliveredTogetherCompose() throws {
        let updates = try changes(initial: [1, 2, 3, 4], [
            { $0.append(5) },           // [1, 2, 3, 4, 5]
            { $0.remove(at: 0) },       // [2, 3, 4, 5]
            { $0[0] = 20 },             // [20, 3, 4, 5]
            { $0.move(from: 3, to: 1) } // [20, 5, 3, 4]
        ])
        #expect(updates.count == 1)
        let update = try #require(updates.first)
        // 1 deleted; 2 (old index 1) replaced at new index 0; 3 and 4 kept;
        // 5 is new, wherever it moved.
        #expect(update.deletions == [0])
        #expect(update.insertions == [1])
        #expect(update.modifications == [0])
    }

    @Test func aMoveIsADeletionAndAnInsertion() throws {
        let updates = try changes(initial: [1, 1, 1], [{ $0.move(from: 0, to: 2) }])
        #expect(updates.first?.deletions == [0] && updates.first?.insertions == [2])
    }

    @Test func theOwnerDeletedEmptiesTheList() throws {
        let realm = try realm()
        let holder = ValueListHolder()
        holder.numbers.append(objectsIn: [1, nil])
        try realm.write { realm.add(holder) }
        let list = holder.numbers
        var deletions: [Int] = []
        let token = list.observe { change in
            if case .update(_, let deleted, _, _) = change { deletions = deleted }
        }
        defer { token.invalidate() }
        realm.refresh()
        try realm.write { realm.delete(holder) }
        realm.refresh()
        #expect(deletions == [0, 1])
    }
}
