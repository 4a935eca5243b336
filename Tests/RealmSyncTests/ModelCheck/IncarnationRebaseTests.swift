import Foundation
import RealmCore
@testable import RealmSyncEngine
import RealmSyncWire
import Testing

/// A client reset's renumbering of primary keys' incarnations changes the
/// incarnations and nothing else.
@Suite struct IncarnationRebaseTests {
    /// An instruction inside a nested collection keeps naming it (before
    /// the fix, the rebase rebuilt list references without it, and the
    /// replayed change landed in the property's own collection).
    @Test func aRebasedListReferenceKeepsItsNestedCollection() throws {
        let (replica, _, _, _) = try HostileChangesetTests.seeded()
        let (list, _) = try NestedCollectionEdgeTests.names(replica)
        // Ana as a file that counted two deletions the fresh state never had.
        let ahead = ObjectIdentity.primaryKey(.int(1), incarnation: 2)
        let element = GlobalKey(client: 77, counter: 1)
        let changeset = Changeset(clientFileIdent: 77, clientVersion: 1, lastServerVersion: 1, timestamp: 5_000, firstSequence: 1, instructions: [
            .listInsert(ListReference(ownerClass: "Person", owner: ahead, property: "nest", nested: list), element: element,
                        position: PositionKey.between(nil, and: nil, for: element), .int(9)),
        ])
        try replica.transaction.beginWrite()
        defer { replica.transaction.cancelWrite() }
        let rebased = try IncarnationRebase([changeset], fresh: replica.transaction).rebase(changeset)
        let ana = ObjectIdentity.primaryKey(.int(1), incarnation: 0)
        guard case .listInsert(let reference, _, _, _) = try #require(rebased.instructions.first) else {
            Issue.record("not an insertion: \(rebased.instructions)")
            return
        }
        #expect(reference == ListReference(ownerClass: "Person", owner: ana, property: "nest", nested: list))
    }
}
