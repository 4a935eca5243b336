import Foundation
import RealmObjects
import Synchronization
import Testing

// realm-swift v10.54.6's RealmSwift/Tests/RealmTests.swift, "Async Refresh"
// and "Async Writes" (testAsyncRefresh … testAsyncWriteTaskCancelledBefore-
// WriteCalled), ported.
//
// Adaptations:
// - `openRealm(actor:)` is `Realm(configuration:actor:)` on an in-memory
//   configuration of the test's own; `SwiftStringObject` is
//   `PortStringObject`.
// - `manuallyAdvancedRealm()` turns off Realm's background notifiers, and
//   `RLMRunAsyncNotifiers` runs them by hand, so that the tests can place
//   `asyncRefresh()` between a version the notifiers know and a newer
//   one. Here there are no background notifiers to hold back: a refresh
//   moves to the newest version and computes the changes then. The tests
//   keep what they check: `asyncRefresh()` returns true and the Realm sees
//   every write made before it, with an observer registered.
// - With autorefresh on, `asyncRefreshWaitsForLatest` cannot expect true:
//   the Realm may already have moved when it is called (see there).
// - A preconditionFailure is checked in a child process (`processExitsWith`).
// - `XCTestExpectation`s are a `Mutex`-guarded flag polled by the test.
//
// Not ported: `skip_testAsyncWriteTaskCancellationTiming`, which Realm skips.

@globalActor actor PortGlobalActor {
    static let shared = PortGlobalActor()
}

@Suite struct AsyncAwaitPortTests {
    static func configuration(_ name: String) -> Realm.Configuration {
        inMemoryConfiguration("async-await-\(name)", types: [PortStringObject.self])
    }

    /// Writes a string object through a Realm of another actor.
    static func writeElsewhere(_ configuration: Realm.Configuration, _ string: String = "string") async throws {
        try await Task { @PortGlobalActor in
            let realm = try await Realm(configuration: configuration, actor: PortGlobalActor.shared)
            try realm.write { _ = realm.create(PortStringObject.self, value: [string]) }
        }.value
    }

    // MARK: Async refresh

    @MainActor @Test func asyncRefresh() async throws {
        let configuration = Self.configuration(#function)
        let realm = try await Realm(configuration: configuration, actor: MainActor.shared)
        realm.autorefresh = false

        let results = realm.objects(PortStringObject.self)
        #expect(results.count == 0)
        var didRefresh = await realm.asyncRefresh()
        #expect(!didRefresh)

        try await Self.writeElsewhere(configuration)

        #expect(results.count == 0)
        didRefresh = await realm.asyncRefresh()
        #expect(didRefresh)
        #expect(results.count == 1)
    }

    @MainActor @Test(arguments: [true, false]) func asyncRefreshWaitsForLatest(autorefresh: Bool) async throws {
        let configuration = Self.configuration("\(#function)-\(autorefresh)")
        let realm = try await Realm(configuration: configuration, actor: MainActor.shared)
        realm.autorefresh = autorefresh
        let results = realm.objects(PortStringObject.self)
        let token = results.observe { _ in }
        #expect(results.count == 0)

        try await Self.writeElsewhere(configuration)
        try await Self.writeElsewhere(configuration)

        let didRefresh = await realm.asyncRefresh()
        // With autorefresh on, the other actor's commits may have moved
        // this Realm already (their notification runs on the main actor
        // whenever this task suspends), leaving nothing to refresh: Realm's
        // test holds its notifiers back by hand, which is not possible here.
        if !autorefresh { #expect(didRefresh) }
        #expect(results.count == 2)
        token.invalidate()
    }

    @MainActor @Test func asyncRefreshWithMultipleWaiters() async throws {
        let configuration = Self.configuration(#function)
        let realm = try await Realm(configuration: configuration, actor: MainActor.shared)
        let results = realm.objects(PortStringObject.self)
        let token = results.observe { _ in }
        #expect(results.count == 0)

        try await Self.writeElsewhere(configuration)
        let task = Task { @MainActor in
            await realm.asyncRefresh()
            return results.count
        }
        await realm.asyncRefresh()
        #expect(results.count == 1)
        // Both waiters were resumed.
        #expect(await task.value == 1)
        token.invalidate()
    }

    @Test func asyncRefreshOnQueueConfinedRealm() async {
        let refresh = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let queue = DispatchQueue(label: "port-queue")
            let realm = UncheckedBox(try! queue.sync { try Realm(configuration: Self.configuration("queue"), queue: queue) })
            await Task { @MainActor in _ = await realm.value.asyncRefresh() }.value
        }
        #expect(seedStandardError(refresh).contains("asyncRefresh() can only be called on main thread or actor-isolated Realms"))
        let write = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let queue = DispatchQueue(label: "port-queue")
            let realm = UncheckedBox(try! queue.sync { try Realm(configuration: Self.configuration("queue"), queue: queue) })
            await Task { @MainActor in _ = try? await realm.value.asyncWrite {} }.value
        }
        #expect(seedStandardError(write).contains("asyncWrite() can only be called on main thread or actor-isolated Realms"))
    }

    @MainActor @Test func asyncRefreshTaskCancellation() async throws {
        let configuration = Self.configuration(#function)
        let realm = try await Realm(configuration: configuration, actor: MainActor.shared)
        let results = realm.objects(PortStringObject.self)
        let token = results.observe { _ in }
        try await Self.writeElsewhere(configuration)

        // The task cannot start before this one suspends (both are the main
        // actor's), so it is cancelled by then.
        let task = Task { @MainActor in await realm.asyncRefresh() }
        task.cancel()
        #expect(await task.value == false)
        token.invalidate()
    }

    // MARK: Async writes

    @MainActor @Test func asyncWriteBasics() async throws {
        let realm = try await Realm(configuration: Self.configuration(#function), actor: MainActor.shared)
        let obj = try await realm.asyncWrite {
            #expect(realm.isInWriteTransaction)
            #expect(realm.isPerformingAsynchronousWriteOperations)
            return realm.create(PortStringObject.self, value: ["foo"])
        }
        #expect(!realm.isInWriteTransaction)
        #expect(!realm.isPerformingAsynchronousWriteOperations)
        #expect(realm.objects(PortStringObject.self).count == 1)
        #expect(obj.stringCol == "foo")
    }

    @MainActor @Test func asyncWriteCancel() async throws {
        let realm = try await Realm(configuration: Self.configuration(#function), actor: MainActor.shared)
        try await realm.asyncWrite {
            realm.create(PortStringObject.self, value: ["foo"])
            realm.cancelWrite()
            #expect(!realm.isInWriteTransaction)
        }
        #expect(realm.objects(PortStringObject.self).count == 0)
    }

    @MainActor @Test func asyncWriteBeginNewWriteAfterCancel() async throws {
        let realm = try await Realm(configuration: Self.configuration(#function), actor: MainActor.shared)
        try await realm.asyncWrite {
            realm.create(PortStringObject.self, value: ["foo"])
            realm.cancelWrite()
            realm.beginWrite()
            realm.create(PortStringObject.self, value: ["bar"])
        }
        let objects = realm.objects(PortStringObject.self)
        #expect(objects.count == 1)
        #expect(try #require(objects.first).stringCol == "bar")
    }

    @MainActor @Test func asyncWriteModifyExistingObject() async throws {
        let realm = try await Realm(configuration: Self.configuration(#function), actor: MainActor.shared)
        let obj = try await realm.asyncWrite {
            realm.create(PortStringObject.self, value: ["foo"])
        }
        try await realm.asyncWrite {
            obj.stringCol = "bar"
        }
        #expect(obj.stringCol == "bar")
    }

    struct Failure: Error, Equatable {}

    @MainActor @Test func asyncWriteCancelsOnThrow() async throws {
        let realm = try await Realm(configuration: Self.configuration(#function), actor: MainActor.shared)

        await #expect(throws: Failure()) {
            try await realm.asyncWrite {
                realm.create(PortStringObject.self, value: ["foo"])
                throw Failure()
            }
        }
        await #expect(throws: Failure()) {
            try await realm.asyncWrite {
                realm.create(PortStringObject.self, value: ["foo"])
                realm.cancelWrite()
                throw Failure()
            }
        }
        #expect(realm.objects(PortStringObject.self).count == 0)
        #expect(!realm.isInWriteTransaction)
    }

    @PortGlobalActor @Test func asyncWriteCustomGlobalActor() async throws {
        let realm = try await Realm(configuration: Self.configuration(#function), actor: PortGlobalActor.shared)
        let obj = try await realm.asyncWrite {
            realm.create(PortStringObject.self, value: ["foo"])
        }
        #expect(realm.objects(PortStringObject.self).count == 1)
        #expect(obj.stringCol == "foo")
        try await realm.asyncWrite {
            obj.stringCol = "bar"
        }
        #expect(obj.stringCol == "bar")
    }

    actor TestActor {
        var realm: Realm!
        var obj: PortStringObject?

        init(configuration: Realm.Configuration) async throws {
            realm = try await Realm(configuration: configuration, actor: self)
        }

        var count: Int { realm.objects(PortStringObject.self).count }
        var value: String? { obj?.stringCol }

        func create() async throws {
            obj = try await realm.asyncWrite {
                realm.create(PortStringObject.self, value: ["foo"])
            }
        }

        func modify() async throws {
            try await realm.asyncWrite {
                obj?.stringCol = "bar"
            }
        }

        func close() {
            realm = nil
            obj = nil
        }
    }

    @Test func asyncWriteCustomActor() async throws {
        let actor = try await TestActor(configuration: Self.configuration(#function))
        #expect(await actor.count == 0)

        try await actor.create()
        #expect(await actor.count == 1)
        #expect(await actor.value == "foo")

        try await actor.modify()
        #expect(await actor.count == 1)
        #expect(await actor.value == "bar")

        await actor.close()
    }

    /// Polls `flag` until it is set. The deadline only turns a hang into a
    /// failure: a machine busy with the other suites can be minutes late
    /// to run the other actor's task.
    static func waitUntil(_ flag: Flag) async throws {
        let deadline = ContinuousClock.now + .seconds(600)
        while !flag.isSet {
            try #require(ContinuousClock.now < deadline, "the other task never got ready")
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    @MainActor @Test func asyncWriteTaskCancellation() async throws {
        let configuration = Self.configuration(#function)
        let realm = try await Realm(configuration: configuration, actor: MainActor.shared)
        realm.beginWrite()

        let ready = Flag()
        let task = Task { @PortGlobalActor in
            let realm = try await Realm(configuration: configuration, actor: PortGlobalActor.shared)
            ready.set()
            try await realm.asyncWrite {
                Issue.record("Should not have been called")
            }
        }
        try await Self.waitUntil(ready)
        Task { @PortGlobalActor in
            // Cancelled from within its actor, so that it has surely
            // suspended in asyncWrite.
            task.cancel()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        realm.cancelWrite()
    }

    @MainActor @Test func asyncWriteTaskCancelledBeforeWriteCalled() async throws {
        let configuration = Self.configuration(#function)
        let realm = try await Realm(configuration: configuration, actor: MainActor.shared)
        realm.beginWrite()

        let ready = Flag()
        let task = Task { @PortGlobalActor in
            let realm = try await Realm(configuration: configuration, actor: PortGlobalActor.shared)
            ready.set()
            // Blocks until cancelWrite() below, so that the task is
            // cancelled before asyncWrite is called.
            realm.beginWrite()
            realm.cancelWrite()
            try await realm.asyncWrite {
                Issue.record("Should not have been called")
            }
        }
        try await Self.waitUntil(ready)
        task.cancel()
        realm.cancelWrite()

        await #expect(throws: CancellationError.self) { try await task.value }
    }
}

/// Carries a thread-confined value into a child process's task, where the
/// test means to misuse it.
struct UncheckedBox<Value>: @unchecked Sendable {
    // @unchecked: only the child processes of the precondition tests use
    // it, to reach the precondition on purpose.
    let value: Value
    init(_ value: Value) { self.value = value }
}
