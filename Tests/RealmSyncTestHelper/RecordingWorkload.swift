import RealmCore

/// The writes of the recording crash test: each step adds a dog, renames
/// an older one, moves dogs in a list, and now and then deletes one.
enum RecordingWorkload {
    static let schema = Schema([
        ObjectSchema(name: "Kennel", properties: [
            Property(name: "id", type: .int, isPrimaryKey: true),
            Property(name: "dogs", type: .object, isList: true, objectClassName: "Dog"),
        ]),
        ObjectSchema(name: "Dog", properties: [
            Property(name: "name", type: .string),
            Property(name: "step", type: .int),
        ]),
    ])

    static func step(_ step: Int, _ transaction: Transaction) throws(RealmError) {
        let kennels = try transaction.classHandle(named: "Kennel")
        let dogs = try transaction.classHandle(named: "Dog")
        var kennel = try transaction.object(withPrimaryKey: .int(1), in: kennels)
        if kennel == nil { kennel = try transaction.createObject(in: kennels, values: [.int(1)]) }
        guard let kennel else { return }
        let list = try transaction.list(1, of: kennel, in: kennels)
        let dog = try transaction.createObject(in: dogs, values: [.string("dog \(step)"), .int(Int64(step))])
        try transaction.append(.object(dog), to: list)
        let count = try transaction.count(of: list)
        if count > 2 {
            try transaction.move(from: 0, to: count - 1, in: list)
            if case .object(let older) = try transaction.value(at: 0, in: list) {
                try transaction.setValue(.string("renamed at \(step)"), of: older, property: 0, in: dogs)
                if step % 5 == 0 { try transaction.deleteObject(older, in: dogs) }
            }
        }
    }
}
