import Foundation
import RealmCore

/// Realm 10's asynchronous writes: a write is queued and runs later on the
/// Realm's own thread or queue, so that the caller goes on.
///
/// ```swift
/// realm.writeAsync {
///     realm.add(Dog(value: ["name": "Rex"]))
/// } onComplete: { error in
///     // on the Realm's thread, after the commit
/// }
/// ```
///
/// The writes run in the order they were queued, each in its own write
/// transaction. They need a thread that runs its run loop, the main
/// thread, or a Realm confined to a queue (`Realm(configuration:queue:)`).
///
/// Unlike Realm on Apple platforms, waiting for another process's write
/// lock happens on the Realm's thread, when the queued write starts: the
/// caller of `writeAsync` never waits, but the thread later may.
extension Realm {
    /// Identifies a queued asynchronous write (or a commit's callback), for
    /// ``cancelAsyncWrite(_:)``.
    public typealias AsyncTransactionId = UInt32

    /// Queues `block` to run in a write transaction on the Realm's thread,
    /// committed after it returns (unless the block cancels or commits the
    /// write itself); `onComplete` then gets nil, or the commit's error.
    @discardableResult
    public func writeAsync(_ block: @escaping () -> Void, onComplete: ((Swift.Error?) -> Void)? = nil) -> AsyncTransactionId {
        beginAsyncWrite {
            block()
            guard self.isInWriteTransaction else { return }
            self.commitAsyncWrite(onComplete)
        }
    }

    /// Queues `asyncWriteBlock` to run inside a write transaction on the
    /// Realm's thread. The block ends the write with
    /// ``commitAsyncWrite(allowGrouping:_:)`` or `cancelWrite()`; a write
    /// it leaves open is cancelled.
    @discardableResult
    public func beginAsyncWrite(_ asyncWriteBlock: @escaping () -> Void) -> AsyncTransactionId {
        verifyThread()
        verifyNotFrozen()
        let id = state.asyncWrites.enqueue(asyncWriteBlock)
        scheduleAsyncWork()
        return id
    }

    /// Commits the write transaction now and calls `onComplete` with nil or
    /// the commit's error on the Realm's thread afterwards. (Realm commits
    /// in the background, and `allowGrouping` lets it group commits; here
    /// the commit is synchronous, so grouping has nothing to do.)
    @discardableResult
    public func commitAsyncWrite(allowGrouping: Bool = false, _ onComplete: ((Swift.Error?) -> Void)? = nil) -> AsyncTransactionId {
        verifyThread()
        precondition(isInWriteTransaction, "Can't commit a non-existing write transaction.")
        var failure: Swift.Error?
        do {
            try commitWrite()
        } catch {
            failure = error
        }
        let id = state.asyncWrites.enqueueCompletion(onComplete.map { callback in { callback(failure) } } ?? {})
        scheduleAsyncWork()
        return id
    }

    /// Removes a queued write that has not started, or a completion not
    /// yet called; does nothing for one already done.
    public func cancelAsyncWrite(_ asyncTransactionId: AsyncTransactionId) throws {
        verifyThread()
        state.asyncWrites.cancel(asyncTransactionId)
    }

    /// Whether queued writes or completions are still to run, or an
    /// `asyncWrite` call waits or runs.
    public var isPerformingAsynchronousWriteOperations: Bool {
        verifyThread()
        return !state.asyncWrites.isEmpty || state.asyncWriteCallsInFlight > 0
    }

    /// Runs the queue's next item on the Realm's thread, later.
    private func scheduleAsyncWork() {
        guard state.asyncWrites.claimSchedule() else { return }
        let realm = UncheckedSendable(self)
        let step: @Sendable () -> Void = { realm.value.runAsyncWork() }
        switch state.confinement {
        case .queue(_, let queue):
            queue.async(execute: step)
        case .thread where Thread.isMainThread:
            DispatchQueue.main.async(execute: step)
        case .thread:
            RunLoop.current.add(Timer(timeInterval: 0, repeats: false) { _ in step() }, forMode: .default)
        case .actor(let confinement):
            confinement.enqueue(step)
        case .frozen:
            preconditionFailure("Can't perform transactions on a frozen Realm (at '\(configuration.identity)').")
        }
    }

    /// Runs every queued item: completions first (their commits came
    /// first), then the writes in order.
    private func runAsyncWork() {
        state.asyncWrites.releaseSchedule()
        // A synchronous write still open: the queued ones wait for it.
        guard !isInWriteTransaction else {
            scheduleAsyncWork()
            return
        }
        state.asyncWrites.isRunning = true
        defer { state.asyncWrites.isRunning = false }
        while let item = state.asyncWrites.next() {
            switch item {
            case .completion(let callback):
                callback()
            case .write(let block):
                beginWrite()
                block()
                // A write the block left open is not committed for it.
                if isInWriteTransaction { cancelWrite() }
            }
        }
    }
}

/// The asynchronous writes of one Realm, used on its thread only.
struct AsyncWriteQueue {
    enum Item {
        case write(() -> Void)
        case completion(() -> Void)
    }

    private var items: [(id: Realm.AsyncTransactionId, item: Item)] = []
    private var nextId: Realm.AsyncTransactionId = 1
    private var scheduled = false

    /// Whether a queued write or completion is running now.
    var isRunning = false

    var isEmpty: Bool { items.isEmpty && !isRunning }

    mutating func enqueue(_ block: @escaping () -> Void) -> Realm.AsyncTransactionId {
        defer { nextId &+= 1 }
        items.append((nextId, .write(block)))
        return nextId
    }

    /// A completion runs before the writes still waiting: its commit came
    /// first.
    mutating func enqueueCompletion(_ callback: @escaping () -> Void) -> Realm.AsyncTransactionId {
        defer { nextId &+= 1 }
        let position = items.firstIndex { if case .write = $0.item { true } else { false } } ?? items.count
        items.insert((nextId, .completion(callback)), at: position)
        return nextId
    }

    mutating func cancel(_ id: Realm.AsyncTransactionId) {
        items.removeAll { $0.id == id }
    }

    mutating func next() -> Item? {
        items.isEmpty ? nil : items.removeFirst().item
    }

    /// Whether the caller should schedule a run: not when one is pending.
    mutating func claimSchedule() -> Bool {
        guard !scheduled else { return false }
        scheduled = true
        return true
    }

    mutating func releaseSchedule() {
        scheduled = false
    }
}
