import Foundation
import RealmObjects

/// Writers on threads and in other processes move money while reader
/// threads refresh and check, in every snapshot they see, that the total is
/// unchanged and the transfers are numbered without gaps.
enum Concurrency {
    static func run(size: Size, seed: UInt64) throws -> Int32 {
        let report = Report(family: "concurrency", seed: seed)
        let scratch = try Scratch("concurrency")
        defer { scratch.remove() }
        let perWriter = size.cases(ci: 1_000, full: 20_000)
        let url = scratch.file("bank.realm")
        try autoreleasepool { try Bank.create(at: url) }

        let processes = try (0..<2).map { writer in
            try Child(["transfer", url.path, String(100 + writer), String(SeededGenerator.caseSeed(seed, 100 + writer)), String(perWriter), "plain"])
        }
        let writersDone = DispatchGroup()
        let stop = Flag()
        let snapshots = Tally()
        var threads: [Thread] = []
        for writer in 0..<2 {
            writersDone.enter()
            threads.append(Thread {
                defer { writersDone.leave() }
                var rng = SeededGenerator(seed: SeededGenerator.caseSeed(seed, writer))
                do {
                    let realm = try Realm(configuration: Bank.configuration(url))
                    for _ in 0..<perWriter { _ = try Bank.transfer(realm, writer: writer, rng: &rng) }
                } catch {
                    report.fail("writer thread \(writer): \(error)")
                }
            })
        }
        let readersDone = DispatchGroup()
        for reader in 0..<2 {
            readersDone.enter()
            threads.append(Thread {
                defer { readersDone.leave() }
                do {
                    let realm = try Realm(configuration: Bank.configuration(url))
                    while !stop.isSet {
                        realm.refresh()
                        let problems = Bank.problems(realm)
                        snapshots.add("checked")
                        if !problems.isEmpty {
                            report.fail("reader \(reader): \(problems.joined(separator: "; "))")
                            return
                        }
                    }
                } catch {
                    report.fail("reader thread \(reader): \(error)")
                }
            })
        }
        for thread in threads { thread.start() }
        writersDone.wait()
        for (index, process) in processes.enumerated() {
            let ending = process.wait(timeout: .seconds(size == .full ? 3_600 : 600))
            guard case .exited(0) = ending else {
                report.fail("writer process \(index) ended with \(ending): \(process.text.suffix(800))")
                continue
            }
            for line in process.completeLines where line.hasPrefix("INVARIANT") || line.hasPrefix("ERROR") {
                report.fail("writer process \(index): \(line)")
            }
        }
        stop.set()
        readersDone.wait()

        let realm = try Realm(configuration: Bank.configuration(url))
        let sequence = realm.object(ofType: Ledger.self, forPrimaryKey: 0)?.sequence ?? 0
        if sequence != 4 * perWriter {
            report.fail("\(sequence) transfers committed, not \(4 * perWriter)")
        }
        for problem in Bank.problems(realm) { report.fail("at the end: \(problem)") }
        for problem in try Realm.verificationProblems(configuration: Bank.configuration(url)) {
            report.fail("verification: \(problem)")
        }
        report.countCase(sequence)
        report.figure("transfers", sequence)
        report.figure("snapshots-checked", snapshots["checked"])
        return report.finish()
    }
}

/// A flag set once, read by many threads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
