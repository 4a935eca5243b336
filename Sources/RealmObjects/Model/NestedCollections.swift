import RealmCore

/// Where a mixed value is written: a property, a place in a list, or a key
/// of a map (the list or map a property's own, or a nested one).
enum MixedPlace {
    case property(ClassHandle, ObjectKey, Int)
    case append(ListHandle)
    case insert(ListHandle, Int)
    case replace(ListHandle, Int)
    case entry(ListHandle, String)
}

extension Realm {
    /// Writes `value` to `place`. A list or dictionary is made there, empty,
    /// and filled with a copy of the elements: a nested collection belongs
    /// to one place, so assigning one that is stored elsewhere (even inside
    /// the place being overwritten) copies it.
    func storeMixed(_ value: AnyRealmValue, at place: MixedPlace) throws {
        guard value.isNestedCollection else {
            return try storeScalar(try value._toValue(in: self), at: place)
        }
        // Copied out first: writing the place may delete the source.
        let source = value.detached()
        try transaction.atomicallyRethrowing { try storeDetached(source, at: place) }
    }

    private func storeDetached(_ value: AnyRealmValue, at place: MixedPlace) throws {
        switch value {
        case .list(let list):
            let handle = try makeNested(.list, at: place)
            for element in list { try storeDetached(element, at: .append(handle)) }
        case .dictionary(let map):
            let handle = try makeNested(.dictionary, at: place)
            for (key, element) in map.asKeyValueSequence() { try storeDetached(element, at: .entry(handle, key)) }
        default:
            try storeScalar(try value._toValue(in: self), at: place)
        }
    }

    private func storeScalar(_ value: Value, at place: MixedPlace) throws {
        try transaction.store(value, at: place)
    }

    private func makeNested(_ kind: NestedCollection.Kind, at place: MixedPlace) throws -> ListHandle {
        try transaction.makeNestedCollection(kind, at: place)
    }

    /// The list or dictionary a mixed value read from the file holds, live
    /// like the object it belongs to; `.none` when it no longer exists.
    func nestedCollection(_ collection: NestedCollection) -> AnyRealmValue {
        guard let handle = perform("read a nested collection", ifDamaged: nil, { try $0.handle(of: collection) }) else { return .none }
        switch collection.kind {
        case .list:
            let list = List<AnyRealmValue>()
            list.bind(to: self, handle: handle)
            return .list(list)
        case .dictionary:
            let map = Map<String, AnyRealmValue>()
            map.bind(to: self, handle: handle)
            return .dictionary(map)
        }
    }

    /// Whether the nested collection a handle names still exists (true for
    /// a property's own collection).
    func nestedCollectionExists(_ handle: ListHandle) -> Bool {
        guard handle.nested != nil else { return true }
        return perform("check a nested collection", ifDamaged: false) { try $0.nestedCollectionExists(handle) }
    }
}

extension Transaction {
    /// Writes a stored value (no collection) at `place`.
    func store(_ value: Value, at place: MixedPlace) throws(RealmError) {
        switch place {
        case .property(let handle, let key, let property): try setValue(value, of: key, property: property, in: handle)
        case .append(let list): try append(value, to: list)
        case .insert(let list, let index): try insert(value, at: index, in: list)
        case .replace(let list, let index): try replace(at: index, with: value, in: list)
        case .entry(let map, let key): try setValue(value, forKey: key, in: map)
        }
    }

    /// Makes a new, empty nested collection at `place`.
    func makeNestedCollection(_ kind: NestedCollection.Kind, at place: MixedPlace) throws(RealmError) -> ListHandle {
        switch place {
        case .property(let handle, let key, let property): try setNestedCollection(kind, of: key, property: property, in: handle)
        case .append(let list): try insertNestedCollection(kind, at: count(of: list), in: list)
        case .insert(let list, let index): try insertNestedCollection(kind, at: index, in: list)
        case .replace(let list, let index): try replaceWithNestedCollection(kind, at: index, in: list)
        case .entry(let map, let key): try setNestedCollection(kind, forKey: key, in: map)
        }
    }

    /// Writes `value`, as `source` reads it, at `place`: a nested
    /// collection is made again here, element by element (a migration's
    /// copy of a renamed property).
    func copyMixed(_ value: Value, from source: Transaction, to place: MixedPlace) throws(RealmError) {
        guard case .collection(let collection) = value else { return try store(value, at: place) }
        guard let origin = try source.handle(of: collection) else { return try store(.null, at: place) }
        let copy = try makeNestedCollection(collection.kind, at: place)
        switch collection.kind {
        case .list:
            for element in try source.values(of: origin) { try copyMixed(element, from: source, to: .append(copy)) }
        case .dictionary:
            for entry in try source.entries(of: origin) { try copyMixed(entry.value, from: source, to: .entry(copy, entry.key)) }
        }
    }
}

extension AnyRealmValue {
    /// The value with every list and dictionary in it copied into unmanaged
    /// ones, to any depth: what storing it elsewhere writes.
    func detached() -> AnyRealmValue {
        switch self {
        case .list(let list):
            let copy = List<AnyRealmValue>()
            for element in list { copy.append(element.detached()) }
            return .list(copy)
        case .dictionary(let map):
            let copy = Map<String, AnyRealmValue>()
            for (key, element) in map.asKeyValueSequence() { copy[key] = element.detached() }
            return .dictionary(copy)
        default:
            return self
        }
    }
}
