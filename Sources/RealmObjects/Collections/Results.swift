import Foundation
import RealmCore
import RealmQuery

/// The objects of one class that match a query, or the values of a list,
/// set or map sorted or made distinct, in a live, lazily evaluated
/// collection.
///
/// A `Results` runs its query on first use and again only after its Realm
/// moved to another version (a refresh, or a write): so it always reflects
/// the Realm's current state (`puppies.count` is 0, then 1 after a dog is
/// added). `count` is computed in SQL without loading objects; elements are
/// made on access. Iterating with `for … in` walks a snapshot of the
/// matches taken when the loop starts, so changing the matched objects
/// inside the loop is safe.
///
/// Objects are read with the query: a loop streams the matches from one
/// statement, each object reading its row in place until the loop moves
/// on (a kept object's row is copied first), and index access reads the
/// rows of all matches when it first needs them (up to ``rowCacheLimit``
/// values), so that neither costs a query per object.
///
/// `Results` of values (`Results<Int>`, `Results<String?>` …) come from
/// ``RealmCollection/sorted(ascending:)`` and ``RealmCollection/distinct()``
/// of a managed list or set of values, and from ``Map/sorted(ascending:)``:
/// they read the collection's values once per version.
public final class Results<Element: RealmCollectionValue>: RealmCollection {
    public let realm: Realm?
    private let source: Source
    private var cachedKeys: [ObjectKey] = []
    private var cachedStamp: UInt64?
    /// The rows of `cachedKeys`, in batches of `ObjectCursor.rowsPerBatch`,
    /// when `rowsStamp` is current; fewer when the limit was reached.
    private var cachedRows: [RowBatch] = []
    private var rowsStamp: UInt64?
    private var factory: ObjectFactory?
    /// The count answered in SQL, which the elements then agree with.
    private var reportedCount = ReportedCount()
    /// For results of values: the values at `cachedStamp`.
    private var cachedValues: [Element] = []

    /// What the results hold.
    private enum Source {
        /// The objects a query matches (``RealmFetchable`` elements).
        case objects(Query)
        /// Values of a collection.
        case values(ValueSelection)
    }

    /// The most values (rows times properties) index access keeps in
    /// memory; the rows of matches past it are read by key.
    static var rowCacheLimit: Int { 1 << 20 }

    /// The Realm's count of `invalidate()` calls when these results were
    /// made: a later call invalidates them, as in Realm.
    private let invalidations: Int

    init(realm: Realm, query: Query) {
        self.realm = realm
        source = .objects(query)
        invalidations = realm.state.invalidations
    }

    init(realm: Realm, values: ValueSelection) {
        self.realm = realm
        source = .values(values)
        invalidations = realm.state.invalidations
    }

    /// The query of results of objects.
    ///
    /// - Precondition: these are results of objects.
    package var query: Query {
        guard case .objects(let query) = source else {
            preconditionFailure("Results of values have no query: querying is only implemented for collections of Realm objects.")
        }
        return query
    }

    public var _query: Query? {
        guard case .objects(let query) = source else { return nil }
        return query
    }

    /// How the values of results of values are selected; nil for results
    /// of objects.
    var valueSelection: ValueSelection? {
        guard case .values(let selection) = source else { return nil }
        return selection
    }

    /// Whether the Realm was invalidated (``Realm/invalidate()``) since
    /// these results were made, or, for results of values, the object
    /// owning their collection was deleted.
    public var isInvalidated: Bool {
        guard let realm else { return true }
        if invalidations != realm.state.invalidations { return true }
        guard case .values(let selection) = source else { return false }
        return realm.withAccess { !selection.exists(in: realm) }
    }

    /// The name of the class of the objects; for results of values, the
    /// name of the type of the values.
    public var objectClassName: String {
        guard case .objects(let query) = source else { return "\(Element.self)" }
        return query.className
    }

    // MARK: Evaluation

    /// What makes the objects, once the file has the class; nil before
    /// (so there are no objects).
    private func objectFactory(_ realm: Realm) -> ObjectFactory? {
        if let factory, !factory.isDynamic { return factory }
        factory = ObjectFactory(realm: realm, type: Element._fetchedClass!, className: query.className)
        return factory
    }

    /// The keys of the matching objects at the Realm's current version.
    func keys() -> [ObjectKey] {
        guard let realm else { return [] }
        return realm.withAccess { keys(in: realm) }
    }

    private func keys(in realm: Realm) -> [ObjectKey] {
        // A class the file does not have yet has no objects.
        guard objectFactory(realm) != nil else { return [] }
        let stamp = realm.transaction.changeCounter
        if cachedStamp == stamp { return cachedKeys }
        cachedKeys = realm.perform("evaluate a query on '\(query.className)'", ifDamaged: []) { transaction in
            try query.objectKeys(in: transaction)
        }
        reportedCount.conform(&cachedKeys, at: stamp, in: realm, while: "evaluate a query on '\(query.className)'")
        cachedRows = []
        cachedStamp = stamp
        return cachedKeys
    }

    /// The values of results of values at the Realm's current version.
    private func values(_ selection: ValueSelection, in realm: Realm) -> [Element] {
        let stamp = realm.transaction.changeCounter
        if cachedStamp == stamp { return cachedValues }
        let stored = realm.perform("read the values of \(selection.source)", ifDamaged: []) { transaction in
            try selection.values(in: transaction)
        }
        let converting = Element._readsRealm ? realm : nil
        cachedValues = stored.map { Element._fromValue($0, in: converting) }
        cachedStamp = stamp
        return cachedValues
    }

    /// Evaluates the query reading the matches' rows too, for index access.
    private func evaluateWithRows(_ realm: Realm) {
        let stamp = realm.transaction.changeCounter
        guard rowsStamp != stamp else { return }
        var keys: [ObjectKey] = []
        var rows: [RowBatch] = []
        var keptValues = 0
        realm.perform("evaluate a query on '\(query.className)'", ifDamaged: ()) { transaction in
            let cursor = try query.makeCursor(in: transaction, firstBatchSize: ObjectCursor.rowsPerBatch)
            while let element = try cursor.next() {
                keys.append(element.key)
                if let batch = element.batch, element.row == 0, rows.count * ObjectCursor.rowsPerBatch == keys.count - 1 {
                    rows.append(batch)
                    keptValues += batch.count * batch.width
                    if keptValues >= Self.rowCacheLimit { cursor.stopReadingRows() }
                }
            }
        }
        reportedCount.conform(&keys, at: stamp, in: realm, while: "evaluate a query on '\(query.className)'")
        cachedKeys = keys
        cachedRows = rows
        cachedStamp = stamp
        rowsStamp = stamp
    }

    public var count: Int {
        guard let realm else { return 0 }
        return realm.withAccess { count(in: realm) }
    }

    private func count(in realm: Realm) -> Int {
        if case .values(let selection) = source { return values(selection, in: realm).count }
        guard objectFactory(realm) != nil else { return 0 }
        let stamp = realm.transaction.changeCounter
        if cachedStamp == stamp { return cachedKeys.count }
        let count = realm.perform("count the objects of '\(query.className)'", ifDamaged: 0) { transaction in
            try query.count(in: transaction)
        }
        reportedCount.note(count, at: stamp)
        return count
    }

    public subscript(position: Int) -> Element {
        guard let realm else { preconditionFailure("Index \(position) is out of bounds (must be less than 0).") }
        return realm.withAccess { element(at: position, in: realm) }
    }

    private func element(at position: Int, in realm: Realm) -> Element {
        if case .values(let selection) = source {
            let values = values(selection, in: realm)
            precondition(position >= 0 && position < values.count, "Index \(position) is out of bounds (must be less than \(values.count)).")
            return values[position]
        }
        guard let factory = objectFactory(realm) else {
            preconditionFailure("Index \(position) is out of bounds (must be less than 0).")
        }
        // Keys already evaluated at this version serve as they are (the
        // object then reads its row by key); otherwise the first index
        // access reads the rows with the keys.
        if cachedStamp != realm.transaction.changeCounter {
            evaluateWithRows(realm)
        }
        precondition(position >= 0 && position < cachedKeys.count, "Index \(position) is out of bounds (must be less than \(cachedKeys.count)).")
        let object = factory.make(cachedKeys[position])
        let batch = position / ObjectCursor.rowsPerBatch
        let row = position % ObjectCursor.rowsPerBatch
        // A batch holds fewer rows when the reading stopped in it: the last
        // one, or where a damaged file ended the reading.
        if rowsStamp == cachedStamp, batch < cachedRows.count, row < cachedRows[batch].count {
            object._rowBatch = cachedRows[batch]
            object._row = row
        }
        return Element._element(for: object)
    }

    public var first: Element? {
        guard let realm else { return nil }
        return realm.withAccess { first(in: realm) }
    }

    private func first(in realm: Realm) -> Element? {
        if case .values(let selection) = source { return values(selection, in: realm).first }
        guard let factory = objectFactory(realm) else { return nil }
        if cachedStamp == realm.transaction.changeCounter {
            return cachedKeys.first.map { Element._element(for: factory.make($0)) }
        }
        // Sorting reads every match anyway: keep their keys for what
        // follows (`count`, `last`, index access).
        if !query.sort.isEmpty {
            return keys().first.map { Element._element(for: factory.make($0)) }
        }
        // Reads one row rather than evaluating every match.
        let match = realm.perform("evaluate a query on '\(query.className)'", ifDamaged: nil) { transaction in
            try query.firstMatch(in: transaction)
        }
        guard let match else { return nil }
        return Element._element(for: factory.make(match, cursorRow: nil))
    }

    public var last: Element? {
        guard let realm else { return nil }
        return realm.withAccess {
            if case .values(let selection) = source { return values(selection, in: realm).last }
            return keys(in: realm).last.map { Element._element(for: factory!.make($0)) }
        }
    }

    /// Iterates over a snapshot of the matches taken now.
    public func makeIterator() -> Iterator {
        guard let realm else { return Iterator(walk: nil, factory: nil, counted: nil) }
        return realm.withAccess { makeIterator(in: realm) }
    }

    private func makeIterator(in realm: Realm) -> Iterator {
        if case .values(let selection) = source { return Iterator(values: values(selection, in: realm)) }
        guard let factory = objectFactory(realm) else { return Iterator(walk: nil, factory: nil, counted: nil) }
        let stamp = realm.transaction.changeCounter
        let counted = cachedStamp == stamp ? cachedKeys.count : reportedCount.count(at: stamp)
        let cursor = realm.perform("evaluate a query on '\(query.className)'", ifDamaged: nil) { transaction in
            try query.makeCursor(in: transaction) as ObjectCursor?
        }
        return Iterator(walk: cursor.map { ObjectWalk(cursor: $0, factory: factory) }, factory: factory, counted: counted)
    }

    /// Iterates over the matches as they were when iteration began.
    public struct Iterator: IteratorProtocol {
        let walk: ObjectWalk?
        let factory: ObjectFactory?
        /// Held to the count answered at this version, if one was.
        private var loop: CountedLoop?
        /// For results of values: the values left.
        private var values: IndexingIterator<[Element]>?

        init(walk: ObjectWalk?, factory: ObjectFactory?, counted: Int?) {
            self.walk = walk
            self.factory = factory
            loop = counted.map(CountedLoop.init(expected:))
        }

        init(values: [Element]) {
            walk = nil
            factory = nil
            self.values = values.makeIterator()
        }

        /// The next element, or nil after the last.
        public mutating func next() -> Element? {
            if values != nil { return values!.next() }
            guard var loop, let factory else {
                guard let object = walk?.next() else { return nil }
                return Element._element(for: object)
            }
            defer { self.loop = loop }
            let walk = walk
            let object = loop.next({ walk?.next() }, placeholder: { factory.make(.unreadable) }) { [expected = loop.expected] rows in
                factory.realm.noteCountMismatch(counted: expected, read: rows, while: "read the next object of a collection")
            }
            return object.map { Element._element(for: $0) }
        }
    }

    // MARK: Derived results

    /// The objects matching a predicate in the query language, as
    /// ``RealmCollection/filter(_:_:)`` describes.
    ///
    /// Results answers this itself: the generic version first converts the
    /// collection to a `Results`, a dynamic cast and a generic metadata
    /// lookup that a filter per lookup (`realm.objects(Dog.self).filter(
    /// "name == %@", name).first`) would pay every time.
    public func filter(_ predicateFormat: String, _ arguments: Any...) -> Results<Element> where Element: RealmFetchable {
        filter(predicateFormat, arguments: arguments)
    }

    func filter(_ format: String, arguments: [Any]) -> Results<Element> {
        guard let realm else { return self }
        return Results(realm: realm, query: realm.filtered(query, by: format, arguments: arguments))
    }

    /// The results filtered by `format`, or the error (code
    /// `invalidPredicate`, pointing at the offending token) of a predicate
    /// that does not parse or fit the schema: for callers that report bad
    /// queries rather than stop (the sync client's subscriptions).
    package func checkedFilter(_ format: String) throws(Realm.Error) -> Results<Element> {
        guard let realm else { return self }
        return Results(realm: realm, query: try realm.checkedFilter(query, by: format, arguments: []))
    }

    func checkedFilter(_ format: String, arguments: [Any]) throws(Realm.Error) -> Results<Element> {
        guard let realm else { return self }
        return Results(realm: realm, query: try realm.checkedFilter(query, by: format, arguments: arguments))
    }

    func sorted(by descriptors: [RealmQuery.SortDescriptor]) -> Results<Element> {
        guard let realm else { return self }
        var derived = query
        derived.sort = descriptors
        return Results(realm: realm, query: realm.validated(derived))
    }

    func distinct(by keyPaths: [String]) -> Results<Element> {
        guard let realm else { return self }
        var derived = query
        derived.distinct = keyPaths
        return Results(realm: realm, query: realm.validated(derived))
    }

    func aggregate<T: _Persistable>(_ kind: AggregateKind, _ property: String) -> T? {
        guard let realm else { return nil }
        let value = realm.perform("compute \(kind) of '\(query.className).\(property)'", ifDamaged: .null) { transaction in
            try query.aggregate(kind, keyPath: property, in: transaction)
        }
        return value.isNull ? nil : T._fromValue(Self.converted(value, to: T._propertyType), in: realm)
    }

    /// Aggregates come back in the stored type (an average of ints is a
    /// double); convert to what the caller asked for.
    static func converted(_ value: Value, to type: PropertyType) -> Value {
        switch (value, type) {
        case (.int(let int), .double): .double(Double(int))
        case (.int(let int), .float): .float(Float(int))
        // A double only reaches an int aggregate from a damaged file.
        case (.double(let double), .int): .int(Int64(exactly: double.rounded(.towardZero)) ?? 0)
        case (.double(let double), .float): .float(Float(double))
        case (.float(let float), .double): .double(Double(float))
        default: value
        }
    }
}
