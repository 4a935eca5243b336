import Foundation
import RealmCore
import RealmSyncEngine
import RealmSyncWire

extension ServerRealm {
    /// What a query-based client is sent to bring its view to the newest
    /// server version (Docs/SyncDesign.md, "Query-based sync").
    struct QueryBasedDownload {
        /// Encoded changesets in order: the objects entering the view (as
        /// ``StateSnapshot`` writes them, server version 0), then the
        /// history's changes to objects the view kept.
        var changesets: [(serverVersion: UInt64, bytes: [UInt8])]
        /// The server version the client reaches with them.
        var reached: UInt64
        /// The last client version of the client's own changesets in the
        /// state at `reached`: what the view accounts for. The client
        /// keeps what its later changesets name, which the server has not
        /// seen.
        var acknowledged: UInt64
        /// Its salt.
        var salt: UInt64
        /// The objects that left the view (``Eviction/allNotSent`` when the
        /// changesets are the whole view).
        var eviction: Eviction
        /// The view at `reached`: what the client holds once it applied
        /// them.
        var view: Set<ObjectReference>
        /// What became of each subscription.
        var statuses: [SubscriptionStatus]
    }

    /// The download that brings client file `ident`, whose view was `held`
    /// at server version `after` (nil when the server does not know what
    /// it holds: at a bind), to the view `subscriptions` make at the
    /// newest version. Read on the Realm's ``ViewReader``, the history and
    /// the state at one version, while uploads go on.
    func queryBasedDownload(after: UInt64, for ident: UInt64, holding held: Set<ObjectReference>?,
                            subscriptions: [SubscriptionQuery]) async throws(SessionError) -> QueryBasedDownload {
        do {
            return try await viewReader().read { transaction, identities throws(RealmError) in
                try self.queryBasedDownload(after: after, for: ident, holding: held, subscriptions: subscriptions, in: transaction,
                                            identities: identities)
            }
        } catch {
            throw SessionError(.otherSessionError, "The server could not read the synced Realm '\(path)': \(error.message)", tryAgain: true)
        }
    }

    private func queryBasedDownload(after: UInt64, for ident: UInt64, holding held: Set<ObjectReference>?,
                                    subscriptions: [SubscriptionQuery], in transaction: Transaction,
                                    identities: ViewReader.Identities) throws(RealmError) -> QueryBasedDownload {
        let extent = try Self.serverState(transaction)
        let acknowledged = try Self.lastClientVersion(of: ident, in: transaction)
        let view = try QueryView(subscriptions, in: transaction, identities: identities)
        let visible = Set(view.objects.keys)
        let salt = try Self.salt(of: extent.latest, in: transaction)
        // A client whose holdings are unknown, or whose history is
        // compacted away, is sent its whole view; it evicts the rest.
        guard let held, after >= extent.compactedThrough else {
            var stream = StateSnapshot.Stream(transaction, objects: view.keysByClass(visible), includingErasures: true)
            var changesets: [(serverVersion: UInt64, bytes: [UInt8])] = []
            while let chunk = try stream.next() { changesets += chunk.map { (0, ChangesetCoding.encode($0)) } }
            return QueryBasedDownload(changesets: changesets, reached: extent.latest, acknowledged: acknowledged, salt: salt, eviction: .allNotSent,
                                      view: visible, statuses: view.statuses)
        }
        var history: [(serverVersion: UInt64, bytes: [UInt8])] = []
        var namedByClient = Set<ObjectReference>()
        let select = try transaction.queryStatement(
            "SELECT server_version, client_file_ident, changeset FROM server_history WHERE server_version > ? ORDER BY server_version")
        defer { select.reset() }
        select.bind(Int64(bitPattern: after), at: 1)
        while try select.step() {
            let version = UInt64(bitPattern: select.int64(at: 0))
            let changeset: Changeset
            do {
                changeset = try ChangesetCoding.decode(Array(select.data(at: 2)))
            } catch {
                throw RealmError(.corruptFile, "Server version \(version) of '\(path)' cannot be read: \(error)")
            }
            if UInt64(bitPattern: select.int64(at: 1)) == ident {
                // The client has its own changes. What they name it may
                // hold (it kept it from evictions until the server had
                // them), and keeps only if the view has it.
                for instruction in changeset.instructions { namedByClient.formUnion(instruction.referencedObjects) }
                continue
            }
            for run in changeset.runs(keeping: { instruction in
                Self.concerns(instruction, clientHolding: held, visible: visible)
            }) {
                history.append((version, ChangesetCoding.encode(run)))
            }
        }
        select.reset()
        // Objects the client did not hold come whole: their changes before
        // now were not sent (one it made may have merged here with others').
        let entering = visible.subtracting(held)
        var changesets: [(serverVersion: UInt64, bytes: [UInt8])] = []
        if !entering.isEmpty {
            var stream = StateSnapshot.Stream(transaction, objects: view.keysByClass(entering), includingErasures: false)
            while let chunk = try stream.next() { changesets += chunk.map { (0, ChangesetCoding.encode($0)) } }
        }
        let leaving = held.union(namedByClient).subtracting(visible)
        return QueryBasedDownload(changesets: changesets + history, reached: extent.latest, acknowledged: acknowledged, salt: salt,
                                  eviction: leaving.isEmpty ? .none : .objects(leaving.sorted { $0.description < $1.description }),
                                  view: visible, statuses: view.statuses)
    }

    /// Whether a query-based client is sent `instruction` of another
    /// client's changeset: changes of the schema; changes of objects it
    /// held and still sees (those entering come whole); and the erasures
    /// of primary keys, so that one it makes again is a new incarnation
    /// as on the server.
    private static func concerns(_ instruction: Instruction, clientHolding held: Set<ObjectReference>,
                                 visible: Set<ObjectReference>) -> Bool {
        guard let object = instruction.topLevelObject else { return true }
        if case .erase(_, .primaryKey) = instruction { return true }
        if case .erase(let className, let identity) = instruction, identity.isTopLevel {
            return held.contains(ObjectReference(className: className, identity: identity))
        }
        return held.contains(object) && visible.contains(object)
    }
}

extension Changeset {
    /// The runs of consecutive instructions `keep` accepts, each a
    /// changeset of its own whose stamps are those the instructions had.
    func runs(keeping keep: (Instruction) -> Bool) -> [Changeset] {
        var runs: [Changeset] = []
        var start: Int?
        func close(_ end: Int) {
            guard let first = start else { return }
            runs.append(Changeset(clientFileIdent: clientFileIdent, clientVersion: clientVersion, lastServerVersion: lastServerVersion,
                                  timestamp: timestamp, firstSequence: firstSequence &+ UInt64(first),
                                  instructions: Array(instructions[first..<end])))
            start = nil
        }
        for (index, instruction) in instructions.enumerated() {
            if keep(instruction) {
                if start == nil { start = index }
            } else {
                close(index)
            }
        }
        close(instructions.count)
        return runs
    }
}
