import Foundation
import RealmObjects
import Testing

/// Seed 000's table-view samples, run against a table model that behaves
/// like `UITableView`'s batch updates: the rows a notification does not
/// name keep what they showed, so only exact changes keep the table equal
/// to a fresh query.
@Suite struct TableViewSampleTests {
    /// A stand-in for `UITableView`: rows of text, drawn from a data source.
    final class TableView {
        private(set) var rows: [String] = []
        let cell: (Int) -> String
        let rowCount: () -> Int
        private var updating = false

        init(rowCount: @escaping () -> Int, cell: @escaping (Int) -> String) {
            self.rowCount = rowCount
            self.cell = cell
        }

        func reloadData() { rows = (0..<rowCount()).map(cell) }
        func beginUpdates() { updating = true }
        func endUpdates() {
            updating = false
            // UITableView checks that the rows add up after a batch.
            precondition(rows.count == rowCount(), "The number of rows after the update (\(rows.count)) does not match the data source (\(rowCount())).")
        }
        // Deletions are indices before the batch, insertions and reloads
        // after it; UIKit applies deletions first, then insertions.
        private var pendingInsertions: [Int] = []
        func insertRows(at indexes: [Int]) {
            precondition(updating)
            pendingInsertions = indexes
        }
        func deleteRows(at indexes: [Int]) {
            precondition(updating)
            for index in indexes.sorted(by: >) { rows.remove(at: index) }
            for index in pendingInsertions.sorted() { rows.insert(cell(index), at: index) }
            pendingInsertions = []
        }
        func reloadRows(at indexes: [Int]) {
            precondition(updating)
            for index in indexes { rows[index] = cell(index) }
        }
    }

    static func describe(_ person: Person) -> String {
        "\(person.name) \(person.age.value ?? -1) [\(person.dogs.map { "\($0.name):\($0.age)" }.joined(separator: ","))]"
    }

    /// The "Collection notifications" sample, with random writes: after
    /// each, the table shows exactly what a fresh query shows.
    @Test func theTableFollowsRandomWrites() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let results = realm.objects(Person.self).filter("age > 5")
        let tableView = TableView(rowCount: { results.count }, cell: { Self.describe(results[$0]) })
        var notificationToken: NotificationToken? = nil
        notificationToken = results.observe { (changes: RealmCollectionChange) in
            switch changes {
            case .initial:
                tableView.reloadData()
            case .update(_, let deletions, let insertions, let modifications):
                tableView.beginUpdates()
                tableView.insertRows(at: insertions)
                tableView.deleteRows(at: deletions)
                tableView.reloadRows(at: modifications)
                tableView.endUpdates()
            case .error(let error):
                fatalError("\(error)")
            }
        }
        var seed: UInt64 = 7
        func random(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        for round in 0..<200 {
            try realm.write {
                let people = realm.objects(Person.self)
                let dogs = realm.objects(Dog.self)
                switch people.isEmpty ? 0 : random(7) {
                case 0:
                    let person = Person(value: ["name": "p\(round)"])
                    person.age.value = random(12)
                    realm.add(person)
                case 1:
                    people[random(people.count)].age.value = random(12)          // may enter or leave
                case 2:
                    people[random(people.count)].name = "renamed\(round)"         // a modification
                case 3:
                    people[random(people.count)].dogs.append(Dog(value: ["name": "d\(round)", "age": random(10)]))
                case 4 where !dogs.isEmpty:
                    dogs[random(dogs.count)].age = random(10)                    // through the list
                case 5:
                    let person = people[random(people.count)]
                    if !person.dogs.isEmpty { person.dogs.remove(at: 0) }
                default:
                    realm.delete(people[random(people.count)])
                }
            }
            realm.refresh()
            let fresh = realm.objects(Person.self).filter("age > 5").map(Self.describe)
            #expect(tableView.rows == fresh, "round \(round)")
            if tableView.rows != fresh { break }
        }
        notificationToken?.invalidate()
    }

    /// The "Interface-driven writes" sample: the row is inserted in the
    /// table at once, and the notification does not insert it again.
    @Test func interfaceDrivenWritesAreNotAppliedTwice() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        let owner = Person(value: ["name": "owner"])
        try realm.write { realm.add(owner) }
        let collection = owner.dogs
        let tableView = TableView(rowCount: { collection.count }, cell: { "\(collection[$0].name)" })
        var token: NotificationToken!
        token = collection.observe { changes in
            switch changes {
            case .initial:
                tableView.reloadData()
            case .update(_, let deletions, let insertions, let modifications):
                tableView.beginUpdates()
                tableView.insertRows(at: insertions)
                tableView.deleteRows(at: deletions)
                tableView.reloadRows(at: modifications)
                tableView.endUpdates()
            case .error:
                ()
            }
        }
        func insertItem(_ name: String) throws {
            collection.realm!.beginWrite()
            collection.insert(Dog(value: ["name": name, "age": 1]), at: 0)
            tableView.beginUpdates()
            tableView.insertRows(at: [0])
            tableView.deleteRows(at: [])
            tableView.endUpdates()
            try collection.realm!.commitWrite(withoutNotifying: [token])
        }
        try insertItem("first")
        try insertItem("second")
        realm.refresh()
        #expect(tableView.rows == ["second", "first"])
        // Other writes still arrive.
        try realm.write { collection.append(Dog(value: ["name": "third", "age": 3])) }
        realm.refresh()
        #expect(tableView.rows == ["second", "first", "third"])
        token.invalidate()
    }
}
