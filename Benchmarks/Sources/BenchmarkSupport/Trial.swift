import Foundation

/// One run of one workload by one contender: the measured operation, with
/// everything it needs already set up.
///
/// A contender's workload method does the setup (creating a fresh file,
/// populating it) before it returns; the harness then times ``body`` alone,
/// reads ``result()`` outside the timed region and compares it with
/// ``expected``, so that a contender that skipped work fails loudly rather
/// than winning.
public struct Trial {
    /// What the harness runs.
    public enum Body {
        /// An operation the harness times from start to end.
        case timed(() throws -> Void)
        /// An operation that measures itself and returns its samples (in
        /// seconds, or in bytes for memory), for figures a single stopwatch
        /// cannot give: per-commit notification latencies, a child
        /// process's peak memory.
        case samples(() throws -> [Double])
    }

    /// The measured part.
    public let body: Body
    /// What the operation found or left behind (counts, sums), read after
    /// the measurement and compared with ``expected``.
    public let result: () throws -> [Int]
    /// The values ``result()`` must return; set by the workload, which
    /// knows the data, not by the contender.
    public var expected: [Int] = []
    /// A directory the harness deletes once the trial (and every database
    /// handle its closures hold) has been released.
    public let scratchDirectory: URL?

    /// A trial the harness times.
    ///
    /// - Parameters:
    ///   - scratchDirectory: deleted after the trial is released.
    ///   - measure: the operation to time; nothing else.
    ///   - result: counts or sums that prove the work was done, computed
    ///     after the measurement (untimed) or captured during it.
    public init(scratchDirectory: URL? = nil, measure: @escaping () throws -> Void, result: @escaping () throws -> [Int]) {
        self.body = .timed(measure)
        self.result = result
        self.scratchDirectory = scratchDirectory
    }

    /// A trial that reports its own samples.
    public init(scratchDirectory: URL? = nil, samples: @escaping () throws -> [Double], result: @escaping () throws -> [Int]) {
        self.body = .samples(samples)
        self.result = result
        self.scratchDirectory = scratchDirectory
    }

    /// This trial, checked against `values`.
    public func expecting(_ values: [Int]) -> Trial {
        var trial = self
        trial.expected = values
        return trial
    }
}

/// A value captured during a measurement for the check after it.
///
/// The measured closures sum what they read into one of these, so that the
/// compiler cannot drop the reads and the harness can compare the sum with
/// the expected one.
public final class Tally {
    public var values: [Int]

    public init(_ count: Int = 1) {
        values = Array(repeating: 0, count: count)
    }

    public var value: Int {
        get { values[0] }
        set { values[0] = newValue }
    }
}
