import Foundation
import RealmObjects
import Testing

// Helpers for the seed-sample tests (Seed*Tests.swift).

/// Carries a value that is not `Sendable` (a managed object, a Realm) to
/// another thread, for the tests that check what happens when a confined
/// value is used there.
struct SeedUnchecked<Value>: @unchecked Sendable {
    // @unchecked: used only to hand a value to a thread that must (or, in
    // the confinement tests, must not) use it; the tests wait for that thread.
    let value: Value
}

/// Runs `body` on a new thread and waits for it to finish.
func seedRunOnThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    done.wait()
}

/// Waits until `condition` holds, looking every 10 ms, for at most
/// `timeout`: a deadline rather than a number of naps, which a loaded
/// machine stretches (an actor's deliveries once waited past 5 s in CI).
func waitUntil(timeout: Duration = .seconds(60), _ condition: () async -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline, !(await condition()) {
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// What an exit test's child process wrote to its standard error.
func seedStandardError(_ result: ExitTest.Result?) -> String {
    String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

/// A check inside an exit test's child process that is expected to exit
/// successfully: a failed check stops the child with `message`, so the
/// parent's `.success` expectation fails and shows it.
func seedCheck(_ condition: @autoclosure () -> Bool, _ message: String) {
    if !condition() {
        FileHandle.standardError.write(Data("seed check failed: \(message)\n".utf8))
        exit(2)
    }
}

/// A list that several threads append to at once.
final class SeedLog: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var stored: [String] = []

    func append(_ entry: String) {
        lock.withLock { stored.append(entry) }
    }

    var entries: [String] {
        lock.withLock { stored }
    }
}
