import Foundation
import RealmObjects

/// The models and changes of the multi-process randomized test
/// (`random-sync`, `converge`): a primary-key class with every kind of
/// property sync carries, an embedded class, and a class without a primary
/// key. The test process never opens these Realms; it compares the dumps
/// the helpers print.
final class RandomNote: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var text = ""
    @Persisted var count = 0
    @Persisted var score: Double?
    @Persisted var link: RandomNote?
    @Persisted var address: RandomAddress?
    let tags = List<String>()
    let children = List<RandomNote>()
    let places = List<RandomAddress>()
    @Persisted var labels: MutableSet<String>
    @Persisted var friends: MutableSet<RandomNote>
    @Persisted var marks: Map<String, Int>
    @Persisted var pals: Map<String, RandomNote?>
    @Persisted var rooms: Map<String, RandomAddress?>
    @Persisted var anything: AnyRealmValue
    @Persisted var mixed: List<AnyRealmValue>
}

final class RandomAddress: EmbeddedObject {
    @Persisted var street = ""
}

final class RandomPin: Object {
    @Persisted var label = ""
    @Persisted var note: RandomNote?
}

enum RandomNotes {
    static let types: [Object.Type] = [RandomNote.self, RandomAddress.self, RandomPin.self]

    /// One random change of every kind sync carries.
    static func edit(_ realm: Realm, _ generator: inout SystemRandomNumberGenerator) throws {
        let argument = generator.next() % 1_000_000
        let id = Int(argument % 6)
        let note = realm.object(ofType: RandomNote.self, forPrimaryKey: id)
        let other = realm.object(ofType: RandomNote.self, forPrimaryKey: Int((argument / 7) % 6))
        func index(_ count: Int) -> Int { Int((argument / 11) % UInt64(max(count, 1))) }
        switch generator.next() % 34 {
        case 0, 1: _ = try realm.create(RandomNote.self, value: ["id": id, "text": "made \(argument % 1000)"], update: .modified)
        case 2: note?.text = "text \(argument % 1000)"
        case 3: note?.count = Int(argument % 100)
        case 4: note?.score = argument % 2 == 0 ? nil : Double(argument % 50) / 4
        case 5: note?.tags.insert("t\(argument % 20)", at: index((note?.tags.count ?? 0) + 1))
        case 6: if let tags = note?.tags, tags.count > 1 { tags.move(from: index(tags.count), to: 0) }
        case 7: if let tags = note?.tags, !tags.isEmpty { tags.remove(at: index(tags.count)) }
        case 8: note?.link = other
        case 9: if let other { note?.children.append(other) }
        case 10: if let note { realm.delete(note) }
        case 11: note?.address = RandomAddress(value: ["street": "street \(argument % 10)"])
        case 12: realm.add(RandomPin(value: ["label": "pin \(argument % 10)", "note": other as Any]))
        case 13:
            let pins = realm.objects(RandomPin.self)
            if !pins.isEmpty { realm.delete(pins[index(pins.count)]) }
        case 14: note?.address = nil
        case 15: note?.address?.street = "edited \(argument % 10)"
        case 16: if let children = note?.children, children.count > 1 { children.move(from: 0, to: index(children.count)) }
        case 17: if let children = note?.children, !children.isEmpty { children.remove(at: index(children.count)) }
        case 18: if let children = note?.children, !children.isEmpty, let other { children.replace(index: index(children.count), object: other) }
        case 19: if let tags = note?.tags, tags.count > 1 { tags.swapAt(0, tags.count - 1) }
        case 20: if argument % 2 == 0 { note?.tags.removeAll() } else { note?.children.removeAll() }
        case 21: if note == nil { realm.create(RandomNote.self, value: ["id": id]) }
        case 22: note?.places.insert(RandomAddress(value: ["street": "place \(argument % 10)"]), at: index((note?.places.count ?? 0) + 1))
        case 23: if let places = note?.places, !places.isEmpty { places[index(places.count)].street = "moved \(argument % 10)" }
        case 24: if let places = note?.places, places.count > 1 { places.move(from: index(places.count), to: 0) }
        case 25: if let places = note?.places, !places.isEmpty { realm.delete(places[index(places.count)]) }
        case 26: if argument % 3 == 0 { note?.labels.remove("l\(argument % 8)") } else { note?.labels.insert("l\(argument % 8)") }
        case 27: if let other { if argument % 3 == 0 { note?.friends.remove(other) } else { note?.friends.insert(other) } }
        case 28: if argument % 3 == 0 { note?.marks.removeObject(for: "m\(argument % 4)") } else { note?.marks["m\(argument % 4)"] = Int(argument % 100) }
        case 29: if argument % 3 == 0 { note?.pals.removeObject(for: "p\(argument % 3)") } else { note?.pals["p\(argument % 3)"] = other }
        case 30:
            let key = "r\(argument % 3)"
            switch argument % 4 {
            case 0: note?.rooms[key] = RandomAddress(value: ["street": "room \(argument % 10)"])
            case 1: note?.rooms[key]??.street = "painted \(argument % 10)"
            case 2: note?.rooms[key] = .some(nil)
            default: note?.rooms.removeObject(for: key)
            }
        case 31:
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
        case 32:
            guard let mixed = note?.mixed else { break }
            switch argument % 5 {
            case 0: mixed.insert(.int(Int(argument % 10)), at: index(mixed.count + 1))
            case 1: if let other { mixed.insert(.object(other), at: index(mixed.count + 1)) }
            case 2: if !mixed.isEmpty { mixed[index(mixed.count)] = argument % 2 == 0 ? .string("m\(argument % 10)") : .none }
            case 3: if mixed.count > 1 { mixed.move(from: index(mixed.count), to: 0) }
            default: if !mixed.isEmpty { mixed.remove(at: index(mixed.count)) }
            }
        default:
            switch argument % 5 {
            case 0: note?.labels.removeAll()
            case 1: note?.friends.removeAll()
            case 2: note?.marks.removeAll()
            case 3: note?.pals.removeAll()
            default: note?.rooms.removeAll()
            }
        }
    }

    /// A mixed value by content: an object by its id.
    static func describe(_ value: AnyRealmValue) -> String {
        switch value {
        case .list(let list): "[\(list.map(describe).joined(separator: ","))]"
        case .dictionary(let map): "{\(map.keys.sorted().map { "\($0):\(map[$0].map(describe) ?? "-")" }.joined(separator: ","))}"
        default: (value.object(RandomNote.self)?.id).map { "note \($0)" } ?? "\(value)"
        }
    }

    /// The Realm's objects by content, in an order every replica shares.
    static func dump(_ realm: Realm) -> [String] {
        let notes = realm.objects(RandomNote.self).sorted(byKeyPath: "id").map { note in
            "note \(note.id) \(note.text) \(note.count) \(note.score.map { "\($0)" } ?? "nil") link \(note.link?.id ?? -1) "
                + "address \(note.address?.street ?? "-") tags \(Array(note.tags)) children \(note.children.map(\.id)) "
                + "places \(note.places.map(\.street)) labels \(Array(note.labels).sorted()) friends \(note.friends.map(\.id).sorted()) "
                + "marks \(note.marks.keys.sorted().map { "\($0)=\(note.marks[$0] ?? -1)" }) "
                + "pals \(note.pals.keys.sorted().map { "\($0)=\(note.pals[$0]??.id ?? -1)" }) "
                + "rooms \(note.rooms.keys.sorted().map { "\($0)=\(note.rooms[$0]??.street ?? "-")" }) "
                + "anything \(describe(note.anything)) mixed \(note.mixed.map(describe))"
        }
        let pins = realm.objects(RandomPin.self).map { "pin \($0.label) \($0.note?.id ?? -1)" }.sorted()
        return Array(notes) + pins
    }
}
