import RealmCore

/// Reading a set or map of `Int`, `Double` or `String` without a `Value`
/// and a conversion through the element type per element: the generic
/// path's cost is a call through the element type's witness table and the
/// `Value` enum in between, which GRDB's cursor, specialized to the type,
/// does not pay. Each entry point answers nil for any other element type,
/// and the caller takes the generic path.
///
/// The arrays are appended to, not counted first: appending to an array of
/// a concrete type is cheap, while counting walks the collection's index
/// once more (the generic path counts, because appending to an array of a
/// generic type asks the runtime for the array's type on every call).
enum NativeIteration {
    /// The elements of a set of `Element`.
    static func setElements<Element: RealmCollectionValue>(of set: ListHandle, as type: Element.Type,
                                                           _ transaction: Transaction) throws(RealmError) -> [Element]? {
        if Element.self == Int.self { return same(try setElements(of: set, native: Int.self, transaction)) }
        if Element.self == String.self { return same(try setElements(of: set, native: String.self, transaction)) }
        if Element.self == Double.self { return same(try setElements(of: set, native: Double.self, transaction)) }
        return nil
    }

    /// The entries of a map of `Value`.
    static func mapEntries<Key: _MapKey, Value: RealmCollectionValue>(of map: ListHandle, as type: SingleMapEntry<Key, Value>.Type,
                                                                     _ transaction: Transaction) throws(RealmError)
        -> [SingleMapEntry<Key, Value>]? {
        guard Key.self == String.self else { return nil }
        if Value.self == Int.self { return same(try mapEntries(of: map, native: Int.self, transaction)) }
        if Value.self == String.self { return same(try mapEntries(of: map, native: String.self, transaction)) }
        if Value.self == Double.self { return same(try mapEntries(of: map, native: Double.self, transaction)) }
        return nil
    }

    /// Appends up to `limit` elements of a set of `Element` read from
    /// `cursor` to `batch`; false, reading nothing, for any other element
    /// type.
    static func readSetElements<Element: RealmCollectionValue>(from cursor: CollectionCursor, into batch: inout [Element],
                                                               upTo limit: Int) throws(RealmError) -> Bool {
        if Element.self == Int.self { return try reading(&batch, as: Int.self) { (batch) throws(RealmError) in try readSetElements(from: cursor, into: &batch, limit) } }
        if Element.self == String.self { return try reading(&batch, as: String.self) { (batch) throws(RealmError) in try readSetElements(from: cursor, into: &batch, limit) } }
        if Element.self == Double.self { return try reading(&batch, as: Double.self) { (batch) throws(RealmError) in try readSetElements(from: cursor, into: &batch, limit) } }
        return false
    }

    /// Appends up to `limit` entries of a map of `Value` read from
    /// `cursor` to `batch`; false, reading nothing, for any other value
    /// type.
    static func readMapEntries<Key: _MapKey, Value: RealmCollectionValue>(from cursor: CollectionCursor,
                                                                         into batch: inout [SingleMapEntry<Key, Value>],
                                                                         upTo limit: Int) throws(RealmError) -> Bool {
        guard Key.self == String.self else { return false }
        if Value.self == Int.self {
            return try reading(&batch, as: SingleMapEntry<String, Int>.self) { (batch) throws(RealmError) in try readMapEntries(from: cursor, into: &batch, limit) }
        }
        if Value.self == String.self {
            return try reading(&batch, as: SingleMapEntry<String, String>.self) { (batch) throws(RealmError) in try readMapEntries(from: cursor, into: &batch, limit) }
        }
        if Value.self == Double.self {
            return try reading(&batch, as: SingleMapEntry<String, Double>.self) { (batch) throws(RealmError) in try readMapEntries(from: cursor, into: &batch, limit) }
        }
        return false
    }

    // Inlined where `T` is named, so that the loop is specialized to it.
    @inline(__always)
    private static func setElements<T: NativeColumnValue & RealmCollectionValue>(of set: ListHandle, native: T.Type,
                                                                                 _ transaction: Transaction) throws(RealmError) -> [T]? {
        var elements: [T] = []
        let matched = try transaction.forEachSetElement(of: set, as: T.self, { elements.append($0) },
                                                        other: { elements.append(T._fromValue($0, in: nil)) })
        return matched ? elements : nil
    }

    @inline(__always)
    private static func mapEntries<T: NativeColumnValue & RealmCollectionValue>(of map: ListHandle, native: T.Type,
                                                                                _ transaction: Transaction) throws(RealmError)
        -> [SingleMapEntry<String, T>]? {
        var entries: [SingleMapEntry<String, T>] = []
        let matched = try transaction.forEachEntry(of: map, as: T.self, { entries.append(SingleMapEntry(key: $0, value: $1)) },
                                                   other: { entries.append(SingleMapEntry(key: $0, value: T._fromValue($1, in: nil))) })
        return matched ? entries : nil
    }

    // Generic over `T` alone, and called where `T` is named, so that they
    // are specialized to it, closures included.
    private static func readSetElements<T: NativeColumnValue & RealmCollectionValue>(from cursor: CollectionCursor, into batch: inout [T],
                                                                                    _ limit: Int) throws(RealmError) -> Bool {
        guard cursor.elementType == T.nativePropertyType else { return false }
        _ = try cursor.read(upTo: limit, as: T.self, { batch.append($1) }, other: { batch.append(T._fromValue($1, in: nil)) })
        return true
    }

    private static func readMapEntries<T: NativeColumnValue & RealmCollectionValue>(from cursor: CollectionCursor,
                                                                                   into batch: inout [SingleMapEntry<String, T>],
                                                                                   _ limit: Int) throws(RealmError) -> Bool {
        guard cursor.elementType == T.nativePropertyType else { return false }
        _ = try cursor.read(upTo: limit, as: T.self, { batch.append(SingleMapEntry(key: $0, value: $1)) },
                            other: { batch.append(SingleMapEntry(key: $0, value: T._fromValue($1, in: nil))) })
        return true
    }

    /// Calls `body` with `batch` as the array of `Target` it is (the caller
    /// checked the element types are the same): taken out of `batch`
    /// meanwhile, so that it stays uniquely referenced and keeps its
    /// capacity.
    @inline(__always)
    private static func reading<Source, Target>(_ batch: inout [Source], as target: Target.Type,
                                                _ body: (inout [Target]) throws(RealmError) -> Bool) throws(RealmError) -> Bool {
        var same: [Target] = Self.same(batch)!
        batch = []
        same.removeAll(keepingCapacity: true)
        defer { batch = Self.same(same)! }
        return try body(&same)
    }

    /// `array`, whose element type the caller checked is `Target`'s: the
    /// same array, not an element-by-element cast (`as? [Target]` visits
    /// every element through its type's witness table).
    private static func same<Source, Target>(_ array: [Source]?) -> [Target]? {
        guard let array else { return nil }
        precondition(Source.self == Target.self, "NativeIteration: \(Source.self) read as \(Target.self)")
        return unsafeBitCast(array, to: [Target].self)
    }
}
