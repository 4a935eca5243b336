import Foundation

/// The report on standard output: a header saying how the run was made,
/// then one row per workload with each contender's median, realm's ratios
/// to the others, and whether they meet the budget.
enum Table {
    static func render(_ outcomes: [WorkloadOutcome], environment: RunEnvironment) -> String {
        var lines: [String] = []
        let mode = environment.quick ? "quick mode" : "full mode"
        lines.append("realm-benchmark, \(mode): \(environment.repetitions) measured rounds after a warm-up, contenders interleaved (realm, grdb, grdb-codable, sqlite, realm-encrypted)")
        lines.append("\(environment.date) · project \(environment.projectRevision) · \(environment.swiftVersion) · SQLite \(environment.sqliteVersion) · \(environment.architecture), \(environment.processors) CPUs")
        lines.append("every contender: journal_mode = \(environment.journalMode), synchronous = \(environment.synchronous); a fresh file per round where a workload writes")
        lines.append("data: \(environment.data)")
        lines.append("")

        let header = ["workload", "size", "realm", "grdb", "grdb-codable", "sqlite", "realm/grdb", "realm/sqlite", "budget",
                      "encrypted", "encrypted/realm"]
        var rows: [[String]] = []
        for outcome in outcomes {
            rows.append(medianRow(outcome))
            if outcome.contenders.contains(where: { $0.p99 != nil }) { rows.append(p99Row(outcome)) }
        }
        lines.append(contentsOf: align([header] + rows, rightAligned: [2, 3, 4, 5, 6, 7, 9, 10]))
        lines.append("")
        lines.append("Times are medians of the measured rounds (latency: of every commit, pooled). Ratios: the median of the rounds' realm/other ratios, with their range in parentheses (latency: the ratio of the medians); below 1 realm is faster.")
        lines.append("grdb: GRDB's fastest idioms (records decoded by column index, databaseSelection, cached statements, a DatabaseQueue); grdb-codable: Codable records and a DatabasePool. realm/grdb is against whichever of the two was faster (marked *codable where that was grdb-codable).")
        lines.append("Budget (SPEC §8, issue 17): ≤1.0 vs grdb everywhere; SQLite-bound workloads also ≤1.3 vs sqlite; where grdb is itself at the floor, within 10% of sqlite.")
        lines.append("encrypted: the realm contender on encrypted files (AES-256-CTR + HMAC-SHA-256 per page); encrypted/realm is the cost of encryption, as the median of the rounds' ratios (goal ≤ 1.10).")
        let over = outcomes.filter { $0.withinBudget == false }.map(\.name)
        lines.append(over.isEmpty ? "Every budgeted workload is within budget." : "Over budget: \(over.joined(separator: ", ")).")
        return lines.joined(separator: "\n")
    }

    private static let timedContenders = [ContenderName.realm, ContenderName.grdb, ContenderName.grdbCodable, ContenderName.sqlite]

    /// The medians, with the ratios the harness computed.
    private static func medianRow(_ outcome: WorkloadOutcome) -> [String] {
        var overGRDB = outcome.realmOverGRDB?.formatted ?? "n/a"
        if outcome.grdbBaseline == ContenderName.grdbCodable { overGRDB += " *codable" }
        return [outcome.name, outcome.size]
            + timedContenders.map { cell(outcome, $0, \.median) }
            + [overGRDB, outcome.realmOverSQLite?.formatted ?? "n/a", budgetCell(outcome)]
            + [cell(outcome, ContenderName.encrypted, \.median), outcome.encryptedOverRealm?.formatted ?? "n/a"]
    }

    /// The 99th percentiles of a latency workload, and their ratios.
    private static func p99Row(_ outcome: WorkloadOutcome) -> [String] {
        func p99(_ contender: String?) -> Double? {
            contender.flatMap { outcome.outcome(of: $0) }.flatMap { $0.error == nil ? $0.p99 : nil }
        }
        func ratio(_ numerator: String?, _ denominator: String?) -> String {
            guard let top = p99(numerator), let bottom = p99(denominator), bottom > 0 else { return "n/a" }
            return String(format: "%.2f", top / bottom)
        }
        return ["  p99", ""]
            + timedContenders.map { cell(outcome, $0, \.p99) }
            + [ratio(ContenderName.realm, outcome.grdbBaseline), ratio(ContenderName.realm, ContenderName.sqlite), "—"]
            + [cell(outcome, ContenderName.encrypted, \.p99), ratio(ContenderName.encrypted, ContenderName.realm)]
    }

    private static func cell(_ workload: WorkloadOutcome, _ contender: String, _ statistic: KeyPath<ContenderOutcome, Double?>) -> String {
        guard let outcome = workload.outcome(of: contender) else { return "" }
        if outcome.error != nil { return "error" }
        if !outcome.applicable { return "n/a" }
        guard let value = outcome[keyPath: statistic] else { return "" }
        return format(value, unit: workload.unit)
    }

    private static func budgetCell(_ outcome: WorkloadOutcome) -> String {
        switch outcome.withinBudget {
        case .some(true): "ok (\(outcome.budget.summary))"
        case .some(false): "OVER (\(outcome.budget.summary))"
        case .none: outcome.budget == .none ? "—" : "n/a (\(outcome.budget.summary))"
        }
    }

    /// Seconds in s, ms or µs; bytes in MB (2^20 bytes).
    static func format(_ value: Double, unit: Workload.Unit) -> String {
        switch unit {
        case .bytes:
            return String(format: "%.1f MB", value / 1_048_576)
        case .seconds:
            if value >= 1 { return String(format: "%.2f s", value) }
            if value >= 0.1 { return String(format: "%.0f ms", value * 1e3) }
            if value >= 1e-3 { return String(format: "%.1f ms", value * 1e3) }
            return String(format: "%.0f µs", value * 1e6)
        }
    }

    /// Pads the columns to their widest cell.
    private static func align(_ rows: [[String]], rightAligned: Set<Int>) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, text in
                let padding = String(repeating: " ", count: widths[column] - text.count)
                return rightAligned.contains(column) ? padding + text : text + padding
            }
            .joined(separator: "  ")
            .trimmingTrailingSpaces()
        }
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
