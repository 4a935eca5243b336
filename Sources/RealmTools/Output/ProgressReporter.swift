import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Shows how far long work has gone, on standard error: a bar redrawn in
/// place on a terminal, a plain line every tenth of the way otherwise (a
/// log or a pipe must not fill with carriage returns), nothing when quiet.
public final class ProgressReporter {
    /// How progress is shown.
    enum Style: Sendable {
        /// Redrawn in place, on a terminal.
        case bar
        /// A line each tenth of the way, in a pipe or a log.
        case lines
        /// Not at all.
        case quiet
    }

    private let label: String
    private let unit: String
    private let style: Style
    private var total: Int
    private var done = 0
    private var lastDraw = 0.0
    private var lastTenth = 0
    private var drewBar = false

    /// A reporter for work of `total` units (0 when unknown); the style
    /// follows whether standard error is a terminal unless `quiet`.
    public init(label: String, unit: String, total: Int, quiet: Bool) {
        self.label = label
        self.unit = unit
        self.total = total
        style = quiet ? .quiet : (isatty(STDERR_FILENO) == 1 ? .bar : .lines)
    }

    /// Records that the work has reached `done` units.
    public func update(_ done: Int) {
        self.done = done
        switch style {
        case .quiet:
            return
        case .bar:
            let now = Date.timeIntervalSinceReferenceDate
            guard now - lastDraw >= 0.1 else { return }
            lastDraw = now
            drawBar()
        case .lines:
            guard total > 0 else { return }
            let tenth = min(10, done * 10 / total)
            guard tenth > lastTenth else { return }
            lastTenth = tenth
            if tenth < 10 { emit("\(label): \(done) of \(total) \(unit) (\(tenth * 10)%)\n") }
        }
    }

    /// Ends the report with a summary line.
    public func finish(_ summary: String) {
        switch style {
        case .quiet:
            return
        case .bar:
            if drewBar { emit("\r\u{1B}[2K") }
            emit(summary + "\n")
        case .lines:
            emit(summary + "\n")
        }
    }

    /// Runs work whose progress cannot be measured (SQLite's VACUUM reports
    /// none): on a terminal, a line saying it is still going, with the
    /// time spent, redrawn each half second; otherwise nothing.
    @discardableResult
    public static func whileWorking<T, Failure: Error>(_ label: String, quiet: Bool, _ work: () throws(Failure) -> T) throws(Failure) -> T {
        guard !quiet, isatty(STDERR_FILENO) == 1 else { return try work() }
        let start = Date()
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "realm.progress"))
        timer.schedule(deadline: .now() + 0.5, repeating: 0.5)
        timer.setEventHandler {
            let seconds = Int(Date().timeIntervalSince(start))
            FileHandle.standardError.write(Data("\r\(label)… \(seconds) s".utf8))
        }
        timer.resume()
        defer {
            timer.cancel()
            FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
        }
        return try work()
    }

    /// Ends the report without a summary (the work failed, and its error
    /// follows): a bar is erased.
    public func abandon() {
        if style == .bar && drewBar { emit("\r\u{1B}[2K") }
    }

    private func drawBar() {
        drewBar = true
        let width = 30
        if total > 0 {
            let filled = min(width, done * width / max(total, 1))
            let percent = min(100, done * 100 / max(total, 1))
            emit("\r\(label) [" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                 + "] \(percent)% \(done)/\(total) \(unit)")
        } else {
            emit("\r\(label): \(done) \(unit)")
        }
    }

    private func emit(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
