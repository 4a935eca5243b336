extension Instruction {
    /// The top-level object the instruction changes (an embedded object's
    /// top-level owner; a list's owner), or nil for a change of the schema:
    /// what decides whether a query-based client, whose view holds whole
    /// top-level objects, is sent it.
    public var topLevelObject: ObjectReference? {
        switch self {
        case .addClass, .addProperty:
            nil
        case .create(let className, let identity), .erase(let className, let identity),
             .set(let className, let identity, _, _), .setDefault(let className, let identity, _, _),
             .addInteger(let className, let identity, _, _):
            ObjectReference(className: className, identity: identity).topLevel
        case .listInsert(let list, _, _, _), .listSet(let list, _, _), .listMove(let list, _, _), .listErase(let list, _),
             .listClear(let list, _), .setInsert(let list, _), .setErase(let list, _), .mapSet(let list, _, _), .mapErase(let list, _):
            ObjectReference(className: list.ownerClass, identity: list.owner).topLevel
        }
    }
}

extension ObjectReference {
    /// The object itself, or for an embedded object its top-level owner.
    public var topLevel: ObjectReference {
        var reference = self
        while case .embedded(let ownerClass, let owner, _, _) = reference.identity {
            reference = ObjectReference(className: ownerClass, identity: owner)
        }
        return reference
    }
}

extension Instruction {
    /// The top-level objects the instruction names: the one it changes and
    /// those its value links to. What a query-based client's change may
    /// make it hold, or bring into its view.
    public var referencedObjects: [ObjectReference] {
        var objects = topLevelObject.map { [$0] } ?? []
        switch self {
        case .set(_, _, _, let value), .setDefault(_, _, _, let value), .listInsert(_, _, _, let value), .listSet(_, _, let value),
             .setInsert(_, let value), .mapSet(_, _, let value):
            if case .link(let className, let identity) = value {
                objects.append(ObjectReference(className: className, identity: identity).topLevel)
            }
        default:
            break
        }
        return objects
    }
}
