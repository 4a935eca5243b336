import Foundation
import RealmObjects

/// Money moved between accounts, one transfer per transaction: the total
/// never changes, transfers are numbered without gaps, and the ledger's
/// number is the count of transfers. Any lost or partial transaction breaks
/// one of these.
enum Bank {
    static let accounts = 10
    static let opening = 1_000

    /// With `RELIABILITY_ENCRYPTED=1` in the environment (which child
    /// processes inherit), every bank is an encrypted file.
    static let encryptionKey: Data? = ProcessInfo.processInfo.environment["RELIABILITY_ENCRYPTED"] == "1"
        ? Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }) : nil

    static func configuration(_ url: URL, compactOnLaunch: Bool = false) -> Realm.Configuration {
        var configuration = Realm.Configuration(fileURL: url, encryptionKey: encryptionKey, objectTypes: bankTypes)
        if compactOnLaunch {
            configuration.shouldCompactOnLaunch = { _, _ in true }
        }
        return configuration
    }

    static func create(at url: URL) throws {
        let realm = try Realm(configuration: configuration(url))
        try realm.write {
            for id in 0..<accounts {
                realm.create(Account.self, value: ["id": id, "balance": opening])
            }
            realm.create(Ledger.self, value: ["id": 0, "sequence": 0])
        }
    }

    /// One transfer in one write transaction; returns its sequence number.
    static func transfer(_ realm: Realm, writer: Int, rng: inout SeededGenerator) throws -> Int {
        let from = Int.random(in: 0..<accounts, using: &rng)
        let to = (from + Int.random(in: 1..<accounts, using: &rng)) % accounts
        let amount = Int.random(in: 1...50, using: &rng)
        return try realm.write {
            let ledger = realm.object(ofType: Ledger.self, forPrimaryKey: 0)!
            ledger.sequence += 1
            realm.object(ofType: Account.self, forPrimaryKey: from)!.balance -= amount
            realm.object(ofType: Account.self, forPrimaryKey: to)!.balance += amount
            realm.create(Transfer.self, value: ["sequence": ledger.sequence, "from": from, "to": to, "amount": amount, "writer": writer])
            return ledger.sequence
        }
    }

    /// What is wrong with the bank as `realm` sees it; empty when every
    /// invariant holds.
    static func problems(_ realm: Realm) -> [String] {
        var problems: [String] = []
        let balances = realm.objects(Account.self)
        let total = balances.reduce(0) { $0 + $1.balance }
        if balances.count != accounts { problems.append("\(balances.count) accounts, not \(accounts)") }
        if total != accounts * opening { problems.append("the total is \(total), not \(accounts * opening)") }
        let sequence = realm.object(ofType: Ledger.self, forPrimaryKey: 0)?.sequence ?? -1
        let transfers = realm.objects(Transfer.self)
        let count = transfers.count
        if count != sequence { problems.append("\(count) transfers but the ledger says \(sequence)") }
        let highest = transfers.max(ofProperty: "sequence") as Int? ?? 0
        if highest != count { problems.append("the highest transfer is \(highest) of \(count): a gap") }
        return problems
    }

    /// The child's side of the crash and concurrency families: transfers
    /// until killed or `limit` is reached, printing each committed number.
    static func transferChild(path: String, writer: Int, seed: UInt64, limit: Int, compactOnLaunch: Bool) -> Int32 {
        var rng = SeededGenerator(seed: seed)
        do {
            say("opening")
            let realm = try Realm(configuration: configuration(URL(fileURLWithPath: path), compactOnLaunch: compactOnLaunch))
            say("opened")
            for _ in 0..<limit {
                let sequence = try transfer(realm, writer: writer, rng: &rng)
                say("committed \(sequence)")
                if rng.chance(0.05) {
                    let found = problems(realm)
                    if !found.isEmpty { say("INVARIANT \(found.joined(separator: "; "))") }
                }
            }
            say("done")
            return 0
        } catch {
            say("ERROR \(error)")
            return 1
        }
    }
}
