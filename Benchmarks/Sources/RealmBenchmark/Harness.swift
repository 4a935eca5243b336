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
    /// The GRDB variant realm is held to: of `grdb` (fast records) and
    /// `grdb-codable`, the one with the lower median.
    var grdbBaseline: String?
    /// realm's time over the GRDB baseline's (see ``Ratio``).
    var realmOverGRDB: Ratio?
    /// realm's time over sqlite's.
    var realmOverSQLite: Ratio?
    /// realm-encrypted's time over realm's: the cost of encryption.
    var encryptedOverRealm: Ratio?
    /// Whether the ratios meet the budget; nil when not budgeted or not
    /// computable.
    var withinBudget: Bool?

    func outcome(of contender: String) -> ContenderOutcome? {
        contenders.first { $0.contender == contender }
    }
}

/// Runs workloads: for each, a warm-up round and then the measured rounds,
/// every round running every contender in turn (realm, grdb, grdb-codable,
/// sqlite, realm-encrypted, then again) so that drifts of the machine (other load, thermal
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
        func measured(_ name: String) -> ContenderOutcome? {
            outcomes.first { $0.contender == name && $0.error == nil && $0.applicable && !$0.samples.isEmpty }
        }
        // The ratio that counts is against GRDB at its fastest: whichever
        // variant ran this workload faster.
        let grdb = [ContenderName.grdb, ContenderName.grdbCodable].compactMap(measured)
            .min { ($0.median ?? .infinity) < ($1.median ?? .infinity) }
        let realm = measured(ContenderName.realm)?.samples
        // A latency workload pools many samples per round: its samples do
        // not pair up by round.
        let paired = !workload.reportsP99
        let realmOverGRDB = Ratio(realm, grdb?.samples, paired: paired)
        let realmOverSQLite = Ratio(realm, measured(ContenderName.sqlite)?.samples, paired: paired)
        return WorkloadOutcome(
            name: workload.name, summary: workload.summary, size: workload.size, unit: workload.unit,
            budget: workload.budget, budgetSummary: workload.budget.summary, contenders: outcomes,
            grdbBaseline: grdb?.contender, realmOverGRDB: realmOverGRDB, realmOverSQLite: realmOverSQLite,
            encryptedOverRealm: Ratio(measured(ContenderName.encrypted)?.samples, realm, paired: paired),
            withinBudget: workload.budget.isMet(realmOverGRDB: realmOverGRDB?.median, realmOverSQLite: realmOverSQLite?.median))
    }
}

/// One contender's time over another's.
///
/// With one sample per round (`paired`), the median of the rounds' ratios:
/// the contenders of a round run back to back, so a drift of the machine
/// between rounds (other load, the CPU's clock) cancels out of each ratio,
/// where it can tilt a ratio of medians; the range is that of the rounds'
/// ratios. Otherwise (pooled latency samples), the ratio of the medians,
/// with no range.
struct Ratio: Codable {
    var median: Double
    /// The lowest and highest of the rounds' ratios, when paired.
    var low: Double?
    var high: Double?

    init?(_ numerator: [Double]?, _ denominator: [Double]?, paired: Bool) {
        guard let numerator, let denominator else { return nil }
        if paired, numerator.count == denominator.count, denominator.allSatisfy({ $0 > 0 }) {
            let ratios = zip(numerator, denominator).map { $0 / $1 }
            guard let middle = RealmBenchmark.median(ratios) else { return nil }
            (median, low, high) = (middle, ratios.min(), ratios.max())
            return
        }
        guard let top = RealmBenchmark.median(numerator), let bottom = RealmBenchmark.median(denominator), bottom > 0 else {
            return nil
        }
        median = top / bottom
    }

    /// "1.23 (1.10–1.31)", or "1.23" with no range.
    var formatted: String {
        let middle = String(format: "%.2f", median)
        guard let low, let high else { return middle }
        return middle + String(format: " (%.2f–%.2f)", low, high)
    }
}

/// The contenders' names, as the reports refer to them.
enum ContenderName {
    static let realm = "realm"
    static let grdb = "grdb"
    static let grdbCodable = "grdb-codable"
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
