import Dispatch

// Realm Swift 10's observation with Swift key paths,
// `observe(keyPaths: [\.name, \.owner?.name])`: each key path is turned
// into the stored properties it reads (through links, as
// `KeyPathNames.path` finds them on a probe) and the names observed as
// `["name", "owner.name"]` would be.

extension ObjectObservable where Self: Object {
    /// Observes the object's properties that `keyPaths` read (see
    /// ``observe(keyPaths:_:)``), on the registering thread (`queue` nil)
    /// or on a serial queue.
    public func observe(keyPaths: [PartialKeyPath<Self>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (ObjectChange<Self>) -> Void) -> NotificationToken {
        observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Self.self), on: queue, block)
    }
}

extension Results where Element: Object {
    /// Observes the results, counting as modifications the changes of the
    /// properties `keyPaths` read.
    public func observe(keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<Results<Element>>) -> Void) -> NotificationToken {
        observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Element.self), on: queue, block)
    }
}

extension List where Element: Object {
    /// Observes the list, counting as modifications the changes of the
    /// properties `keyPaths` read.
    public func observe(keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<List<Element>>) -> Void) -> NotificationToken {
        observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Element.self), on: queue, block)
    }
}

extension LinkingObjects {
    /// Observes the linking objects, counting as modifications the changes
    /// of the properties `keyPaths` read.
    public func observe(keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<LinkingObjects<Element>>) -> Void) -> NotificationToken {
        observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Element.self), on: queue, block)
    }
}

extension MutableSet where Element: Object {
    /// Observes the set, counting as modifications the changes of the
    /// properties `keyPaths` read.
    public func observe(keyPaths: [PartialKeyPath<Element>],
                        _ block: @escaping (RealmCollectionChange<MutableSet<Element>>) -> Void) -> NotificationToken {
        observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Element.self), block)
    }
}

extension AnyRealmCollection where Element: Object {
    /// Observes the wrapped collection, counting as modifications the
    /// changes of the properties `keyPaths` read.
    public func observe(keyPaths: [PartialKeyPath<Element>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (RealmCollectionChange<AnyRealmCollection<Element>>) -> Void) -> NotificationToken {
        observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Element.self), on: queue, block)
    }
}

extension SectionedResults where SectionElement: Object {
    /// Observes the sections, counting as modifications the changes of the
    /// properties `keyPaths` read.
    public func observe(keyPaths: [PartialKeyPath<SectionElement>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (SectionedResultsChange<SectionedResults>) -> Void) -> NotificationToken {
        observe(keyPaths: KeyPathNames.names(of: keyPaths, in: SectionElement.self), on: queue, block)
    }
}

extension ResultsSection where T: Object {
    /// Observes the section, counting as modifications the changes of the
    /// properties `keyPaths` read.
    public func observe(keyPaths: [PartialKeyPath<T>], on queue: DispatchQueue? = nil,
                        _ block: @escaping (SectionedResultsChange<ResultsSection>) -> Void) -> NotificationToken {
        observe(keyPaths: KeyPathNames.names(of: keyPaths, in: T.self), on: queue, block)
    }
}

// On an actor, as `observe(keyPaths:on:)` with names.

extension Results where Element: Object {
    /// Observes the results on `actor`, counting as modifications the
    /// changes of the properties `keyPaths` read.
    public func observe<A: Actor>(keyPaths: [PartialKeyPath<Element>], on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<Results<Element>>) -> Void) async -> NotificationToken {
        await observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Element.self), on: actor, _isolation: _isolation, block)
    }
}

extension List where Element: Object {
    /// Observes the list on `actor`, counting as modifications the changes
    /// of the properties `keyPaths` read.
    public func observe<A: Actor>(keyPaths: [PartialKeyPath<Element>], on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<List<Element>>) -> Void) async -> NotificationToken {
        await observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Element.self), on: actor, _isolation: _isolation, block)
    }
}

extension LinkingObjects {
    /// Observes the linking objects on `actor`, counting as modifications
    /// the changes of the properties `keyPaths` read.
    public func observe<A: Actor>(keyPaths: [PartialKeyPath<Element>], on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<LinkingObjects<Element>>) -> Void) async -> NotificationToken {
        await observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Element.self), on: actor, _isolation: _isolation, block)
    }
}

extension MutableSet where Element: Object {
    /// Observes the set on `actor`, counting as modifications the changes
    /// of the properties `keyPaths` read.
    public func observe<A: Actor>(keyPaths: [PartialKeyPath<Element>], on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<MutableSet<Element>>) -> Void) async -> NotificationToken {
        await observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Element.self), on: actor, _isolation: _isolation, block)
    }
}

extension Map {
    /// Observes a map of objects on `actor`, counting as modifications the
    /// changes of the properties `keyPaths` read.
    public func observe<A: Actor, Target: Object>(keyPaths: [PartialKeyPath<Target>], on actor: A,
                                                  _isolation: isolated (any Actor)? = #isolation,
                                                  _ block: @Sendable @escaping (isolated A, RealmMapChange<Map<Key, Value>>) -> Void)
        async -> NotificationToken where Value == Target? {
        await observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Target.self), on: actor, _isolation: _isolation, block)
    }
}

extension AnyRealmCollection where Element: Object {
    /// Observes the wrapped collection on `actor`, counting as
    /// modifications the changes of the properties `keyPaths` read.
    public func observe<A: Actor>(keyPaths: [PartialKeyPath<Element>], on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, RealmCollectionChange<AnyRealmCollection<Element>>) -> Void) async -> NotificationToken {
        await observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Element.self), on: actor, _isolation: _isolation, block)
    }
}

extension ObjectObservable where Self: Object {
    /// Observes the object on `actor`: the properties `keyPaths` read.
    public func observe<A: Actor>(keyPaths: [PartialKeyPath<Self>], on actor: A,
                                  _isolation: isolated (any Actor)? = #isolation,
                                  _ block: @Sendable @escaping (isolated A, ObjectChange<Self>) -> Void) async -> NotificationToken {
        await observe(keyPaths: KeyPathNames.names(of: keyPaths, in: Self.self), on: actor, _isolation: _isolation, block)
    }
}

extension KeyPathNames {
    /// The dotted names of the stored properties each key path reads.
    ///
    /// - Precondition: each reads a stored property.
    static func names<Root: Object>(of keyPaths: [PartialKeyPath<Root>], in root: Root.Type) -> [String] {
        keyPaths.map { dottedPath(of: $0, in: root) }
    }
}
