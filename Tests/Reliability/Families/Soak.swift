import Foundation
import RealmObjects

/// A writer commits small transactions without pause while two readers
/// refresh every few milliseconds: the `-wal` must stay under 64 MiB and
/// stop growing, and the main file must not grow without new data (SPEC
/// section 9; issue 15, item 6).
enum Soak {
    static let walLimit = 64 << 20

    static func run(size: Size, seed: UInt64) throws -> Int32 {
        let report = Report(family: "soak", seed: seed)
        let scratch = try Scratch("soak")
        defer { scratch.remove() }
        let seconds = size.seconds(ci: 6, full: 600)
        let url = scratch.file("soak.realm")
        try autoreleasepool { try Bank.create(at: url) }

        let stop = Flag()
        let commits = Tally()
        let group = DispatchGroup()
        var threads: [Thread] = []
        group.enter()
        threads.append(Thread {
            defer { group.leave() }
            var rng = SeededGenerator(seed: seed)
            do {
                let realm = try Realm(configuration: Bank.configuration(url))
                let accounts = realm.objects(Account.self)
                while !stop.isSet {
                    let from = Int.random(in: 0..<Bank.accounts, using: &rng)
                    let to = (from + 1) % Bank.accounts
                    try realm.write {
                        accounts[from].balance -= 1
                        accounts[to].balance += 1
                    }
                    commits.add("commits")
                }
            } catch {
                report.fail("writer: \(error)")
            }
        })
        for reader in 0..<2 {
            group.enter()
            threads.append(Thread {
                defer { group.leave() }
                do {
                    let realm = try Realm(configuration: Bank.configuration(url))
                    while !stop.isSet {
                        realm.refresh()
                        let total = realm.objects(Account.self).reduce(0) { $0 + $1.balance }
                        if total != Bank.accounts * Bank.opening {
                            report.fail("reader \(reader): total \(total)")
                            return
                        }
                        commits.add("reads")
                        usleep(2_000)
                    }
                } catch {
                    report.fail("reader \(reader): \(error)")
                }
            })
        }
        for thread in threads { thread.start() }

        // Sample the file sizes; the WAL's largest size in each tenth of
        // the run shows whether it keeps growing.
        let started = Date()
        var maxima = [Int](repeating: 0, count: 10)
        var largestMain = 0
        while Date().timeIntervalSince(started) < seconds {
            usleep(20_000)
            let tenth = min(9, Int(Date().timeIntervalSince(started) / seconds * 10))
            let wal = fileSize(url.path + "-wal")
            maxima[tenth] = max(maxima[tenth], wal)
            largestMain = max(largestMain, fileSize(url.path))
        }
        stop.set()
        group.wait()

        let largest = maxima.max() ?? 0
        if largest >= walLimit {
            report.fail("the -wal reached \(largest >> 20) MiB (limit \(walLimit >> 20) MiB)")
        }
        // Stopped growing: at the end of the run the log is within a few
        // restarts' worth (the policy restarts the log past 2,048 frames,
        // about 8 MiB) of the first half's peak. A restart that a reader
        // blocked lets the log grow by another restart's worth before the
        // next try, and on a loaded machine (CI runs other suites beside
        // this one) two or three tries in a row can be blocked: a CI run
        // failed at 27 MiB against a first half of 16 MiB, with 20,000
        // commits in 6 s. Such a spike is bounded by the limit above; a log
        // that keeps growing stays high in both of the last two tenths, and
        // over the full run's ten minutes passes the limit.
        let firstHalf = maxima.prefix(5).max() ?? 0
        let end = min(maxima[8], maxima[9])
        if end > firstHalf + (24 << 20) {
            report.fail("the -wal kept growing: peaks per tenth \(maxima.map { $0 >> 10 }) KiB")
        }
        if largestMain > 4 << 20 {
            report.fail("the main file grew to \(largestMain >> 10) KiB with no new data")
        }
        report.countCase(commits["commits"])
        report.figure("seconds", Int(seconds))
        report.figure("commits", commits["commits"])
        report.figure("refreshes", commits["reads"])
        report.figure("max-wal-KiB", largest >> 10)
        report.figure("max-main-KiB", largestMain >> 10)
        return report.finish()
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
