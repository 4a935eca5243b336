import BenchmarkSupport
import Foundation

/// What one contender did in one workload.
struct ContenderOutcome: Codable {
    var contender: String
    /// Seconds (or bytes) per measured round; for the latency workload,
    /// one per commit, pooled over the rounds.
    var samples: [Double] = []
    var median: Double?
    /// For the latency workload.
    var p99: Double?
    /// False when the contender has no equivalent of the workload.
    var applicable = true
    /// Why the contender failed, if it did.
    var error: String?
}

/// A workload's outcome: every contender's samples, and the ratios.
struct WorkloadOutcome: Codable {
    var name: String
    var summary: String
    var size: String
    var unit: Workload.Unit
    var budget: Budget
    /// The budget in words.
    var budgetSummary: String
    var contenders: [ContenderOutcome]
    /// realm's time over grdb's: the median of the rounds' ratios (see
    /// ``Harness/ratio(_:_:paired:)``).
    var realmOverGRDB: Double?
    /// realm's time over sqlite's, as ``realmOverGRDB``.
    var realmOverSQLite: Double?
    /// realm-encrypted's time over realm's: the cost of encryption.
    var encryptedOverRealm: Double?
    /// Whether the ratios meet the budget; nil when not budgeted or not
    /// computable.
    var withinBudget: Bool?

    func outcome(of contender: String) -> ContenderOutcome? {
        contenders.first { $0.contender == contender }
    }
}

/// Runs workloads: for each, a warm-up round and then the measured rounds,
/// every round running every contender in turn (realm, grdb, sqlite, realm,
/// grdb, sqlite …) so that drifts of the machine (other load, thermal
/// state, the page cache) spread over all of them.
final class Harness {
    let contenders: [any Contender]
    let repetitions: Int
    private let progress = Progress()

    init(contenders: [any Contender], repetitions: Int) {
        self.contenders = contenders
        self.repetitions = repetitions
    }

    func run(_ workloads: [Workload]) -> [WorkloadOutcome] {
        defer { progress.finish() }
        return workloads.enumerated().map { index, workload in
            run(workload, label: "[\(index + 1)/\(workloads.count)] \(workload.name)")
        }
    }

    private func run(_ workload: Workload, label: String) -> WorkloadOutcome {
        var outcomes = contenders.map { ContenderOutcome(contender: $0.name) }
        let measuredRounds = workload.repetitions ?? repetitions
        let rounds = (workload.warmsUp ? [true] : []) + Array(repeating: false, count: measuredRounds)
        var measured = 0
        for isWarmUp in rounds {
            if !isWarmUp { measured += 1 }
            for (index, contender) in contenders.enumerated() {
                guard outcomes[index].applicable, outcomes[index].error == nil else { continue }
                let round = isWarmUp ? "warm-up" : "round \(measured)/\(measuredRounds)"
                progress.show("\(label) · \(contender.name) · \(round)")
                do {
                    guard let samples = try runTrial(workload, contender, isWarmUp: isWarmUp) else {
                        outcomes[index].applicable = false
                        continue
                    }
                    if !isWarmUp { outcomes[index].samples += samples }
                } catch {
                    outcomes[index].error = "\(error)"
                    progress.note("\(workload.name): \(contender.name) failed: \(error)")
                }
            }
        }
        for index in outcomes.indices {
            outcomes[index].median = median(outcomes[index].samples)
            if workload.reportsP99 { outcomes[index].p99 = percentile(0.99, of: outcomes[index].samples) }
        }
        return Self.summarize(workload, outcomes)
    }

    /// Sets up, measures and checks one trial; nil when the contender has
    /// no equivalent. The trial (and every handle it holds) is released
    /// before its scratch directory is deleted.
    private func runTrial(_ workload: Workload, _ contender: any Contender, isWarmUp: Bool) throws -> [Double]? {
        var scratch: URL?
        defer { if let scratch { try? FileManager.default.removeItem(at: scratch) } }
        let samples: [Double]
        do {
            guard let trial = try workload.makeTrial(contender, isWarmUp) else { return nil }
            scratch = trial.scratchDirectory
            switch trial.body {
            case .timed(let body):
                let start = ContinuousClock.now
                try body()
                let end = ContinuousClock.now
                samples = [seconds(from: start, to: end)]
            case .samples(let body):
                samples = try body()
            }
            let result = try trial.result()
            // A contender that skipped work, or did other work, must not
            // be timed as if it had done this workload.
            precondition(result == trial.expected,
                         "\(workload.name): \(contender.name) returned \(result), expected \(trial.expected)")
        }
        return samples
    }

    private static func summarize(_ workload: Workload, _ outcomes: [ContenderOutcome]) -> WorkloadOutcome {
        func samples(_ name: String) -> [Double]? {
            outcomes.first { $0.contender == name && $0.error == nil && $0.applicable }?.samples
        }
        let realm = samples(ContenderName.realm), grdb = samples(ContenderName.grdb), sqlite = samples(ContenderName.sqlite)
        let encrypted = samples(ContenderName.encrypted)
        // A latency workload pools many samples per round: its samples do
        // not pair up by round.
        let paired = !workload.reportsP99
        let realmOverGRDB = ratio(realm, grdb, paired: paired)
        let realmOverSQLite = ratio(realm, sqlite, paired: paired)
        return WorkloadOutcome(
            name: workload.name, summary: workload.summary, size: workload.size, unit: workload.unit,
            budget: workload.budget, budgetSummary: workload.budget.summary, contenders: outcomes,
            realmOverGRDB: realmOverGRDB, realmOverSQLite: realmOverSQLite,
            encryptedOverRealm: ratio(encrypted, realm, paired: paired),
            withinBudget: workload.budget.isMet(realmOverGRDB: realmOverGRDB, realmOverSQLite: realmOverSQLite))
    }

    /// realm's time over another contender's. With one sample per round
    /// (`paired`), the median of the rounds' ratios: the contenders of a
    /// round run back to back, so a drift of the machine between rounds
    /// (other load, the CPU's clock) cancels out of each ratio, where it
    /// can tilt a ratio of medians. Otherwise, the ratio of the medians.
    static func ratio(_ numerator: [Double]?, _ denominator: [Double]?, paired: Bool) -> Double? {
        guard let numerator, let denominator else { return nil }
        if paired, numerator.count == denominator.count, denominator.allSatisfy({ $0 > 0 }) {
            return median(zip(numerator, denominator).map { $0 / $1 })
        }
        guard let top = median(numerator), let bottom = median(denominator), bottom > 0 else { return nil }
        return top / bottom
    }
}

/// The contenders' names, as the reports refer to them.
enum ContenderName {
    static let realm = "realm"
    static let grdb = "grdb"
    static let sqlite = "sqlite"
    static let encrypted = "realm-encrypted"
}

/// The progress line on standard error: rewritten in place on a terminal,
/// one line per step otherwise.
final class Progress {
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private var shown = false

    func show(_ line: String) {
        if isTerminal {
            write("\r\u{1B}[K" + line)
            shown = true
        } else {
            write(line + "\n")
        }
    }

    /// A line that stays.
    func note(_ line: String) {
        finish()
        write(line + "\n")
    }

    func finish() {
        if shown { write("\r\u{1B}[K") }
        shown = false
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
