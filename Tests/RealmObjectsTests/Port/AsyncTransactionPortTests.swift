import Foundation
import RealmObjects
import Testing

// realm-swift v10.54.6's RealmSwift/Tests/RealmTests.swift, the
// asynchronous transactions (testAsyncTransactionShouldWrite …
// testAsyncTransactionShouldChangeExistingObject), ported.
//
// Adaptations: Realm's tests run on the main thread and wait for
// expectations, which runs its run loop; here each test runs its Realm on
// the test's thread and spins that thread's run loop (where the queued
// writes and their completions run) until what was expected happened, or
// for a moment for an inverted expectation. `DispatchQueue.main.async`
// blocks run inline (there is no main run loop under the test runner); the
// Realm is in memory; `SwiftStringObject` is `PortStringObject`;
// notifications are delivered by `refresh()`.
//
// The async parts after these (testAsyncRefresh…, testAsyncWrite…) are
// in AsyncAwaitPortTests.

@Suite struct AsyncTransactionPortTests {
    private func realm(_ name: String = #function) throws -> Realm {
        try Realm(configuration: inMemoryConfiguration(name, types: [PortStringObject.self]))
    }

    /// Spins this thread's run loop until `condition` holds (true) or ten
    /// seconds pass (false).
    @discardableResult
    private func spin(until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { return false }
            turnRunLoop()
        }
        return true
    }

    /// Spins this thread's run loop for a moment: what an inverted
    /// expectation waits for.
    private func spinAMoment() {
        let deadline = Date().addingTimeInterval(0.3)
        while Date() < deadline { turnRunLoop() }
    }

    /// Runs the run loop once, for up to 5 ms; a loop with nothing
    /// scheduled returns at once, so the thread sleeps instead.
    private func turnRunLoop() {
        if !RunLoop.current.run(mode: .default, before: Date().addingTimeInterval(0.005)) {
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    private func strings(_ realm: Realm) -> [String] {
        realm.objects(PortStringObject.self).map(\.stringCol)
    }

    @Test func asyncTransactionShouldWrite() throws {
        let realm = try realm()
        var complete = false
        realm.writeAsync {
            realm.create(PortStringObject.self, value: ["string"])
        } onComplete: { _ in
            #expect(realm.objects(PortStringObject.self).first?.stringCol == "string")
            complete = true
        }
        #expect(spin { complete })
    }

    @Test func asyncTransactionShouldWriteOnCommit() throws {
        let realm = try realm()
        var complete = false
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["string"])
            realm.commitAsyncWrite { _ in
                #expect(realm.objects(PortStringObject.self).first?.stringCol == "string")
                complete = true
            }
        }
        #expect(spin { complete })
        #expect(realm.objects(PortStringObject.self).count == 1)
    }

    @Test func asyncTransactionShouldCancel() throws {
        let realm = try realm()
        var complete = false
        let asyncTransactionId = realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["string"])
            realm.commitAsyncWrite { _ in complete = true }
        }
        try realm.cancelAsyncWrite(asyncTransactionId)
        spinAMoment()
        #expect(!complete)
        #expect(realm.objects(PortStringObject.self).first == nil)
    }

    @Test func asyncTransactionShouldCancelWithoutCommit() throws {
        let realm = try realm()
        #expect(realm.objects(PortStringObject.self).first == nil)
        var ran = false
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["string"])
            ran = true
        }
        #expect(spin { ran })
        #expect(spin { !realm.isPerformingAsynchronousWriteOperations })
        #expect(realm.objects(PortStringObject.self).first == nil)
    }

    @Test func asyncTransactionShouldNotAutoCommitOnCanceledTransaction() throws {
        let realm = try realm()
        var complete = false
        let transactionId = realm.writeAsync({
            realm.create(PortStringObject.self, value: ["string"])
        }, onComplete: { _ in
            complete = true
        })
        try realm.cancelAsyncWrite(transactionId)
        spinAMoment()
        #expect(!complete)
        #expect(realm.objects(PortStringObject.self).first == nil)
    }

    @Test func asyncTransactionShouldAutorefresh() throws {
        let realm = try realm()
        realm.autorefresh = false
        var fired = false
        var token: NotificationToken?
        token = realm.observe { _, _ in
            token?.invalidate()
            fired = true
        }
        let results = realm.objects(PortStringObject.self)
        #expect(results.count == 0)
        realm.writeAsync {
            realm.create(PortStringObject.self, value: ["string"])
        }
        #expect(spin { fired })
        #expect(results.count == 1)
        realm.refresh()
        #expect(results.count == 1)
        #expect(results[0].stringCol == "string")
    }

    @Test func asyncTransactionSyncCommit() throws {
        let realm = try realm()
        #expect(realm.objects(PortStringObject.self).count == 0)
        var complete = false
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["string"])
            realm.commitAsyncWrite(allowGrouping: true) { _ in complete = true }
        }
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["string 2"])
            realm.commitAsyncWrite()
        }
        #expect(spin { complete && !realm.isPerformingAsynchronousWriteOperations })
        #expect(realm.objects(PortStringObject.self).count == 2)
    }

    @Test func asyncTransactionSyncAfterAsyncWithoutCommit() throws {
        let realm = try realm()
        #expect(realm.objects(PortStringObject.self).count == 0)
        var ran = false
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["string"])
            ran = true
        }
        try realm.write {
            realm.create(PortStringObject.self, value: ["string 2"])
        }
        #expect(spin { ran && !realm.isPerformingAsynchronousWriteOperations })
        #expect(realm.objects(PortStringObject.self).count == 1)
        #expect(realm.objects(PortStringObject.self).first?.stringCol == "string 2")
    }

    @Test func asyncTransactionWriteWithSync() throws {
        let realm = try realm()
        #expect(realm.objects(PortStringObject.self).count == 0)
        try realm.write {
            realm.create(PortStringObject.self, value: ["string"])
        }
        var complete = false
        realm.beginWrite()
        realm.create(PortStringObject.self, value: ["string 2"])
        realm.commitAsyncWrite { _ in complete = true }
        #expect(spin { complete })
        #expect(realm.objects(PortStringObject.self).count == 2)
    }

    @Test func asyncTransactionMixedWithSync() throws {
        let realm = try realm()
        #expect(realm.objects(PortStringObject.self).count == 0)
        var complete = false
        realm.writeAsync {
            realm.create(PortStringObject.self, value: ["string"])
        }
        realm.writeAsync {
            realm.create(PortStringObject.self, value: ["string 2"])
        } onComplete: { _ in
            complete = true
        }
        realm.beginWrite()
        realm.create(PortStringObject.self, value: ["string 3"])
        try realm.commitWrite()
        #expect(spin { complete })
        #expect(realm.objects(PortStringObject.self).count == 3)
    }

    @Test func asyncTransactionMixedWithCancelledSync() throws {
        let realm = try realm()
        #expect(realm.objects(PortStringObject.self).count == 0)
        var complete = false
        realm.writeAsync {
            realm.create(PortStringObject.self, value: ["string"])
        }
        realm.writeAsync {
            realm.create(PortStringObject.self, value: ["string 2"])
        } onComplete: { _ in
            complete = true
        }
        realm.beginWrite()
        realm.create(PortStringObject.self, value: ["string 3"])
        realm.cancelWrite()
        #expect(spin { complete })
        #expect(realm.objects(PortStringObject.self).count == 2)
    }

    @Test func asyncTransactionChangeNotification() throws {
        let realm = try realm()
        var writes = 0
        var updates = 0
        let resultsUnderTest = realm.objects(PortStringObject.self)
        let token = resultsUnderTest.observe { change in
            switch change {
            case .initial: return
            case .update: updates += 1
            case .error: Issue.record("should not get here for this test")
            }
        }
        realm.writeAsync {
            realm.create(PortStringObject.self, value: ["string 1"])
        } onComplete: { _ in
            writes += 1
            realm.refresh()
        }
        realm.writeAsync {
            realm.create(PortStringObject.self, value: ["string 2"])
        } onComplete: { _ in
            writes += 1
            realm.refresh()
        }
        #expect(spin { writes == 2 && updates >= 1 })
        #expect(realm.objects(PortStringObject.self).count == 2)
        token.invalidate()
    }

    @Test func beginAsyncTransactionInAsyncTransaction() throws {
        let realm = try realm()
        var transaction1 = false
        var transaction2 = false
        #expect(realm.objects(PortStringObject.self).count == 0)
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["string"])
            realm.beginAsyncWrite {
                realm.create(PortStringObject.self, value: ["string 2"])
                realm.commitAsyncWrite { _ in transaction1 = true }
            }
            realm.commitAsyncWrite { _ in transaction2 = true }
        }
        #expect(spin { transaction1 && transaction2 })
        #expect(realm.objects(PortStringObject.self).count == 2)
    }

    @Test func asyncTransactionFromSyncTransaction() throws {
        let realm = try realm()
        var transaction1 = false
        realm.beginWrite()
        realm.create(PortStringObject.self, value: ["string"])
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["string 2"])
            realm.commitAsyncWrite { _ in transaction1 = true }
        }
        try realm.commitWrite()
        #expect(spin { transaction1 })
        #expect(realm.objects(PortStringObject.self).count == 2)
    }

    @Test func asyncTransactionCancel() throws {
        let realm = try realm()
        var fulfilled = 0
        var unexpected = false
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["string"])
            fulfilled += 1
        }
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["string"])
            realm.commitAsyncWrite()
            fulfilled += 1
        }
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["string"])
            fulfilled += 1
            realm.commitAsyncWrite()
        }
        let asyncTransactionIdB = realm.beginAsyncWrite {
            unexpected = true
        }
        try realm.cancelAsyncWrite(asyncTransactionIdB)
        #expect(spin { fulfilled == 3 && !realm.isPerformingAsynchronousWriteOperations })
        spinAMoment()
        #expect(!unexpected)
        #expect(realm.objects(PortStringObject.self).count == 2)
    }

    @Test func asyncTransactionCommit() throws {
        let realm = try realm()
        var changesAdded = 0
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["with 'commit' should commit"])
            realm.commitAsyncWrite()
            changesAdded += 1
        }
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["without 'commit' should not commit"])
            changesAdded += 1
        }
        let asyncTransactionId = realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["'cancel' after 'begin' should not commit"])
            realm.commitAsyncWrite()
            changesAdded += 1
        }
        try realm.cancelAsyncWrite(asyncTransactionId)
        #expect(spin { changesAdded == 2 && !realm.isPerformingAsynchronousWriteOperations })
        spinAMoment()
        #expect(changesAdded == 2)
        #expect(strings(realm) == ["with 'commit' should commit"])
    }

    @Test func asyncTransactionShouldWriteObjectFromOutsideOfTransaction() throws {
        let realm = try realm()
        var complete = false
        let objU = PortStringObject(value: ["string U"])
        realm.beginAsyncWrite {
            realm.create(PortStringObject.self, value: ["string I"])
            realm.add(objU)
            realm.commitAsyncWrite { _ in complete = true }
        }
        #expect(spin { complete })
        #expect(realm.objects(PortStringObject.self).first { $0.stringCol == "string U" } != nil)
        #expect(realm.objects(PortStringObject.self).first { $0.stringCol == "string I" } != nil)
    }

    @Test func asyncTransactionShouldChangeExistingObject() throws {
        let realm = try realm()
        var complete = false
        try realm.write {
            realm.create(PortStringObject.self, value: ["string A"])
        }
        let objA = realm.objects(PortStringObject.self).first(where: { $0.stringCol == "string A" })!
        realm.beginAsyncWrite {
            objA.stringCol = "string B"
            realm.commitAsyncWrite { _ in complete = true }
        }
        #expect(spin { complete })
        #expect(realm.objects(PortStringObject.self).first { $0.stringCol == "string A" } == nil)
        #expect(realm.objects(PortStringObject.self).first { $0.stringCol == "string B" } != nil)
    }
}
