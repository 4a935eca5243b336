import Foundation
import RealmCore

/// How a damaged file is reported when the damage is found after the Realm
/// was opened, by a call that cannot throw (reading a property, counting,
/// iterating).
///
/// Realm's reads do not throw, and a file can be damaged in ways only a read
/// finds (a page that no longer checks out, a table the catalog names but
/// the file lacks, a value of another type than its column's). Such a read
/// does not stop the program: it answers with no data (no rows, no value:
/// the property's default, never the damaged bytes as another type), logs
/// the damage once per file, and keeps the error; the Realm's next throwing
/// call (`write`, `commitWrite()`, `writeCopy`, `Realm(configuration:)` on
/// the same thread) throws it as ``Realm/Error/Code/fileCorrupt``. Inside a
/// write transaction, the damage fails the transaction as bad input does
/// (see `recordingFailure`): its commit throws, and nothing is stored.
extension Realm {
    /// Runs a RealmCore read; a damaged or unreadable file (see
    /// `RealmError.isDamage`) is noted as damage and answered with
    /// `fallback`. Any other error is a programming error and stops with its
    /// message, as in Realm.
    func perform<Result>(_ action: @autoclosure () -> String, ifDamaged fallback: @autoclosure () -> Result,
                         _ body: (Transaction) throws -> Result) -> Result {
        withAccess {
            do {
                return try body(transaction)
            } catch let error as RealmError {
                failedToRead(error, while: action())
                return fallback()
            } catch {
                preconditionFailure("Failed to \(action()): \(error)")
            }
        }
    }

    /// What a read does when RealmCore throws `error`: damage is noted (the
    /// caller then returns its fallback), anything else (a programming
    /// error, such as a class the file does not have) stops. Used by
    /// ``perform(_:ifDamaged:_:)`` and by hot paths that call RealmCore
    /// directly.
    func failedToRead(_ error: RealmError, while action: @autoclosure () -> String) {
        if state.writeNeverBegan {
            // Every write call of a transaction that never began fails;
            // the commit throws why it never began.
            return
        }
        guard error.isDamage else { preconditionFailure("Failed to \(action()): \(error)") }
        noteDamage(error, while: action())
    }

    /// Keeps `error`, found while doing `action`, for the next throwing
    /// call, or for the commit when a write transaction is open.
    func noteDamage(_ error: RealmError, while action: @autoclosure () -> String) {
        let damage = Realm.Error(
            error.kind == .fileAccess ? .fileAccess : .fileCorrupt,
            "The Realm file at '\(configuration.identity)' is damaged or unreadable; failed to \(action()): \(error.message)",
            fileURL: configuration.fileURL)
        DamageLog.shared.log(RealmError(.corruptFile, damage.message), for: configuration.identity)
        state.notePendingError(damage)
    }

    /// Notes damage described by `message` (a stored value that its type
    /// cannot have), found while reading.
    func noteDamage(_ message: String) {
        noteDamage(RealmError(.corruptFile, message), while: "read a value")
    }

    /// Throws the first error that calls unable to throw found since the
    /// last throwing call (damage, a model class the file refuses), if
    /// any, and forgets it.
    func throwPendingError() throws(Realm.Error) {
        if let error = transaction.takeDamage() {
            noteDamage(error, while: "read a value")
        }
        guard let error = state.pendingError else { return }
        state.pendingError = nil
        throw error
    }

    /// Whether a row that a query found but a read by key did not is the
    /// sign of a damaged file rather than of a deleted object: SQLite's
    /// quick check of the file finds a problem.
    func fileFailsQuickCheck() -> Bool {
        if let pending = state.pendingError, pending.code == .fileCorrupt || pending.code == .fileAccess { return true }
        return (try? transaction.quickCheck()) == false
    }
}
