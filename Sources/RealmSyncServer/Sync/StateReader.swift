import Dispatch
import RealmCore
import RealmSyncEngine
import RealmSyncWire

/// A synced Realm's state for one client catching up from it, read in
/// chunks as the client's session sends them (Docs/SyncDesign.md,
/// "Catching up from the state"): a read transaction of its own holds the
/// version, so that uploads to the Realm go on meanwhile, and the sender
/// sends one chunk while the next is read.
///
/// Its transaction is used on its own queue, one chunk at a time.
final class StateReader: @unchecked Sendable {
    // @unchecked: `transaction` and `stream` are used only on `queue`.

    /// The server version the state is of.
    let version: UInt64
    /// The Realm's top-level objects, for an estimate of what is left.
    let objectCount: Int
    private let queue: DispatchQueue
    private let transaction: Transaction
    private var stream: StateSnapshot.Stream

    /// The instructions in a chunk: about 1 MB encoded, a message's worth.
    static let chunkInstructions = 40_000

    /// Starts reading the state of the file of `coordinator` at its newest
    /// version, on a queue of the reader's own.
    static func open(coordinator: Coordinator, label: String) async throws(RealmError) -> StateReader {
        let queue = DispatchQueue(label: label)
        let result: Result<StateReader, RealmError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(RealmError) in try StateReader(coordinator: coordinator, queue: queue) })
            }
        }
        return try result.get()
    }

    private init(coordinator: Coordinator, queue: DispatchQueue) throws(RealmError) {
        self.queue = queue
        transaction = try coordinator.makeTransaction()
        // One read transaction from here to the last chunk: the version
        // and every chunk read at it.
        try transaction.refresh()
        let select = try transaction.queryStatement("SELECT latest_version FROM server_state WHERE id = 1")
        version = try select.step() ? UInt64(bitPattern: select.int64(at: 0)) : 0
        select.reset()
        var objects = 0
        for objectSchema in transaction.schema.objectSchemas where !objectSchema.isEmbedded {
            objects += try transaction.count(of: try transaction.classHandle(named: objectSchema.name))
        }
        objectCount = objects
        stream = StateSnapshot.Stream(transaction)
    }

    /// The next chunk of changesets, encoded, and the part of the state
    /// read once it is (by objects, 0 to 1); nil at the end.
    func next() async throws(RealmError) -> (changesets: [[UInt8]], fractionRead: Double)? {
        let result: Result<(changesets: [[UInt8]], fractionRead: Double)?, RealmError> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: Result { () throws(RealmError) in
                    guard let chunk = try self.stream.next(instructions: Self.chunkInstructions) else { return nil }
                    let fraction = self.objectCount == 0 ? 1 : min(1, Double(self.stream.objectVisits) / Double(2 * self.objectCount))
                    return (chunk.map { ChangesetCoding.encode($0) }, fraction)
                })
            }
        }
        return try result.get()
    }
}
