import Foundation
import RealmObjects

enum Mood: Int, PersistableEnum {
    case calm = 1
    case busy = 2
    case lost = 3
}

/// Every kind of property, so that damage can land on each.
final class Item: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(indexed: true) var name = ""
    @Persisted var flag = false
    @Persisted var count = 0
    @Persisted var ratio = 0.0
    @Persisted var small: Float = 0
    @Persisted var blob = Data()
    @Persisted var when = Date(timeIntervalSinceReferenceDate: 0)
    @Persisted var oid = ObjectId.generate()
    @Persisted var uuid = UUID()
    @Persisted var amount: Decimal = 0
    @Persisted var note: String?
    @Persisted var maybe: Int?
    @Persisted var mood = Mood.calm
    @Persisted var parent: Item?
    let tags = List<String>()
    let scores = List<Int>()
    let children = List<Item>()
    let offspring = LinkingObjects(fromType: Item.self, property: "parent")
}

/// The crash-safety and concurrency families move money between accounts;
/// the total never changes.
final class Account: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var balance = 0
}

/// One per committed transfer, numbered from 1 without gaps.
final class Transfer: Object {
    @Persisted(primaryKey: true) var sequence = 0
    @Persisted var from = 0
    @Persisted var to = 0
    @Persisted var amount = 0
    @Persisted var writer = 0
}

/// The last committed transfer's number.
final class Ledger: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var sequence = 0
}

let itemTypes: [Object.Type] = [Item.self]
let bankTypes: [Object.Type] = [Account.self, Transfer.self, Ledger.self]
