import Foundation

/// The actor a Realm opened with ``Realm/init(configuration:actor:downloadBeforeOpen:)``
/// belongs to: it may be used by code isolated to that actor, whatever
/// thread runs it, and its notifications run on the actor.
final class ActorConfinement: Sendable {
    let actor: any Actor
    private let executor: UnownedSerialExecutor

    init(_ actor: any Actor) {
        self.actor = actor
        executor = actor.unownedExecutor
    }

    /// Whether the calling code runs isolated to the actor.
    var isCurrent: Bool {
        currentExecutorIs(executor)
    }

    /// Runs `body` isolated to the actor, later.
    func enqueue(_ body: @escaping @Sendable () -> Void) {
        let actor = actor
        Task { await Self.run(body, on: actor) }
    }

    private static func run(_ body: @Sendable () -> Void, on actor: isolated any Actor) {
        body()
    }

    var description: String {
        "the actor \(type(of: actor))"
    }
}

/// Whether the calling code runs on `executor`: the Swift runtime's own
/// test, which `preconditionIsolated()` makes before stopping.
///
/// Swift has no public Boolean form of it, and a Realm must answer "is
/// this its actor?" on every access, and without stopping where the answer
/// may be no (a notification token released on another thread). The
/// runtime exports the test (`swift_task_isCurrentExecutorWithFlags`, asked
/// here with no flags: answer, never stop); declaring it with
/// `@_silgen_name` clashes with the standard library's own internal
/// declaration, so it is looked up once by name. Its Swift calling
/// convention passes the executor's two words and the flags, and returns
/// the Boolean, as the C convention does on the 64-bit platforms Swift
/// runs on Linux. Should the runtime not export it, every access is taken
/// as isolated, and Swift 6's compile-time checks remain.
private func currentExecutorIs(_ executor: UnownedSerialExecutor) -> Bool {
    guard let test = executorTest else { return true }
    let words = unsafeBitCast(executor, to: (UInt, UInt).self)
    return test(words.0, words.1, 0)
}

private let executorTest: (@convention(c) (UInt, UInt, UInt64) -> Bool)? = {
    guard MemoryLayout<UnownedSerialExecutor>.size == MemoryLayout<(UInt, UInt)>.size,
          let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "swift_task_isCurrentExecutorWithFlags") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UInt, UInt, UInt64) -> Bool).self)
}()
