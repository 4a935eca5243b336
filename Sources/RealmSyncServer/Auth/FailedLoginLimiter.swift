import Foundation
import Synchronization

/// Counts failed password attempts per username, and refuses a username
/// that failed ``limit`` times until ``window`` has passed since its first
/// failure: guessing passwords online costs a window per few guesses.
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

    /// The seconds to wait before `username` may try again, or nil if it
    /// may try now.
    func retryDelay(for username: String, now: Date = Date()) -> Int? {
        records.withLock { records in
            guard let record = records[username] else { return nil }
            let elapsed = now.timeIntervalSince(record.windowStart)
            if elapsed >= window {
                records[username] = nil
                return nil
            }
            return record.failures >= limit ? max(1, Int((window - elapsed).rounded(.up))) : nil
        }
    }

    func recordFailure(for username: String, now: Date = Date()) {
        records.withLock { records in
            if var record = records[username], now.timeIntervalSince(record.windowStart) < window {
                record.failures += 1
                records[username] = record
            } else {
                records[username] = Record(failures: 1, windowStart: now)
            }
            // Bounded memory under a flood of made-up usernames.
            if records.count > 100_000 {
                records = records.filter { now.timeIntervalSince($0.value.windowStart) < window }
            }
        }
    }

    func recordSuccess(for username: String) {
        _ = records.withLock { $0.removeValue(forKey: username) }
    }
}
