import Foundation

/// The report on standard output: a header saying how the run was made,
/// then one row per workload with each contender's median, realm's ratios
/// to the others, and whether they meet the budget.
enum Table {
    static func render(_ outcomes: [WorkloadOutcome], environment: RunEnvironment) -> String {
        var lines: [String] = []
        let mode = environment.quick ? "quick mode" : "full mode"
        lines.append("realm-benchmark, \(mode): \(environment.repetitions) measured rounds after a warm-up, contenders interleaved (realm, grdb, sqlite, realm-encrypted)")
        lines.append("\(environment.date) · project \(environment.projectRevision) · \(environment.swiftVersion) · SQLite \(environment.sqliteVersion) · \(environment.architecture), \(environment.processors) CPUs")
        lines.append("every contender: journal_mode = \(environment.journalMode), synchronous = \(environment.synchronous); a fresh file per round where a workload writes")
        lines.append("data: \(environment.data)")
        lines.append("")

        let header = ["workload", "size", "realm", "grdb", "sqlite", "realm/grdb", "realm/sqlite", "budget", "encrypted", "encrypted/realm"]
        var rows: [[String]] = []
        for outcome in outcomes {
            rows.append(row(outcome, statistic: \.median, budget: budgetCell(outcome),
                            ratios: (outcome.realmOverGRDB, outcome.realmOverSQLite)))
            if outcome.contenders.contains(where: { $0.p99 != nil }) {
                rows.append(row(outcome, statistic: \.p99, budget: "—", name: "  p99"))
            }
        }
        lines.append(contentsOf: align([header] + rows, rightAligned: [2, 3, 4, 5, 6, 8, 9]))
        lines.append("")
        lines.append("Times are medians of the measured rounds (latency: of every commit, pooled). Ratios: the median of the rounds' realm/other ratios (latency: of the medians); below 1 realm is faster.")
        lines.append("Budget (SPEC §8): ≤1.0 vs grdb everywhere; SQLite-bound workloads also ≤1.3 vs sqlite; where grdb is itself at the floor, within 10% of sqlite.")
        lines.append("encrypted: the realm contender on encrypted files (AES-256-CTR + HMAC-SHA-256 per page); encrypted/realm is the cost of encryption, as the median of the rounds' ratios (goal ≤ 1.10).")
        let over = outcomes.filter { $0.withinBudget == false }.map(\.name)
        lines.append(over.isEmpty ? "Every budgeted workload is within budget." : "Over budget: \(over.joined(separator: ", ")).")
        return lines.joined(separator: "\n")
    }

    /// A row of `statistic`, with realm's `ratios` over grdb and sqlite, or
    /// when not given, the ratios of the statistic.
    private static func row(_ outcome: WorkloadOutcome, statistic: KeyPath<ContenderOutcome, Double?>,
                            budget: String, name: String? = nil, ratios: (Double?, Double?)? = nil) -> [String] {
        let values = [ContenderName.realm, ContenderName.grdb, ContenderName.sqlite].map { contender -> Double? in
            outcome.outcome(of: contender).flatMap { $0.error == nil ? $0[keyPath: statistic] : nil }
        }
        let cells = [ContenderName.realm, ContenderName.grdb, ContenderName.sqlite].enumerated().map { index, contender in
            cell(outcome.outcome(of: contender), value: values[index], unit: outcome.unit)
        }
        func ratio(_ denominator: Double?) -> Double? {
            guard let realm = values[0], let denominator, denominator > 0 else { return nil }
            return realm / denominator
        }
        let (overGRDB, overSQLite) = ratios ?? (ratio(values[1]), ratio(values[2]))
        let texts = [overGRDB, overSQLite].map { $0.map { String(format: "%.2f", $0) } ?? "n/a" }
        let encrypted = outcome.outcome(of: ContenderName.encrypted)
        let encryptedValue = encrypted.flatMap { $0.error == nil ? $0[keyPath: statistic] : nil }
        let encryptedRatio = name == nil ? outcome.encryptedOverRealm : encryptedValue.flatMap { value in values[0].map { value / $0 } }
        return [name ?? outcome.name, name == nil ? outcome.size : ""] + cells + texts + [budget]
            + [cell(encrypted, value: encryptedValue, unit: outcome.unit), encryptedRatio.map { String(format: "%.2f", $0) } ?? "n/a"]
    }

    private static func cell(_ outcome: ContenderOutcome?, value: Double?, unit: Workload.Unit) -> String {
        guard let outcome else { return "" }
        if outcome.error != nil { return "error" }
        if !outcome.applicable { return "n/a" }
        guard let value else { return "" }
        return format(value, unit: unit)
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
