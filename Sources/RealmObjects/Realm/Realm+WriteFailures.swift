import RealmCore

/// How the write API that does not throw reports bad input.
///
/// Realm's `add`, `create`, property setters and list mutations do not
/// throw, yet a duplicate primary key, a value of the wrong type or one over
/// the size limit is no programming error: it often comes from outside the
/// program (JSON, a form). Such a call changes nothing and records its
/// error in the Realm; the commit then throws the first recorded error and
/// rolls back the whole transaction, so that the caller catches it where it
/// already handles `write`'s errors, and nothing half-done is stored.
extension Realm {
    /// Runs one write of the API that does not throw. A failure of `body`
    /// is recorded for the commit to throw, and `body` must then have
    /// changed nothing (run several statements in
    /// ``Transaction/atomicallyRethrowing(_:)``). Returns whether it
    /// succeeded.
    ///
    /// - Precondition: in a write transaction, and `body` did not fail on a
    ///   deleted object or an index out of bounds: these are programming
    ///   errors, which stop with Realm's message.
    @discardableResult
    func recordingFailure(of action: @autoclosure () -> String, _ body: () throws -> Void) -> Bool {
        verifyThread()
        guard isInWriteTransaction else {
            preconditionFailure("Cannot \(action()) outside of a write transaction; call beginWrite() or write(_:) first.")
        }
        do {
            try body()
            return true
        } catch let error as RealmError where error.kind == .objectNotFound || error.kind == .indexOutOfBounds {
            preconditionFailure("Cannot \(action()): \(error.message)")
        } catch {
            recordWriteFailure(Realm.Error(wrapping: error))
            return false
        }
    }

    /// Runs `body`, which stores `value`, so that a failure leaves nothing
    /// of it. Storing an unmanaged object that links to others adds them
    /// all first, and an embedded object replaces the one it had: those
    /// steps run in a savepoint. A plain value or a managed object is one
    /// statement, atomic on its own; an unmanaged object of plain values is
    /// one INSERT, after which storing its key fails only on an index out of
    /// bounds, which stops the program. Both are spared the savepoint's
    /// cost, which would double that of appending objects to a list.
    func inOneStep<V: _Persistable>(_ value: V, _ body: () throws -> Void) throws {
        if V._objectType != nil, let object = value as? Object,
           object is EmbeddedObject || (object._realm == nil && !object._classInfo.isFlat) {
            try transaction.atomicallyRethrowing(body)
        } else {
            try body()
        }
    }

    /// Keeps `error` for the commit to throw, unless an earlier call of the
    /// transaction already failed: its error is the one to report.
    func recordWriteFailure(_ error: Realm.Error) {
        if state.writeFailure == nil { state.writeFailure = error }
    }
}
