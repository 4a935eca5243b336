import Foundation
import RealmObjects

/// Children transfer money and print each committed number; the parent
/// kills them with SIGKILL at random moments (while opening, recovering,
/// compacting, committing and checkpointing), then checks that no committed
/// transfer was lost, none is partial, and the file passes verification.
enum CrashSafety {
    static func run(size: Size, seed: UInt64) throws -> Int32 {
        let report = Report(family: "crash-safety", seed: seed)
        let scratch = try Scratch("crash")
        defer { scratch.remove() }
        let kills = size.cases(ci: 120, full: 1_000)
        let url = scratch.file("bank.realm")
        try Bank.create(at: url)
        var rng = SeededGenerator(seed: seed)
        var confirmed = 0
        var committedTotal = 0
        let moments = Tally()

        for round in 0..<kills {
            // One or two writers at once; now and then one that compacts the
            // file as it opens.
            let writers = rng.chance(0.3) ? 2 : 1
            var children: [Child] = []
            for writer in 0..<writers {
                let compact = rng.chance(0.1)
                children.append(try Child(["transfer", url.path, String(round * 2 + writer), String(rng.next()), "1000000", compact ? "compact" : "plain"]))
            }
            // Kill at a random moment: often early, while the child opens.
            let delay = rng.chance(0.4) ? Int.random(in: 0...30, using: &rng) : Int.random(in: 40...400, using: &rng)
            usleep(UInt32(delay * 1000))
            for child in children { child.kill() }
            for child in children {
                let ending = child.wait(timeout: .seconds(60))
                let lines = child.completeLines
                if case .signalled(SIGKILL) = ending {} else {
                    report.fail("round \(round): a writer ended with \(ending) before the kill: \(child.text.suffix(800))")
                }
                let committed = lines.compactMap { $0.hasPrefix("committed ") ? Int($0.dropFirst(10)) : nil }
                committedTotal += committed.count
                confirmed = max(confirmed, committed.max() ?? 0)
                moments.add(lines.contains("opened") ? (committed.isEmpty ? "after-open" : "committing") : "opening")
                for line in lines where line.hasPrefix("INVARIANT") || line.hasPrefix("ERROR") {
                    report.fail("round \(round): a writer said: \(line)")
                }
            }
            report.countCase()

            // Reopen (recovery runs here) and check.
            do {
                try autoreleasepool {
                    let realm = try Realm(configuration: Bank.configuration(url))
                    realm.refresh()
                    for problem in Bank.problems(realm) {
                        report.fail("round \(round), seed \(seed): \(problem)")
                    }
                    let sequence = realm.object(ofType: Ledger.self, forPrimaryKey: 0)?.sequence ?? 0
                    if sequence < confirmed {
                        report.fail("round \(round), seed \(seed): transfer \(confirmed) was committed but the file ends at \(sequence): lost")
                    }
                    realm.invalidate()
                }
                if round % 10 == 9 || round == kills - 1 {
                    let problems = try Realm.verificationProblems(configuration: Bank.configuration(url))
                    for problem in problems { report.fail("round \(round): verification: \(problem)") }
                }
            } catch {
                report.fail("round \(round), seed \(seed): the file no longer opens: \(error)")
                break
            }
        }
        report.figure("kills", report.cases)
        report.figure("commits-confirmed", committedTotal)
        report.figure("killed-while", moments.description)
        return report.finish()
    }
}
