import RealmCore
import RealmSyncWire

/// What happens when an object that links wait for is here at last
/// (Docs/SyncDesign.md, "Links to objects not here"): made by the applier
/// (a creation arriving, new or merging with one made here), or by a local
/// write creating the same primary key.
///
/// Each link whose winning write named the object shows it, keeping the
/// stamp of that write, as the replicas that held the object all along
/// show it: a to-one link is set, a hidden list element shown, an element
/// of a list of mixed values given the link in place of its nil, and a set
/// member or map value whose register links to it shown.
enum LinkArrival {
    /// Shows what waits for `target`, here now as `key`. `linksMayWait`
    /// and `membersMayLink` (false when the file is known to have no
    /// waiting link, or no set or map register holding a link) spare the
    /// lookups.
    static func show(_ target: ObjectReference, as key: ObjectKey, linksMayWait: Bool, membersMayLink: Bool,
                     _ transaction: Transaction) throws(RealmError) {
        if membersMayLink { try showMembers(linkingTo: target, as: key, transaction) }
        guard linksMayWait else { return }
        for link in try PendingLinks.take(target: target, transaction) {
            guard transaction.schema[link.className] != nil else { continue }
            let handle = try transaction.classHandle(named: link.className)
            guard try transaction.objectExists(link.owner, in: handle),
                  let (list, index) = try NestedNames.collection(storageProperty: link.property, of: link.owner, in: handle, transaction) else { continue }
            let isMixed = try transaction.objectSchema(handle).properties[index].type == .mixed
            guard let element = link.element else {
                try transaction.setValue(.link(to: key, of: target.className, mixed: isMixed), of: link.owner, property: index, in: handle)
                continue
            }
            guard var mirror = try ListMirror.inStep(with: list, property: link.property, transaction) else {
                throw RealmError(.corruptFile, "The sync identities of the elements of list '\(link.className).\(link.property)' of object \(link.owner.rawValue) do not match its elements.")
            }
            guard let position = mirror.index(of: element) else { continue }
            if isMixed {
                // A mixed element shows nil while it waits.
                try transaction.replace(at: mirror.row(ofElementAt: position), with: .link(className: target.className, key: key), in: list)
                continue
            }
            guard mirror.elements[position].isHidden else { continue }
            try transaction.insert(.object(key), at: mirror.row(ofElementAt: position), in: list)
            mirror.elements[position].isHidden = false
            mirror.elements[position].hold(key.rawValue, .link(class: target.className, target.identity))
            try mirror.save(list, property: link.property, transaction)
        }
    }

    /// Shows `key` in the sets and maps whose registers link to `target`.
    private static func showMembers(linkingTo target: ObjectReference, as key: ObjectKey, _ transaction: Transaction) throws(RealmError) {
        for (collection, register) in try MemberRegisters.linking(to: target, transaction) {
            guard transaction.schema[collection.className] != nil else { continue }
            let handle = try transaction.classHandle(named: collection.className)
            guard try transaction.objectExists(collection.owner, in: handle),
                  let (container, index) = try NestedNames.collection(storageProperty: collection.property, of: collection.owner, in: handle,
                                                                      transaction) else { continue }
            let property = try transaction.objectSchema(handle).properties[index]
            let shown = Value.link(to: key, of: target.className, mixed: property.type == .mixed)
            if property.isSet {
                try transaction.insert(shown, intoSet: container)
            } else if property.isMap || container.nested != nil, register.value != nil {
                try transaction.setValue(shown, forKey: String(decoding: register.member, as: UTF8.self), in: container)
            }
        }
    }
}

extension Value {
    /// How RealmCore stores a link to the object `key` of `className`: with
    /// its class in a mixed value.
    static func link(to key: ObjectKey, of className: String, mixed: Bool) -> Value {
        mixed ? .link(className: className, key: key) : .object(key)
    }
}
