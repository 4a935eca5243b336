import Dispatch
import Foundation

/// How much a family does: the CI size, run by `swift test` with fixed
/// seeds, or the large size run by hand (`RELIABILITY=full`).
enum Size: String {
    case ci, full

    /// A family's number of cases at this size, unless `RELIABILITY_CASES`
    /// sets it.
    func cases(ci: Int, full: Int) -> Int {
        Int(ProcessInfo.processInfo.environment["RELIABILITY_CASES"] ?? "") ?? (self == .full ? full : ci)
    }

    /// A family's duration at this size, unless `RELIABILITY_SECONDS` sets it.
    func seconds(ci: Double, full: Double) -> Double {
        Double(ProcessInfo.processInfo.environment["RELIABILITY_SECONDS"] ?? "") ?? (self == .full ? full : ci)
    }
}

/// The one case to run when replaying (`--case N`), or nil for all.
nonisolated(unsafe) var onlyCase: Int?

/// Runs `body(index)` for each case, two at a time (the machines this runs
/// on have two cores; the children do the work).
func parallelCases(_ count: Int, workers: Int = 2, _ body: @escaping @Sendable (Int) -> Void) {
    if let onlyCase {
        body(onlyCase)
        return
    }
    let next = NSLock()
    nonisolated(unsafe) var cursor = 0
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
        while true {
            next.lock()
            let index = cursor
            cursor += 1
            next.unlock()
            guard index < count else { return }
            body(index)
        }
    }
}
