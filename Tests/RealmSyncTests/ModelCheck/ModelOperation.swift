import Foundation
import RealmCore

/// One write transaction of the model checker: a change of one kind,
/// finding what it changes by content (a person by primary key, a dog by
/// name), and doing nothing when it is gone. `client` (1, 2, 3) makes the
/// values each client writes different.
struct ModelOperation: CustomStringConvertible, Sendable {
    let name: String
    let body: @Sendable (ModelReplica, Int) throws -> Void

    var description: String { name }

    typealias P = ModelReplica.PersonProperty
    typealias D = ModelReplica.DogProperty

    /// The state every history starts from, written by a replica of its
    /// own: Ana (1) with a home (with a detail), dogs Rex and Fido, tags
    /// a, b, c, two past addresses, her best dog Rex and her friend Bo; Bo
    /// (2); Rex owned by Ana; Fido; Max, in no list.
    static let seed = ModelOperation(name: "seed") { r, _ in
        let t = r.transaction
        let people = try r.people, dogs = try r.dogs
        let ana = try t.createObject(in: people, values: [.int(1), .string("Ana")])
        _ = try t.createObject(in: people, values: [.int(2), .string("Bo")])
        let rex = try t.createObject(in: dogs, values: [.string("Rex"), .int(3), .object(ana)])
        let fido = try t.createObject(in: dogs, values: [.string("Fido"), .int(5)])
        _ = try t.createObject(in: dogs, values: [.string("Max"), .int(7)])
        let home = try t.createEmbeddedObject(in: people, owner: ana, property: P.home, values: [.string("Main")])
        _ = try t.createEmbeddedObject(in: try r.addresses, owner: home, property: 1, values: [.string("n0")])
        let list = try t.list(P.dogs, of: ana, in: people)
        try t.append(.object(rex), to: list)
        try t.append(.object(fido), to: list)
        let tags = try t.list(P.tags, of: ana, in: people)
        for tag in ["a", "b", "c"] { try t.append(.string(tag), to: tags) }
        let past = try t.list(P.past, of: ana, in: people)
        _ = try t.appendEmbeddedObject(to: past, values: [.string("Old1")])
        _ = try t.appendEmbeddedObject(to: past, values: [.string("Old2")])
        try t.setValue(.object(rex), of: ana, property: P.best, in: people)
        // Ana's friends: Bo, a primary-key object in a list (Bo made again
        // has the same local key, and is another object).
        if let bo = try r.person(2) { try t.append(.object(bo), to: try t.list(P.friends, of: ana, in: people)) }
        // Ana's sets and maps: pets {Rex}, labels {a, b}, scores {j: 1,
        // k: 0}, walkers {w: Fido}.
        try t.insert(.object(rex), intoSet: ListHandle(owningClass: people, owner: ana, property: P.pets))
        let labels = ListHandle(owningClass: people, owner: ana, property: P.labels)
        for label in ["a", "b"] { try t.insert(.string(label), intoSet: labels) }
        let scores = ListHandle(owningClass: people, owner: ana, property: P.scores)
        try t.setValue(.int(1), forKey: "j", in: scores)
        try t.setValue(.int(0), forKey: "k", in: scores)
        try t.setValue(.object(fido), forKey: "w", in: ListHandle(owningClass: people, owner: ana, property: P.walkers))
        _ = try t.setEmbeddedObject(forKey: "h", in: ListHandle(owningClass: people, owner: ana, property: P.homes), values: [.string("Hm")])
        // Ana's mixed values: any "seed", bag {"s"}, anyMap {m: 0}.
        try t.setValue(.string("seed"), of: ana, property: P.any, in: people)
        try t.insert(.string("s"), intoSet: ListHandle(owningClass: people, owner: ana, property: P.bag))
        try t.setValue(.int(0), forKey: "m", in: ListHandle(owningClass: people, owner: ana, property: P.anyMap))
        // Ana's list of mixed values: ["z", Rex].
        let anyList = try t.list(P.anyList, of: ana, in: people)
        try t.append(.string("z"), to: anyList)
        try t.append(.link(className: "Dog", key: rex), to: anyList)
        // Ana's nested collections: nest ["s", {k: 0}].
        let nest = try t.setNestedCollection(.list, of: ana, property: P.nest, in: people)
        try t.append(.string("s"), to: nest)
        try t.setValue(.int(0), forKey: "k", in: try t.insertNestedCollection(.dictionary, at: 1, in: nest))
    }

    // MARK: The palette

    /// Every kind of change, on objects, primary keys, embedded objects,
    /// links, lists of objects, of values and of embedded objects.
    static let all: [ModelOperation] = [
        // Properties and objects.
        op("rename") { r, c in try r.setPerson(1, P.name, .string("n\(c)")) },
        op("nickname") { r, c in try r.setPerson(1, P.nickname, .string("k\(c)")) },
        op("deleteAna") { r, _ in if let ana = try r.person(1) { try r.transaction.deleteObject(ana, in: try r.people) } },
        op("deleteBo") { r, _ in if let bo = try r.person(2) { try r.transaction.deleteObject(bo, in: try r.people) } },
        op("recreateBo") { r, c in
            if let bo = try r.person(2) { try r.transaction.deleteObject(bo, in: try r.people) }
            _ = try r.transaction.createObject(in: try r.people, values: [.int(2), .string("r\(c)")])
        },
        op("createCy") { r, c in
            if try r.person(3) == nil { _ = try r.transaction.createObject(in: try r.people, values: [.int(3), .string("c\(c)")]) }
        },
        op("createCyDefaults") { r, c in
            // Its name is the default; its nickname is set.
            if try r.person(3) == nil { _ = try r.transaction.createObject(in: try r.people, values: [.int(3), .string(""), .string("k\(c)")]) }
        },
        op("deleteRex") { r, _ in if let rex = try r.dog("Rex") { try r.transaction.deleteObject(rex, in: try r.dogs) } },
        op("deleteFido") { r, _ in if let fido = try r.dog("Fido") { try r.transaction.deleteObject(fido, in: try r.dogs) } },
        op("deleteAllDogs") { r, _ in try r.transaction.deleteAllObjects(in: try r.dogs) },
        op("ageRex") { r, c in if let rex = try r.dog("Rex") { try r.transaction.setValue(.int(Int64(10 + c)), of: rex, property: D.age, in: try r.dogs) } },
        // Links.
        op("rexToBo") { r, _ in
            if let rex = try r.dog("Rex") { try r.transaction.setValue(try r.person(2).map { .object($0) } ?? .null, of: rex, property: D.owner, in: try r.dogs) }
        },
        op("bestFido") { r, _ in if let fido = try r.dog("Fido") { try r.setPerson(1, P.best, .object(fido)) } },
        op("bestNone") { r, _ in try r.setPerson(1, P.best, .null) },
        // Embedded objects.
        op("setHome") { r, c in
            if let ana = try r.person(1) { _ = try r.transaction.createEmbeddedObject(in: try r.people, owner: ana, property: P.home, values: [.string("h\(c)")]) }
        },
        op("setHomeWithDetail") { r, c in
            if let ana = try r.person(1) {
                let home = try r.transaction.createEmbeddedObject(in: try r.people, owner: ana, property: P.home, values: [.string("h\(c)")])
                _ = try r.transaction.createEmbeddedObject(in: try r.addresses, owner: home, property: 1, values: [.string("d\(c)")])
            }
        },
        op("clearHome") { r, _ in try r.setPerson(1, P.home, .null) },
        op("editHome") { r, c in if let home = try r.home() { try r.transaction.setValue(.string("s\(c)"), of: home, property: 0, in: try r.addresses) } },
        op("editDetail") { r, c in
            guard let home = try r.home() else { return }
            if case .object(let detail) = try r.transaction.value(of: home, property: 1, in: try r.addresses) {
                try r.transaction.setValue(.string("e\(c)"), of: detail, property: 0, in: try r.details)
            } else {
                _ = try r.transaction.createEmbeddedObject(in: try r.addresses, owner: home, property: 1, values: [.string("e\(c)")])
            }
        },
        op("deleteHomeObject") { r, _ in if let home = try r.home() { try r.transaction.deleteObject(home, in: try r.addresses) } },
        // A list of objects.
        op("newDogInList") { r, c in
            guard let dogs = try r.list(P.dogs, of: 1) else { return }
            let dog = try r.transaction.createObject(in: try r.dogs, values: [.string("d\(c)"), .int(1)])
            try r.transaction.append(.object(dog), to: dogs)
        },
        op("insertMax") { r, _ in
            if let dogs = try r.list(P.dogs, of: 1), let max = try r.dog("Max") { try r.transaction.insert(.object(max), at: 0, in: dogs) }
        },
        op("moveDogs") { r, _ in try r.withList(P.dogs) { t, list, count in if count > 1 { try t.move(from: 0, to: count - 1, in: list) } } },
        op("removeDog") { r, _ in try r.withList(P.dogs) { t, list, count in if count > 0 { try t.remove(at: 0, from: list) } } },
        op("setDogMax") { r, _ in
            guard let max = try r.dog("Max") else { return }
            try r.withList(P.dogs) { t, list, count in if count > 0 { try t.replace(at: 0, with: .object(max), in: list) } }
        },
        op("clearDogs") { r, _ in try r.withList(P.dogs) { t, list, _ in try t.removeAll(from: list) } },
        op("befriendBo") { r, _ in
            if let bo = try r.person(2) { try r.withList(P.friends) { t, list, _ in try t.insert(.object(bo), at: 0, in: list) } }
        },
        // A list of values.
        op("insertTag") { r, c in try r.withList(P.tags) { t, list, count in try t.insert(.string("t\(c)"), at: min(1, count), in: list) } },
        op("moveTags") { r, _ in try r.withList(P.tags) { t, list, count in if count > 1 { try t.move(from: 0, to: count - 1, in: list) } } },
        op("removeTag") { r, _ in try r.withList(P.tags) { t, list, count in if count > 0 { try t.remove(at: min(1, count - 1), from: list) } } },
        op("setTag") { r, c in try r.withList(P.tags) { t, list, count in if count > 0 { try t.replace(at: 0, with: .string("u\(c)"), in: list) } } },
        op("swapTags") { r, _ in try r.withList(P.tags) { t, list, count in if count > 1 { try t.swapAt(0, count - 1, in: list) } } },
        op("clearTags") { r, _ in try r.withList(P.tags) { t, list, _ in try t.removeAll(from: list) } },
        // A list of embedded objects.
        op("insertPast") { r, c in
            try r.withList(P.past) { t, list, _ in _ = try t.insertEmbeddedObject(at: 0, in: list, values: [.string("p\(c)")]) }
        },
        op("editPast") { r, c in
            try r.withList(P.past) { t, list, count in
                guard count > 0, case .object(let first) = try t.values(of: list)[0] else { return }
                try t.setValue(.string("q\(c)"), of: first, property: 0, in: try r.addresses)
            }
        },
        op("movePast") { r, _ in try r.withList(P.past) { t, list, count in if count > 1 { try t.move(from: 0, to: count - 1, in: list) } } },
        op("removePast") { r, _ in try r.withList(P.past) { t, list, count in if count > 0 { try t.remove(at: 0, from: list) } } },
        op("deletePastObject") { r, _ in
            try r.withList(P.past) { t, list, count in
                guard count > 0, case .object(let first) = try t.values(of: list)[0] else { return }
                try t.deleteObject(first, in: try r.addresses)
            }
        },
        op("clearPast") { r, _ in try r.withList(P.past) { t, list, _ in try t.removeAll(from: list) } },
    ]

    /// Every kind of change of sets and maps, of values, of objects and of
    /// embedded objects.
    static let collections: [ModelOperation] = [
        // A set of objects.
        op("petRex") { r, _ in if let rex = try r.dog("Rex") { try r.withCollection(P.pets) { t, set in try t.insert(.object(rex), intoSet: set) } } },
        op("petMax") { r, _ in if let max = try r.dog("Max") { try r.withCollection(P.pets) { t, set in try t.insert(.object(max), intoSet: set) } } },
        op("unpetRex") { r, _ in if let rex = try r.dog("Rex") { try r.withCollection(P.pets) { t, set in try t.remove(.object(rex), fromSet: set) } } },
        op("clearPets") { r, _ in try r.withCollection(P.pets) { t, set in try t.removeAll(fromSet: set) } },
        // A set of values: a member of each client's, one all share.
        op("addLabel") { r, c in try r.withCollection(P.labels) { t, set in try t.insert(.string("l\(c)"), intoSet: set) } },
        op("addLabelX") { r, _ in try r.withCollection(P.labels) { t, set in try t.insert(.string("x"), intoSet: set) } },
        op("removeLabelA") { r, _ in try r.withCollection(P.labels) { t, set in try t.remove(.string("a"), fromSet: set) } },
        op("removeLabelX") { r, _ in try r.withCollection(P.labels) { t, set in try t.remove(.string("x"), fromSet: set) } },
        op("clearLabels") { r, _ in try r.withCollection(P.labels) { t, set in try t.removeAll(fromSet: set) } },
        // A map of values.
        op("scoreK") { r, c in try r.withCollection(P.scores) { t, map in try t.setValue(.int(Int64(10 + c)), forKey: "k", in: map) } },
        op("scoreNew") { r, c in try r.withCollection(P.scores) { t, map in try t.setValue(.int(Int64(c)), forKey: "n\(c)", in: map) } },
        op("unscoreK") { r, _ in try r.withCollection(P.scores) { t, map in try t.removeValue(forKey: "k", from: map) } },
        op("clearScores") { r, _ in try r.withCollection(P.scores) { t, map in try t.removeAll(fromMap: map) } },
        // A map of objects.
        op("walkerRex") { r, _ in
            if let rex = try r.dog("Rex") { try r.withCollection(P.walkers) { t, map in try t.setValue(.object(rex), forKey: "w", in: map) } }
        },
        op("walkerNone") { r, _ in try r.withCollection(P.walkers) { t, map in try t.setValue(.null, forKey: "w", in: map) } },
        op("unwalk") { r, _ in try r.withCollection(P.walkers) { t, map in try t.removeValue(forKey: "w", from: map) } },
        op("clearWalkers") { r, _ in try r.withCollection(P.walkers) { t, map in try t.removeAll(fromMap: map) } },
        // A map of embedded objects.
        op("mapHome") { r, c in
            try r.withCollection(P.homes) { t, map in _ = try t.setEmbeddedObject(forKey: "h", in: map, values: [.string("m\(c)")]) }
        },
        op("mapHomeWithDetail") { r, c in
            try r.withCollection(P.homes) { t, map in
                let home = try t.setEmbeddedObject(forKey: "h", in: map, values: [.string("m\(c)")])
                _ = try t.createEmbeddedObject(in: try r.addresses, owner: home, property: 1, values: [.string("md\(c)")])
            }
        },
        op("mapHomeNew") { r, c in
            try r.withCollection(P.homes) { t, map in _ = try t.setEmbeddedObject(forKey: "g\(c)", in: map, values: [.string("g\(c)")]) }
        },
        op("editMapHome") { r, c in
            try r.withCollection(P.homes) { t, map in
                if case .object(let home)? = try t.value(forKey: "h", in: map) { try t.setValue(.string("x\(c)"), of: home, property: 0, in: try r.addresses) }
            }
        },
        op("nilMapHome") { r, _ in try r.withCollection(P.homes) { t, map in try t.setValue(.null, forKey: "h", in: map) } },
        op("unmapHome") { r, _ in try r.withCollection(P.homes) { t, map in try t.removeValue(forKey: "h", from: map) } },
        op("deleteMapHomeObject") { r, _ in
            try r.withCollection(P.homes) { t, map in
                if case .object(let home)? = try t.value(forKey: "h", in: map) { try t.deleteObject(home, in: try r.addresses) }
            }
        },
        op("clearHomes") { r, _ in try r.withCollection(P.homes) { t, map in try t.removeAll(fromMap: map) } },
    ]

    /// Every kind of change of mixed values: typed values and links to
    /// either class, alone, in a set (where the int 1 and the double 1.0
    /// are one member) and in a map.
    static let mixed: [ModelOperation] = [
        op("anyInt") { r, c in try r.setPerson(1, P.any, .int(Int64(c))) },
        op("anyDouble") { r, c in try r.setPerson(1, P.any, .double(Double(c) + 0.5)) },
        op("anyRex") { r, _ in if let rex = try r.dog("Rex") { try r.setPerson(1, P.any, .link(className: "Dog", key: rex)) } },
        op("anyBo") { r, _ in if let bo = try r.person(2) { try r.setPerson(1, P.any, .link(className: "Person", key: bo)) } },
        op("anyNil") { r, _ in try r.setPerson(1, P.any, .null) },
        op("bagOne") { r, _ in try r.withCollection(P.bag) { t, set in try t.insert(.int(1), intoSet: set) } },
        op("bagOneDouble") { r, _ in try r.withCollection(P.bag) { t, set in try t.insert(.double(1), intoSet: set) } },
        op("bagRex") { r, _ in
            if let rex = try r.dog("Rex") { try r.withCollection(P.bag) { t, set in try t.insert(.link(className: "Dog", key: rex), intoSet: set) } }
        },
        op("unbagOne") { r, _ in try r.withCollection(P.bag) { t, set in try t.remove(.int(1), fromSet: set) } },
        op("clearBag") { r, _ in try r.withCollection(P.bag) { t, set in try t.removeAll(fromSet: set) } },
        op("anyMapRex") { r, _ in
            if let rex = try r.dog("Rex") { try r.withCollection(P.anyMap) { t, map in try t.setValue(.link(className: "Dog", key: rex), forKey: "r", in: map) } }
        },
        op("anyMapString") { r, c in try r.withCollection(P.anyMap) { t, map in try t.setValue(.string("s\(c)"), forKey: "r", in: map) } },
        op("unAnyMap") { r, _ in try r.withCollection(P.anyMap) { t, map in try t.removeValue(forKey: "r", from: map) } },
    ]

    /// Every kind of change of a list of mixed values: typed values, links
    /// to either class (nil once their object is deleted, where RealmCore
    /// keeps the element), moves, removals and clears.
    static let mixedLists: [ModelOperation] = [
        op("anyListInt") { r, c in try r.withList(P.anyList) { t, list, count in try t.insert(.int(Int64(c)), at: min(1, count), in: list) } },
        op("anyListRex") { r, _ in
            if let rex = try r.dog("Rex") { try r.withList(P.anyList) { t, list, _ in try t.insert(.link(className: "Dog", key: rex), at: 0, in: list) } }
        },
        op("anyListBo") { r, _ in
            if let bo = try r.person(2) { try r.withList(P.anyList) { t, list, _ in try t.insert(.link(className: "Person", key: bo), at: 0, in: list) } }
        },
        op("anyListSetFido") { r, _ in
            guard let fido = try r.dog("Fido") else { return }
            try r.withList(P.anyList) { t, list, count in if count > 0 { try t.replace(at: count - 1, with: .link(className: "Dog", key: fido), in: list) } }
        },
        op("anyListSetString") { r, c in
            try r.withList(P.anyList) { t, list, count in if count > 0 { try t.replace(at: count - 1, with: .string("v\(c)"), in: list) } }
        },
        op("anyListSetNil") { r, _ in try r.withList(P.anyList) { t, list, count in if count > 0 { try t.replace(at: 0, with: .null, in: list) } } },
        op("anyListMove") { r, _ in try r.withList(P.anyList) { t, list, count in if count > 1 { try t.move(from: 0, to: count - 1, in: list) } } },
        op("anyListRemove") { r, _ in try r.withList(P.anyList) { t, list, count in if count > 0 { try t.remove(at: count - 1, from: list) } } },
        op("anyListClear") { r, _ in try r.withList(P.anyList) { t, list, _ in try t.removeAll(from: list) } },
    ]

    /// Every kind of change of lists and dictionaries nested in mixed
    /// values: made anew (replacing what was there), replaced by a value,
    /// filled, edited, moved, erased and cleared, at the top and one level
    /// down, in a mixed property, a list and a map of mixed values.
    static let nested: [ModelOperation] = [
        op("nestList") { r, c in
            guard let ana = try r.person(1) else { return }
            try r.transaction.append(.int(Int64(c)), to: try r.transaction.setNestedCollection(.list, of: ana, property: P.nest, in: try r.people))
        },
        op("nestDict") { r, c in
            guard let ana = try r.person(1) else { return }
            let dictionary = try r.transaction.setNestedCollection(.dictionary, of: ana, property: P.nest, in: try r.people)
            try r.transaction.setValue(.int(Int64(c)), forKey: "d", in: dictionary)
        },
        op("nestScalar") { r, c in try r.setPerson(1, P.nest, .int(Int64(30 + c))) },
        op("nestAppend") { r, c in try r.withNested(.list) { t, list in try t.append(.string("n\(c)"), to: list) } },
        op("nestInsertRex") { r, _ in
            guard let rex = try r.dog("Rex") else { return }
            try r.withNested(.list) { t, list in try t.insert(.link(className: "Dog", key: rex), at: 0, in: list) }
        },
        op("nestRemove") { r, _ in try r.withNested(.list) { t, list in if try t.count(of: list) > 0 { try t.remove(at: 0, from: list) } } },
        op("nestMove") { r, _ in
            try r.withNested(.list) { t, list in
                let count = try t.count(of: list)
                if count > 1 { try t.move(from: 0, to: count - 1, in: list) }
            }
        },
        op("nestSetFirst") { r, c in
            try r.withNested(.list) { t, list in if try t.count(of: list) > 0 { try t.replace(at: 0, with: .int(Int64(10 + c)), in: list) } }
        },
        op("nestClear") { r, _ in try r.withNested(.list) { t, list in try t.removeAll(from: list) } },
        op("nestReplaceInner") { r, c in
            try r.withNested(.list) { t, list in
                guard try t.count(of: list) > 1 else { return }
                try t.append(.int(Int64(c)), to: try t.replaceWithNestedCollection(.list, at: 1, in: list))
            }
        },
        op("nestInnerSet") { r, c in try r.withInnerDictionary { t, dictionary in try t.setValue(.int(Int64(c)), forKey: "k", in: dictionary) } },
        op("nestInnerRex") { r, _ in
            guard let rex = try r.dog("Rex") else { return }
            try r.withInnerDictionary { t, dictionary in try t.setValue(.link(className: "Dog", key: rex), forKey: "r", in: dictionary) }
        },
        op("nestInnerErase") { r, _ in try r.withInnerDictionary { t, dictionary in try t.removeValue(forKey: "k", from: dictionary) } },
        op("anyListNest") { r, c in
            try r.withList(P.anyList) { t, list, _ in try t.append(.int(Int64(c)), to: try t.insertNestedCollection(.list, at: 0, in: list)) }
        },
        op("anyMapNest") { r, c in
            try r.withCollection(P.anyMap) { t, map in
                try t.setValue(.int(Int64(c)), forKey: "x", in: try t.setNestedCollection(.dictionary, forKey: "n", in: map))
            }
        },
    ]

    /// The changes of other kinds that nested collections must resolve
    /// against.
    static let nestedNeighbours = mixedNeighbours + ["anyListRemove", "anyListClear", "unAnyMap"].map(named)

    /// The changes of other kinds that mixed values must resolve against.
    static let mixedNeighbours = collectionNeighbours + ["deleteBo", "recreateBo"].map(named)

    /// The changes of other kinds that sets and maps must resolve against:
    /// their owner and their objects deleted, made again or new.
    static let collectionNeighbours = ["deleteAna", "deleteRex", "deleteFido", "deleteAllDogs", "newDogInList", "rename"].map(named)

    /// Every kind of change.
    static let every = all + collections + mixed + mixedLists + nested

    static func op(_ name: String, _ body: @escaping @Sendable (ModelReplica, Int) throws -> Void) -> ModelOperation {
        ModelOperation(name: name, body: body)
    }

    static func named(_ name: String) -> ModelOperation {
        every.first { $0.name == name }!
    }
}

extension ModelReplica {
    func setPerson(_ id: Int64, _ property: Int, _ value: Value) throws {
        if let key = try person(id) { try transaction.setValue(value, of: key, property: property, in: try people) }
    }

    func home() throws -> ObjectKey? {
        guard let ana = try person(1), case .object(let home) = try transaction.value(of: ana, property: PersonProperty.home, in: try people) else {
            return nil
        }
        return home
    }

    /// Runs `body` on Ana's set or map `property`, if Ana is here.
    func withCollection(_ property: Int, _ body: (Transaction, ListHandle) throws -> Void) throws {
        guard let ana = try person(1) else { return }
        try body(transaction, ListHandle(owningClass: try people, owner: ana, property: property))
    }

    /// Runs `body` on the collection of `kind` in Ana's `nest`, if it
    /// holds one.
    func withNested(_ kind: NestedCollection.Kind, _ body: (Transaction, ListHandle) throws -> Void) throws {
        guard let ana = try person(1), case .collection(let nested) = try transaction.value(of: ana, property: PersonProperty.nest, in: try people),
              nested.kind == kind else { return }
        try body(transaction, ListHandle(owningClass: try people, owner: ana, property: PersonProperty.nest, nested: nested))
    }

    /// Runs `body` on the first dictionary in the `nest` list (the seed's
    /// is its second element), or on `nest` itself when it is one.
    func withInnerDictionary(_ body: (Transaction, ListHandle) throws -> Void) throws {
        try withNested(.dictionary, body)
        try withNested(.list) { t, list in
            for case .collection(let inner) in try t.values(of: list) where inner.kind == .dictionary {
                return try body(t, ListHandle(owningClass: list.owningClass, owner: list.owner, property: list.property, nested: inner))
            }
        }
    }

    /// Runs `body` on Ana's list `property`, if Ana is here.
    func withList(_ property: Int, _ body: (Transaction, ListHandle, Int) throws -> Void) throws {
        guard let list = try list(property, of: 1) else { return }
        try body(transaction, list, try transaction.count(of: list))
    }
}
