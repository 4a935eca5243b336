import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This executable run again as a child process in one of its child roles,
/// with its output collected.
final class Child: @unchecked Sendable {
    let process = Process()
    let arguments: [String]
    private let output = Pipe()
    private let lock = NSLock()
    private var collected = Data()
    private let drained = DispatchSemaphore(value: 0)

    /// Starts `RealmReliability ROLE ARGUMENTS...`.
    init(_ arguments: [String]) throws {
        self.arguments = arguments
        process.executableURL = URL(fileURLWithPath: Self.executablePath)
        process.arguments = arguments
        // A crash is a finding, not a report to read: its message is enough.
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let handle = output.fileHandleForReading
        let thread = Thread { [lock, drained, weak self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.lock()
                self?.collected.append(chunk)
                lock.unlock()
            }
            drained.signal()
        }
        thread.start()
        try process.run()
    }

    static let executablePath: String = {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }()

    var pid: pid_t { process.processIdentifier }

    /// Everything the child printed so far.
    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: collected, as: UTF8.self)
    }

    /// The lines the child printed so far (a line cut short by a kill is not
    /// a line).
    var completeLines: [Substring] {
        let text = self.text
        guard let end = text.lastIndex(of: "\n") else { return [] }
        return text[..<end].split(separator: "\n")
    }

    func kill() {
        sendSIGKILL(to: pid)
    }

    enum Ending: CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        case hung

        var description: String {
            switch self {
            case .exited(let status): "exit \(status)"
            case .signalled(let signal): "signal \(signal) (\(String(cString: strsignal(signal))))"
            case .hung: "no end within the time limit (killed)"
            }
        }
    }

    /// Waits for the child to end, killing it after `timeout`.
    func wait(timeout: Duration) -> Ending {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                kill()
                process.waitUntilExit()
                drained.wait()
                return .hung
            }
            usleep(2_000)
        }
        process.waitUntilExit()
        drained.wait()
        switch process.terminationReason {
        case .exit: return .exited(process.terminationStatus)
        case .uncaughtSignal: return .signalled(process.terminationStatus)
        @unknown default: return .exited(process.terminationStatus)
        }
    }
}

/// `kill(2)`, out of `Child`, whose own `kill()` would shadow it.
private func sendSIGKILL(to pid: pid_t) {
    _ = kill(pid, SIGKILL)
}
