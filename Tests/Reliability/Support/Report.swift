import Foundation

/// What a family did and what went wrong, printed as it goes and summed up
/// at the end in one line that the tests read:
/// `RESULT family=NAME seed=S cases=N failures=F figures...`.
final class Report: @unchecked Sendable {
    let family: String
    let seed: UInt64
    private(set) var cases = 0
    private(set) var failures: [String] = []
    private var figures: [(String, String)] = []
    private let lock = NSLock()

    init(family: String, seed: UInt64) {
        self.family = family
        self.seed = seed
    }

    func countCase(_ n: Int = 1) {
        lock.lock()
        cases += n
        lock.unlock()
    }

    /// Records a failure; `replay` says how to run the failing case alone.
    func fail(_ message: String) {
        lock.lock()
        failures.append(message)
        lock.unlock()
        FileHandle.standardError.write(Data("FAILURE [\(family)] \(message)\n".utf8))
    }

    func figure(_ name: String, _ value: CustomStringConvertible) {
        lock.lock()
        figures.removeAll { $0.0 == name }
        figures.append((name, value.description))
        lock.unlock()
    }

    func finish() -> Int32 {
        let rest = figures.map { "\($0.0)=\($0.1)" }.joined(separator: " ")
        say("RESULT family=\(family) seed=\(seed) cases=\(cases) failures=\(failures.count) \(rest)")
        for failure in failures.prefix(20) {
            say("  failure: \(failure)")
        }
        return failures.isEmpty ? 0 : 1
    }
}

/// Counts of outcomes by name, shared by the workers of a family.
final class Tally: @unchecked Sendable, CustomStringConvertible {
    private var counts: [String: Int] = [:]
    private let lock = NSLock()

    func add(_ name: String, _ n: Int = 1) {
        lock.lock()
        counts[name, default: 0] += n
        lock.unlock()
    }

    subscript(name: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return counts[name] ?? 0
    }

    var description: String {
        lock.lock()
        defer { lock.unlock() }
        return counts.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
    }
}
