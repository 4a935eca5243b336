import Foundation
import RealmCore
import RealmSyncWire

/// Renumbers the incarnations of primary keys in changesets replayed by a
/// client reset (``SyncedFile/reset(toStateOf:recovering:)``), so that they
/// name the objects of the fresh state.
///
/// A changeset names an object with a primary key by its key and its
/// incarnation: how many deletions of that key its maker had seen. A file
/// that integrated history the server then lost (it was restored from a
/// backup) counted deletions the fresh state never had: its unsynced
/// changes name incarnations ahead of the fresh state's, and would be
/// refused as naming objects that do not exist. Each such key's
/// incarnations move down by one offset, so that the first the changes
/// name is the fresh state's current one: a creation merges with the object
/// there (creations of one key make one object), a change applies to it,
/// and a deletion and creation among the changes keep their order. Changes
/// that name an incarnation the fresh state has deleted since keep naming
/// it: the deletion wins.
struct IncarnationRebase {
    private struct Key: Hashable {
        var className: String
        var primaryKey: SyncValue
    }

    private var offsets: [Key: Int64] = [:]

    /// The offsets for `changesets`, against the fresh state `transaction`
    /// reads.
    init(_ changesets: [Changeset], fresh transaction: Transaction) throws(RealmError) {
        var lowest: [Key: UInt32] = [:]
        func note(_ identity: ObjectIdentity, _ className: String) {
            switch identity {
            case .primaryKey(let value, let incarnation):
                let key = Key(className: className, primaryKey: value)
                lowest[key] = min(lowest[key] ?? incarnation, incarnation)
            case .global: break
            case .embedded(let ownerClass, let owner, _, _): note(owner, ownerClass)
            }
        }
        func note(_ value: SyncValue) {
            if case .link(let className, let identity) = value { note(identity, className) }
        }
        for changeset in changesets {
            for instruction in changeset.instructions {
                Self.visit(instruction, identity: note, value: note)
            }
        }
        for (key, incarnation) in lowest {
            let current = try SyncTables.incarnation(className: key.className, primaryKey: key.primaryKey, transaction)
            // Only down: changes behind the fresh state (it deleted the
            // object since) keep naming the incarnation they meant, and a
            // deletion the fresh state has wins over them.
            offsets[key] = min(0, Int64(current) - Int64(incarnation))
        }
    }

    /// `changeset` with its incarnations moved.
    func rebase(_ changeset: Changeset) -> Changeset {
        guard offsets.values.contains(where: { $0 != 0 }) else { return changeset }
        var rebased = changeset
        rebased.instructions = changeset.instructions.map(rebase)
        return rebased
    }

    private func rebase(_ identity: ObjectIdentity, _ className: String) -> ObjectIdentity {
        switch identity {
        case .primaryKey(let value, let incarnation):
            let offset = offsets[Key(className: className, primaryKey: value)] ?? 0
            return .primaryKey(value, incarnation: UInt32(clamping: max(0, Int64(incarnation) + offset)))
        case .global: return identity
        case .embedded(let ownerClass, let owner, let property, let element):
            return .embedded(ownerClass: ownerClass, owner: rebase(owner, ownerClass), property: property, element: element)
        }
    }

    private func rebase(_ value: SyncValue) -> SyncValue {
        guard case .link(let className, let identity) = value else { return value }
        return .link(class: className, rebase(identity, className))
    }

    private func rebase(_ list: ListReference) -> ListReference {
        var rebased = list
        rebased.owner = rebase(list.owner, list.ownerClass)
        return rebased
    }

    private func rebase(_ instruction: Instruction) -> Instruction {
        switch instruction {
        case .addClass, .addProperty: instruction
        case .create(let className, let identity): .create(class: className, rebase(identity, className))
        case .erase(let className, let identity): .erase(class: className, rebase(identity, className))
        case .set(let className, let identity, let property, let value):
            .set(class: className, rebase(identity, className), property: property, rebase(value))
        case .setDefault(let className, let identity, let property, let value):
            .setDefault(class: className, rebase(identity, className), property: property, rebase(value))
        case .addInteger(let className, let identity, let property, let delta):
            .addInteger(class: className, rebase(identity, className), property: property, delta: delta)
        case .listInsert(let list, let element, let position, let value):
            .listInsert(rebase(list), element: element, position: position, rebase(value))
        case .listSet(let list, let element, let value): .listSet(rebase(list), element: element, rebase(value))
        case .listMove(let list, let element, let position): .listMove(rebase(list), element: element, position: position)
        case .listErase(let list, let element): .listErase(rebase(list), element: element)
        case .listClear(let list, let elements): .listClear(rebase(list), elements: elements)
        case .setInsert(let set, let member): .setInsert(rebase(set), rebase(member))
        case .setErase(let set, let member): .setErase(rebase(set), rebase(member))
        case .mapSet(let map, let key, let value): .mapSet(rebase(map), key: key, rebase(value))
        case .mapErase(let map, let key): .mapErase(rebase(map), key: key)
        }
    }

    /// Calls `identity` with every object identity `instruction` names (and
    /// its class), and `value` with every value it carries.
    private static func visit(_ instruction: Instruction, identity: (ObjectIdentity, String) -> Void, value: (SyncValue) -> Void) {
        switch instruction {
        case .addClass, .addProperty: break
        case .create(let className, let object), .erase(let className, let object), .addInteger(let className, let object, _, _):
            identity(object, className)
        case .set(let className, let object, _, let carried), .setDefault(let className, let object, _, let carried):
            identity(object, className)
            value(carried)
        case .listInsert(let list, _, _, let carried), .listSet(let list, _, let carried),
             .setInsert(let list, let carried), .setErase(let list, let carried), .mapSet(let list, _, let carried):
            identity(list.owner, list.ownerClass)
            value(carried)
        case .listMove(let list, _, _), .listErase(let list, _), .listClear(let list, _), .mapErase(let list, _):
            identity(list.owner, list.ownerClass)
        }
    }
}
