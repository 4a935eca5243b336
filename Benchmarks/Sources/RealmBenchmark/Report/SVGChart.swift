import Foundation

/// A horizontal bar chart of realm's ratios (realm/grdb and realm/sqlite)
/// per workload, written by hand as SVG.
///
/// The axis is logarithmic, so that 0.5x and 2x are as far from 1x, and
/// bars grow from 1x: to the left realm is faster, to the right slower.
/// Vertical lines mark the budgets, 1.0 and 1.3.
enum SVGChart {
    private static let width = 980.0
    private static let labelWidth = 250.0
    private static let plotLeft = 270.0
    private static let plotRight = 940.0
    private static let top = 84.0
    private static let rowHeight = 34.0
    private static let barHeight = 12.0
    private static let grdbColor = "#4e79a7"
    private static let sqliteColor = "#f28e2b"

    static func render(_ outcomes: [WorkloadOutcome], environment: RunEnvironment) -> String {
        let rows = outcomes.filter { $0.realmOverGRDB != nil || $0.realmOverSQLite != nil }
        let ratios = rows.flatMap { [$0.realmOverGRDB?.median, $0.realmOverSQLite?.median].compactMap { $0 } }
        // A domain of whole decades that holds every ratio and 0.1...10.
        let low = pow(10, min(-1, floor(log10(ratios.min() ?? 1) - 0.05)))
        let high = pow(10, max(1, ceil(log10(ratios.max() ?? 1) + 0.05)))
        func x(_ ratio: Double) -> Double {
            let clamped = min(max(ratio, low), high)
            return plotLeft + (log10(clamped) - log10(low)) / (log10(high) - log10(low)) * (plotRight - plotLeft)
        }
        let height = top + Double(rows.count) * rowHeight + 56

        var svg: [String] = []
        svg.append(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" viewBox="0 0 \##(Int(width)) \##(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">"##)
        svg.append(##"<rect width="100%" height="100%" fill="white"/>"##)
        let mode = environment.quick ? "quick" : "full"
        svg.append(text(x: 16, y: 24, "realm's time over GRDB's and over raw SQLite's (median, \(mode) mode, \(environment.date))", size: 15, weight: "bold"))
        svg.append(text(x: 16, y: 44, "project \(environment.projectRevision), SQLite \(environment.sqliteVersion), journal_mode = \(environment.journalMode), synchronous = \(environment.synchronous); log scale; left of 1 realm is faster", size: 11, fill: "#555"))
        // Legend.
        svg.append(##"<rect x="16" y="56" width="12" height="12" fill="\##(grdbColor)"/>"##)
        svg.append(text(x: 34, y: 66, "realm / grdb"))
        svg.append(##"<rect x="130" y="56" width="12" height="12" fill="\##(sqliteColor)"/>"##)
        svg.append(text(x: 148, y: 66, "realm / sqlite"))
        svg.append(text(x: 260, y: 66, "over budget: name in red", fill: "#c0392b"))

        // Grid: 1, 2 and 5 of every decade.
        let plotBottom = top + Double(rows.count) * rowHeight
        var tick = low
        while tick <= high * 1.0001 {
            for multiple in [1.0, 2.0, 5.0] where tick * multiple <= high * 1.0001 {
                let value = tick * multiple
                let position = x(value)
                svg.append(##"<line x1="\##(f(position))" y1="\##(f(top - 6))" x2="\##(f(position))" y2="\##(f(plotBottom))" stroke="#e4e4e4"/>"##)
                svg.append(text(x: position, y: plotBottom + 16, label(value), anchor: "middle", fill: "#666"))
            }
            tick *= 10
        }

        // The rows.
        for (index, outcome) in rows.enumerated() {
            let y = top + Double(index) * rowHeight
            if index % 2 == 1 {
                svg.append(##"<rect x="8" y="\##(f(y))" width="\##(f(width - 16))" height="\##(f(rowHeight))" fill="#f7f7f7"/>"##)
            }
            let over = outcome.withinBudget == false
            svg.append(text(x: labelWidth, y: y + rowHeight / 2 + 4, outcome.name, anchor: "end",
                            fill: over ? "#c0392b" : "#222", weight: over ? "bold" : "normal"))
            for (offset, ratio, color) in [(5.0, outcome.realmOverGRDB?.median, grdbColor), (5.0 + barHeight + 2, outcome.realmOverSQLite?.median, sqliteColor)] {
                guard let ratio else { continue }
                let start = x(1), end = x(ratio)
                let left = min(start, end), barWidth = max(abs(end - start), 1)
                svg.append(##"<rect x="\##(f(left))" y="\##(f(y + offset))" width="\##(f(barWidth))" height="\##(f(barHeight))" fill="\##(color)"/>"##)
                let textX = ratio >= 1 ? end + 4 : end - 4
                svg.append(text(x: textX, y: y + offset + barHeight - 2, String(format: "%.2f×", ratio),
                                anchor: ratio >= 1 ? "start" : "end", size: 10, fill: "#333"))
            }
        }

        // Budget lines over the bars.
        svg.append(##"<line x1="\##(f(x(1)))" y1="\##(f(top - 10))" x2="\##(f(x(1)))" y2="\##(f(plotBottom))" stroke="#222" stroke-width="1.5"/>"##)
        svg.append(text(x: x(1), y: top - 14, "1.0", anchor: "middle", weight: "bold"))
        svg.append(##"<line x1="\##(f(x(1.3)))" y1="\##(f(top - 10))" x2="\##(f(x(1.3)))" y2="\##(f(plotBottom))" stroke="#c0392b" stroke-width="1.5" stroke-dasharray="5,3"/>"##)
        svg.append(text(x: x(1.3), y: top - 14, "1.3", anchor: "start", fill: "#c0392b", weight: "bold"))
        svg.append(text(x: 16, y: plotBottom + 40,
                        "Budgets (SPEC §8): realm/grdb ≤ 1.0 everywhere; realm/sqlite ≤ 1.3 for SQLite-bound workloads, ≤ 1.1 where GRDB runs at the floor.",
                        size: 11, fill: "#555"))
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    /// A text, haloed in white so that it stays legible over grid and
    /// budget lines.
    private static func text(x: Double, y: Double, _ content: String, anchor: String = "start",
                             size: Double = 12, fill: String = "#222", weight: String = "normal") -> String {
        ##"<text x="\##(f(x))" y="\##(f(y))" text-anchor="\##(anchor)" font-size="\##(f(size))" fill="\##(fill)" font-weight="\##(weight)" stroke="white" stroke-width="3" paint-order="stroke">\##(escaped(content))</text>"##
    }

    private static func label(_ value: Double) -> String {
        String(format: "%g×", value)
    }

    private static func f(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;")
            .replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
