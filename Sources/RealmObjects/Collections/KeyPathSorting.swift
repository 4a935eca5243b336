import RealmQuery

// Sorting and distinct by Swift key paths, Realm 10's spellings of
// `sorted(byKeyPath:)` and `distinct(by:)` on collections of objects.

extension RealmCollection where Element: Object {
    /// The objects sorted by the property `keyPath` reads (through to-one
    /// links: `\.owner?.name`).
    public func sorted<V: _Persistable>(by keyPath: KeyPath<Element, V>, ascending: Bool = true) -> Results<Element> {
        sorted(by: [RealmQuery.SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// The first object of each group with equal values of the properties
    /// `keyPaths` read, in the current order.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == PartialKeyPath<Element> {
        distinct(by: keyPaths.map { KeyPathNames.dottedPath(of: $0, in: Element.self) })
    }
}

extension RealmQuery.SortDescriptor {
    /// A descriptor sorting on the property `keyPath` reads (through to-one
    /// links), as Realm 10's `SortDescriptor(keyPath: \Dog.age)`.
    ///
    /// - Precondition: `keyPath` reads a stored property.
    public init<Root: Object, V>(keyPath: KeyPath<Root, V>, ascending: Bool = true) {
        self.init(keyPath: KeyPathNames.dottedPath(of: keyPath, in: Root.self), ascending: ascending)
    }
}

extension KeyPathNames {
    /// The stored properties a key path reads, joined by dots.
    ///
    /// - Precondition: it reads a stored property.
    static func dottedPath(of keyPath: AnyKeyPath, in root: Object.Type) -> String {
        let path = path(of: keyPath, in: root)
        precondition(!path.isEmpty, "Key path \(keyPath) does not name a stored property of '\(root.className())'.")
        return path.joined(separator: ".")
    }
}
