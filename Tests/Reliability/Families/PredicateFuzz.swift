import Foundation
import RealmObjects

/// Fuzzed predicates through the throwing query API, then `filter`: nothing
/// may crash, and for every predicate accepted, `count`, iteration, `filter`
/// and `NOT` must agree (`count(p) + count(NOT p)` is every object).
enum PredicateFuzz {
    /// Two workers (the machine has two cores), each with its own Realm
    /// and its own sequence of inputs: input `n` is worker `n % 2`'s
    /// `n / 2`-th, so `--case n` replays it.
    static let workers = 2

    static func run(size: Size, seed: UInt64) throws -> Int32 {
        let report = Report(family: "predicate-fuzz", seed: seed)
        let count = size.cases(ci: 10_000, full: 1_000_000)
        let tally = Tally()
        let group = DispatchGroup()
        for worker in 0..<workers {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    try fuzz(worker: worker, inputs: (count - worker + workers - 1) / workers, size: size, seed: seed, report: report, tally: tally)
                } catch {
                    report.fail("worker \(worker): \(error)")
                }
            }.start()
        }
        group.wait()
        report.figure("inputs", report.cases)
        report.figure("accepted", tally["accepted"])
        report.figure("refused", tally["refused"])
        return report.finish()
    }

    static func fuzz(worker: Int, inputs: Int, size: Size, seed: UInt64, report: Report, tally: Tally) throws {
        var fixtureRandom = SeededGenerator(seed: 42)
        let realm = try Realm(configuration: .init(inMemoryIdentifier: "predicate-fuzz-\(seed)-\(worker)", objectTypes: itemTypes))
        try ItemFixture.fill(realm, count: 120, startingAt: 0, rng: &fixtureRandom)
        let items = realm.objects(Item.self)
        let total = items.count
        var grammar = PredicateGrammar(seed: SeededGenerator.caseSeed(seed, worker), size: size)
        let started = ContinuousClock.now
        for position in 0..<inputs {
            if worker == 0, position > 0, position % 50_000 == 0 {
                say("  about \(position * workers) inputs, \(ContinuousClock.now - started)")
            }
            let index = position * workers + worker
            let predicate = grammar.next()
            if let onlyCase, index != onlyCase { continue }
            let arguments = grammar.arguments
            report.countCase()
            // A predicate runs bounded in time or is refused: one that runs
            // this long (all four evaluations) is a failure, as a hang is.
            let inputStarted = ContinuousClock.now
            defer {
                let took = ContinuousClock.now - inputStarted
                if took > slowestAcceptable {
                    report.fail("input \(index) (seed \(seed)): took \(took): \(shown(predicate))")
                }
            }
            let results: Results<Item>
            do {
                results = try filter(items, validating: predicate, arguments)
            } catch {
                tally.add("refused")
                continue
            }
            tally.add("accepted")
            let counted = results.count
            var iterated = 0
            for _ in results { iterated += 1 }
            let complement: Int
            do {
                complement = try filter(items, validating: "NOT (\(predicate))", arguments).count
            } catch {
                // At the nesting limit, the negation's one more level is
                // rightly refused; anything else is a failure.
                if !error.message.contains("levels deep") {
                    report.fail("input \(index) (seed \(seed)): accepted, but its negation was refused (\(error)): \(shown(predicate))")
                }
                continue
            }
            let unchecked = filter(items, predicate, arguments).count
            if counted != iterated || counted != unchecked || counted + complement != total {
                if onlyCase != nil {
                    let inside = Set(results.map(\.id))
                    let outside = Set(try filter(items, validating: "NOT (\(predicate))", arguments).map(\.id))
                    for item in items where !inside.contains(item.id) && !outside.contains(item.id) {
                        say("in neither: id \(item.id) name \(item.name.debugDescription) note \(String(describing: item.note).debugDescription)")
                    }
                }
                report.fail("input \(index) (seed \(seed)): count \(counted), iterated \(iterated), filter \(unchecked), NOT \(complement) of \(total): \(shown(predicate)) arguments \(arguments)")
            }
        }
    }

    /// Longer than any predicate of the grammar takes when bounded (the
    /// slowest, in a debug build, take a few seconds).
    static let slowestAcceptable = Duration.seconds(30)

    static func shown(_ predicate: String) -> String {
        predicate.count > 300 ? "\(predicate.prefix(300))… (\(predicate.utf8.count) bytes)" : predicate.debugDescription
    }

    static func filter(_ items: Results<Item>, validating predicate: String, _ arguments: [Any]) throws(Realm.Error) -> Results<Item> {
        switch arguments.count {
        case 0: try items.filter(validating: predicate)
        case 1: try items.filter(validating: predicate, arguments[0])
        default: try items.filter(validating: predicate, arguments[0], arguments[1])
        }
    }

    static func filter(_ items: Results<Item>, _ predicate: String, _ arguments: [Any]) -> Results<Item> {
        switch arguments.count {
        case 0: items.filter(predicate)
        case 1: items.filter(predicate, arguments[0])
        default: items.filter(predicate, arguments[0], arguments[1])
        }
    }
}
