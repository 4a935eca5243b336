import Foundation
@testable import RealmSync
import Testing

/// A session's lifecycle, checked over every sequence of calls and reports
/// up to a length: the state space is small, so it is enumerated rather
/// than sampled.
@Suite struct SessionLifecycleTests {
    /// A call of an owner (start, suspend, resume, log out, end) or a
    /// report of the worker (a run bound or lost its connection).
    enum Step: CaseIterable {
        case start, suspend, resume, logOut, end
        case bindWanted, bindSuperseded, unbindBound, unbindSuperseded
    }

    /// What the checker remembers along one sequence.
    struct Trace {
        var lifecycle = SessionLifecycle()
        /// Every run that was wanted once and no longer is.
        var abandoned: Set<UInt64> = []
        var highestRun: UInt64 = 0
        var steps: [Step] = []
    }

    static let length = 6

    @Test func everySequenceOfCallsKeepsTheInvariants() {
        var sequences = 0
        var failures: [String] = []
        func explore(_ trace: Trace, depth: Int) {
            sequences += 1
            guard depth < Self.length, failures.count < 10 else { return }
            for step in Step.allCases {
                var next = trace
                if let failure = Self.apply(step, to: &next) {
                    failures.append("\(next.steps.map { "\($0)" }.joined(separator: " → ")): \(failure)")
                    continue
                }
                explore(next, depth: depth + 1)
            }
        }
        explore(Trace(), depth: 0)
        #expect(sequences > 500_000)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// Applies `step`, then checks every invariant; what broke, if any.
    static func apply(_ step: Step, to trace: inout Trace) -> String? {
        let before = trace.lifecycle
        trace.steps.append(step)
        var bindResult: Bool?
        switch step {
        case .start: trace.lifecycle.start()
        case .suspend: trace.lifecycle.suspend()
        case .resume: trace.lifecycle.resume()
        case .logOut: _ = trace.lifecycle.logOut(SyncError(.clientUserError, "logged out"), accessToken: nil)
        case .end: _ = trace.lifecycle.end(SyncError(.clientSessionError, "ended"))
        case .bindWanted:
            guard let run = before.wantedRun else { return nil }
            bindResult = trace.lifecycle.bind(run: run)
            guard bindResult == true else { return "the wanted run \(run) could not bind" }
        case .bindSuperseded:
            guard let run = trace.abandoned.max() else { return nil }
            bindResult = trace.lifecycle.bind(run: run)
            guard bindResult == false else { return "superseded run \(run) bound" }
        case .unbindBound:
            guard let run = before.boundRun else { return nil }
            trace.lifecycle.unbind(run: run)
        case .unbindSuperseded:
            guard let run = trace.abandoned.max() else { return nil }
            trace.lifecycle.unbind(run: run)
            guard trace.lifecycle.boundRun == before.boundRun else { return "a superseded run's report unbound run \(before.boundRun ?? 0)" }
        }
        let after = trace.lifecycle
        // Runs: a new one has a new, higher number; one given up never
        // comes back.
        if let old = before.wantedRun, after.wantedRun != old { trace.abandoned.insert(old) }
        if let run = after.wantedRun {
            if trace.abandoned.contains(run) { return "abandoned run \(run) is wanted again" }
            if run != before.wantedRun, run <= trace.highestRun { return "run \(run) is not new" }
            trace.highestRun = max(trace.highestRun, run)
        }
        // Only the wanted run is bound; the state says what was asked.
        if let bound = after.boundRun, bound != after.wantedRun { return "run \(bound) is bound, run \(after.wantedRun.map(String.init) ?? "none") wanted" }
        if after.suspended, after.state == .active { return "suspended but active" }
        if before.isEnded, !after.isEnded || after.state != .invalid { return "an ended session came back: \(after.state)" }
        if after.isEnded, after.wantedRun != nil || after.boundRun != nil { return "an ended session still runs" }
        if before.dying != nil, !after.isEnded, after.state != .dying { return "a dying session became \(after.state)" }
        if step == .suspend, !after.isEnded, after.state != (after.dying == nil ? .inactive : .dying) {
            return "suspend() left the state \(after.state)"
        }
        if step == .resume, before.suspended, !after.isEnded, after.wantedRun == nil { return "resume() started nothing" }
        if step == .start, before.suspended, after.wantedRun != nil { return "start() undid a suspension" }
        return nil
    }
}
