import Foundation
import Synchronization

/// Counts password attempts per username, and refuses a username that
/// failed ``limit`` times until ``window`` has passed since its first
/// failure: guessing passwords online costs a window per few guesses.
///
/// An attempt is counted when it begins (``beginAttempt(for:)``) and
/// forgiven when it succeeds, so that guesses sent in parallel cannot all
/// pass the check before any of them is counted.
final class FailedLoginLimiter: Sendable {
    private struct Record {
        var failures: Int
        var windowStart: Date
    }

    let limit: Int
    let window: TimeInterval
    private let records = Mutex<[String: Record]>([:])

    init(limit: Int, window: TimeInterval) {
        self.limit = limit
        self.window = window
    }

    /// Counts an attempt for `username` as failed until it succeeds; returns
    /// the seconds to wait instead when the username may not try now.
    func beginAttempt(for username: String) -> Int? {
        let now = Date()
        return records.withLock { records in
            var record = records[username] ?? Record(failures: 0, windowStart: now)
            let elapsed = now.timeIntervalSince(record.windowStart)
            if elapsed >= window {
                record = Record(failures: 0, windowStart: now)
            } else if record.failures >= limit {
                return max(1, Int((window - elapsed).rounded(.up)))
            }
            record.failures += 1
            records[username] = record
            // Bounded memory under a flood of made-up usernames.
            if records.count > 100_000 {
                records = records.filter { now.timeIntervalSince($0.value.windowStart) < window }
            }
            return nil
        }
    }

    /// Forgets the failures of `username`: its attempt succeeded, or its
    /// password was changed.
    func recordSuccess(for username: String) {
        _ = records.withLock { $0.removeValue(forKey: username) }
    }
}
