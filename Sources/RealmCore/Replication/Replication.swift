/// A change a write transaction made, as its caller asked for it: what a
/// replica must be told to make the same change.
///
/// Only the changes asked for are replicated, never those that follow from
/// one (an embedded object deleted with its parent, a link to a deleted
/// object set to nil, a list dropping it): a replica applying the same
/// changes derives those itself.
package enum ReplicatedChange {
    /// A new top-level object; its values can be read back by key.
    case created(ClassHandle, ObjectKey)
    /// A new embedded object, in a to-one property of its owner
    /// (`listIndex` nil) or at `listIndex` in a list of embedded objects.
    case createdEmbedded(ClassHandle, ObjectKey, owner: ObjectKey, ownerClass: ClassHandle, property: Int, listIndex: Int?)
    /// A column property set (a link to an embedded object set to nil
    /// included).
    case set(ClassHandle, ObjectKey, property: Int, Value)
    /// An object about to be deleted: recorded just before, so that its
    /// values (its primary key) can still be read.
    case erased(ClassHandle, ObjectKey)
    /// Every object of a class about to be deleted: the keys there are,
    /// recorded just before.
    case erasedAll(ClassHandle, [ObjectKey])
    /// A value inserted into a list at `index`.
    case listInserted(ListHandle, index: Int, Value)
    /// The element at `index` replaced.
    case listSet(ListHandle, index: Int, Value)
    /// The element at `from` moved to `to` (indices before the move).
    case listMoved(ListHandle, from: Int, to: Int)
    /// The elements at `first` and `second` exchanged.
    case listSwapped(ListHandle, first: Int, second: Int)
    /// The element at `index` removed.
    case listErased(ListHandle, index: Int)
    /// Every element removed.
    case listCleared(ListHandle)
    /// A value added to a set (it was not there).
    case setInserted(ListHandle, Value)
    /// A value removed from a set (for a decimal, the stored member equal
    /// to the one asked for; otherwise the one asked for, which the set
    /// may store in another representation of it).
    case setErased(ListHandle, Value)
    /// Every element of a set about to be removed: recorded just before,
    /// so that the members can still be read.
    case setCleared(ListHandle)
    /// A map's key set to a value (added or replaced).
    case mapSet(ListHandle, key: String, Value)
    /// A new embedded object, the value for `key` in a map of embedded
    /// objects.
    case createdEmbeddedInMap(ClassHandle, ObjectKey, map: ListHandle, key: String)
    /// A map's key removed.
    case mapErased(ListHandle, key: String)
    /// Every key of a map about to be removed: recorded just before, so
    /// that the keys can still be read.
    case mapCleared(ListHandle)
}

/// Told of every change of a file's write transactions as it is made, and
/// given the last word before each commits: how sync records changesets
/// (Docs/SyncDesign.md).
///
/// Calls come after the change succeeded (deletions and the clearing of
/// sets and maps just before they happen), on the writing thread, inside
/// the SQLite transaction, and inside the same atomic step as the change,
/// so that a later failure of the operation rolls both back. What an
/// observer records must roll back with the change: it keeps it in tables
/// of its own in the file (written through
/// ``Transaction/replicationStatement(_:)``), or in memory that it
/// truncates when told an operation was rolled back. An error it throws
/// fails the change (or the commit), as any storage error would.
///
/// One write transaction of a file is under way at a time in a process,
/// so an observer's memory of the write under way needs no more than one
/// slot.
package protocol ReplicationObserver: AnyObject, Sendable {
    /// A write transaction began: nothing recorded before belongs to it
    /// (a cancelled write's records are forgotten here).
    func didBeginWrite(_ transaction: Transaction)
    /// An operation began: the transaction took the savepoint that a
    /// failure of the operation rolls back to.
    func willBeginOperation(_ transaction: Transaction)
    /// The operation failed and its changes were rolled back: what was
    /// recorded since ``willBeginOperation(_:)`` goes too.
    func didRollBackOperation(_ transaction: Transaction)
    /// Records a change made by `transaction`.
    func record(_ change: ReplicatedChange, in transaction: Transaction) throws(RealmError)
    /// The collections nested in mixed values that `transaction` just
    /// deleted (their holder overwritten or removed, their object or
    /// property deleted), by key; nil when it deleted every one of the
    /// file. Not a change to replicate (a replica deletes them itself on
    /// the same change): a moment for an observer to forget what it kept
    /// of them.
    func didDeleteNestedCollections(_ keys: [Int64]?, in transaction: Transaction) throws(RealmError)
    /// Called inside the SQLite transaction just before it commits, as
    /// one atomic step. It may still change objects (what it changes is
    /// part of the commit's changes, as notifications report them); a
    /// thrown error rolls back what it wrote and leaves the write open.
    func willCommit(_ transaction: Transaction) throws(RealmError)
    /// Called once `transaction`'s commit is durable and published to the
    /// file's other transactions, outside the write lock, on the writing
    /// thread: the moment to tell others (a sync session) that there is
    /// something new.
    func didCommit(_ transaction: Transaction)
}

extension ReplicationObserver {
    /// Nothing to forget, for an observer that keeps its records in the
    /// file.
    package func didBeginWrite(_ transaction: Transaction) {}
    package func willBeginOperation(_ transaction: Transaction) {}
    package func didRollBackOperation(_ transaction: Transaction) {}
    package func didDeleteNestedCollections(_ keys: [Int64]?, in transaction: Transaction) throws(RealmError) {}
}
