import Foundation
import RealmCore
import RealmQuery

/// A sorted collection split into sections by a key computed from each
/// element, as Realm Swift's `SectionedResults`:
///
/// ```swift
/// let byLetter = realm.objects(Dog.self).sectioned(by: \.firstLetter, ascending: true)
/// for section in byLetter {
///     print(section.key, section.count)
/// }
/// ```
///
/// The elements with equal keys form a section, in the collection's
/// order; sections come in the order of their first elements (as in
/// realm-core), so the first sort descriptor should decide the key. The sections are computed on first use and again after the Realm
/// moved to another version, calling the key block once per element.
public protocol RealmSectionedResult: RandomAccessCollection, Equatable where Index == Int {
    /// The Realm of the collection sectioned.
    var realm: Realm? { get }
    /// Whether the collection can no longer be used (its Realm was
    /// invalidated).
    var isInvalidated: Bool { get }
    /// Whether the collection belongs to a frozen Realm.
    var isFrozen: Bool { get }
    /// The same sections of the frozen snapshot of the Realm's version.
    func freeze() -> Self
    /// The same sections, live in the calling thread's Realm; nil when the
    /// collection sectioned no longer exists (a list's owner was deleted).
    func thaw() -> Self?
}

/// The sections of a sorted collection (see ``RealmSectionedResult``).
public struct SectionedResults<Key: _Persistable & Hashable, SectionElement: RealmCollectionValue>: RealmSectionedResult {
    public typealias Element = ResultsSection<Key, SectionElement>
    let source: SectionedSource<Key, SectionElement>

    init(source: SectionedSource<Key, SectionElement>) {
        self.source = source
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { source.snapshot().sections.count }

    /// The keys of the sections, in order.
    public var allKeys: [Key] { source.snapshot().sections.map(\.key) }

    /// The section at `index`.
    public subscript(_ index: Int) -> ResultsSection<Key, SectionElement> {
        let sections = source.snapshot().sections
        precondition(index >= 0 && index < sections.count, "Index \(index) is out of bounds (must be less than \(sections.count)).")
        return ResultsSection(source: source, key: sections[index].key)
    }

    /// The element at row `indexPath.item` of section `indexPath.section`.
    public subscript(_ indexPath: IndexPath) -> SectionElement {
        self[indexPath.section][indexPath.item]
    }

    public var realm: Realm? { source.realm }
    public var isInvalidated: Bool { source.isInvalidated }
    public var isFrozen: Bool { source.realm?.isFrozen ?? false }
    public func freeze() -> SectionedResults { SectionedResults(source: source.frozen()) }
    public func thaw() -> SectionedResults? { source.thawed().map { SectionedResults(source: $0) } }

    /// Calls `block` with `.initial`, then after each commit that changed
    /// the collection sectioned (narrowed to `keyPaths`), with the index
    /// paths and sections that changed; on the registering thread, or on
    /// `queue` (a serial queue), where the sections passed belong to a
    /// Realm confined to the queue.
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (SectionedResultsChange<SectionedResults>) -> Void) -> NotificationToken {
        source.observe(keyPaths: keyPaths, on: queue, section: nil) { source, change in
            block(change.map(SectionedResults(source: source)))
        }
    }

    /// Two sectioned results are equal when they are the same sectioning
    /// of the same collection.
    public static func == (lhs: SectionedResults, rhs: SectionedResults) -> Bool {
        lhs.source === rhs.source
    }
}

/// One section of ``SectionedResults``: the elements with one key.
public struct ResultsSection<Key: _Persistable & Hashable, T: RealmCollectionValue>: RealmSectionedResult, Identifiable {
    public typealias Element = T
    let source: SectionedSource<Key, T>
    /// The key of the elements of the section.
    public let key: Key

    init(source: SectionedSource<Key, T>, key: Key) {
        self.source = source
        self.key = key
    }

    /// The section's key, as its identity.
    public var id: Key { key }

    /// The positions of the section's elements in the collection at the
    /// Realm's current version (none once no element has the key).
    private var rows: [Int] {
        let snapshot = source.snapshot()
        guard let index = snapshot.sectionIndex[key] else { return [] }
        return snapshot.sections[index].rows
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { rows.count }

    /// The element at `index` of the section.
    public subscript(_ index: Int) -> T {
        let rows = rows
        precondition(index >= 0 && index < rows.count, "Index \(index) is out of bounds (must be less than \(rows.count)).")
        return source.snapshot().elements[rows[index]]
    }

    public var realm: Realm? { source.realm }
    public var isInvalidated: Bool { source.isInvalidated }
    public var isFrozen: Bool { source.realm?.isFrozen ?? false }
    public func freeze() -> ResultsSection { ResultsSection(source: source.frozen(), key: key) }
    public func thaw() -> ResultsSection? { source.thawed().map { ResultsSection(source: $0, key: key) } }

    /// Calls `block` with `.initial`, then after each commit that changed
    /// this section: its rows, or the section appearing or going (section
    /// indices are those of the whole sectioned results).
    public func observe(keyPaths: [String]? = nil, on queue: DispatchQueue? = nil,
                        _ block: @escaping (SectionedResultsChange<ResultsSection>) -> Void) -> NotificationToken {
        let key = key
        return source.observe(keyPaths: keyPaths, on: queue, section: key) { source, change in
            block(change.map(ResultsSection(source: source, key: key)))
        }
    }

    /// Two sections are equal when they are the same section of the same
    /// sectioned results.
    public static func == (lhs: ResultsSection, rhs: ResultsSection) -> Bool {
        lhs.source === rhs.source && lhs.key == rhs.key
    }
}

/// What changed in sectioned results, as Realm Swift reports it.
public enum SectionedResultsChange<Collection> {
    /// The first delivery: the sections as they are when observing began.
    case initial(Collection)
    /// The collection changed. `deletions` and `modifications` are index
    /// paths of the previous delivery, `insertions` of the sections now;
    /// `sectionsToDelete` are indices of sections gone (whose rows are not
    /// listed), `sectionsToInsert` of new sections.
    case update(Collection, deletions: [IndexPath], insertions: [IndexPath], modifications: [IndexPath],
                sectionsToInsert: IndexSet, sectionsToDelete: IndexSet)

    func map<Other>(_ collection: Other) -> SectionedResultsChange<Other> {
        switch self {
        case .initial:
            return .initial(collection)
        case .update(_, let deletions, let insertions, let modifications, let sectionsToInsert, let sectionsToDelete):
            return .update(collection, deletions: deletions, insertions: insertions, modifications: modifications,
                           sectionsToInsert: sectionsToInsert, sectionsToDelete: sectionsToDelete)
        }
    }
}

// MARK: Making sectioned results

extension RealmCollection where Element: Object {
    /// The collection sorted by the property `keyPath` reads, in sections
    /// of equal values.
    public func sectioned<Key: _Persistable & Hashable>(by keyPath: KeyPath<Element, Key>,
                                                        ascending: Bool = true) -> SectionedResults<Key, Element> {
        let name = KeyPathNames.name(of: keyPath, in: Element.self)
        return sectioned(sortDescriptors: [RealmQuery.SortDescriptor(keyPath: name, ascending: ascending)]) { $0[keyPath: keyPath] }
    }

    /// The collection sorted by `sortDescriptors`, in sections of equal
    /// values of `keyPath`, which the first descriptor must sort on.
    public func sectioned<Key: _Persistable & Hashable>(by keyPath: KeyPath<Element, Key>,
                                                        sortDescriptors: [RealmQuery.SortDescriptor]) -> SectionedResults<Key, Element> {
        guard let first = sortDescriptors.first else { preconditionFailure("Can not section Results with empty sortDescriptor parameter.") }
        precondition(KeyPathNames.name(of: keyPath, in: Element.self) == first.keyPath, "The section key path must match the primary sort descriptor.")
        return sectioned(sortDescriptors: sortDescriptors) { $0[keyPath: keyPath] }
    }

    /// The collection sorted by `sortDescriptors`, in sections of equal
    /// keys that `block` computes; the first descriptor should decide the
    /// key.
    public func sectioned<Key: _Persistable & Hashable>(by block: @escaping (Element) -> Key,
                                                        sortDescriptors: [RealmQuery.SortDescriptor]) -> SectionedResults<Key, Element> {
        sectioned(sortDescriptors: sortDescriptors, block)
    }

    /// The collection sorted by `sortDescriptors`, in sections of equal
    /// keys that `keyBlock` computes.
    public func sectioned<Key: _Persistable & Hashable>(sortDescriptors: [RealmQuery.SortDescriptor],
                                                        _ keyBlock: @escaping (Element) -> Key) -> SectionedResults<Key, Element> {
        precondition(!sortDescriptors.isEmpty, "There must be at least one SortDescriptor when using SectionedResults.")
        guard realm != nil else {
            preconditionFailure("This method may only be called on \(Swift.type(of: self)) instances retrieved from a Realm.")
        }
        return SectionedResults(source: SectionedSource(base: sorted(by: sortDescriptors), order: { Array($0) }, key: keyBlock))
    }
}

extension RealmCollection where Element: SortableType {
    /// The values in ascending or descending order (Realm's order of
    /// values, see ``sorted(ascending:)``), in sections of equal keys that
    /// `block` computes (each holding every value of its key).
    public func sectioned<Key: _Persistable & Hashable>(by block: @escaping (Element) -> Key,
                                                        ascending: Bool = true) -> SectionedResults<Key, Element> {
        guard realm != nil else {
            preconditionFailure("This method may only be called on \(Swift.type(of: self)) instances retrieved from a Realm.")
        }
        return SectionedResults(source: SectionedSource(base: sorted(ascending: ascending), order: { Array($0) }, key: block))
    }
}

// MARK: The sections

/// The sections of a sorted collection at the Realm's current version,
/// shared by a ``SectionedResults`` and its sections, and how to find the
/// same collection in another Realm (frozen, thawed, on a queue).
final class SectionedSource<Key: _Persistable & Hashable, Element: RealmCollectionValue> {
    struct Section {
        let key: Key
        /// The positions of the section's elements in the collection.
        var rows: [Int]
    }

    /// The elements in order and their sections at one version.
    struct Snapshot {
        let stamp: UInt64
        let elements: [Element]
        let sections: [Section]
        let sectionIndex: [Key: Int]

        static var empty: Snapshot { Snapshot(stamp: .max, elements: [], sections: [], sectionIndex: [:]) }

        /// The section and row of each element.
        var indexPaths: [IndexPath] {
            var paths = [IndexPath](repeating: IndexPath(), count: elements.count)
            for (index, section) in sections.enumerated() {
                for (row, position) in section.rows.enumerated() { paths[position] = IndexPath(item: row, section: index) }
            }
            return paths
        }
    }

    let realm: Realm?
    private let read: () -> [Element]
    private let keyOf: (Element) -> Key
    private let isBaseInvalidated: () -> Bool
    private let observeBase: (_ keyPaths: [String]?, _ block: @escaping (RealmCollectionChange<Void>) -> Void) -> NotificationToken
    private let rebuild: (Realm) -> SectionedSource?
    private var cached: Snapshot?

    init<Base: RealmCollection>(base: Base, order: @escaping (Base) -> [Element], key: @escaping (Element) -> Key)
    where Base.Element == Element {
        realm = base.realm
        read = { order(base) }
        keyOf = key
        isBaseInvalidated = { base.isInvalidated }
        observeBase = { keyPaths, block in
            guard let observable = base as? ObservableRealmCollection else {
                preconditionFailure("Cannot observe sections of \(Base.self).")
            }
            return observable.observeErased(keyPaths: keyPaths, block)
        }
        let payload = base.threadConfinedPayload
        rebuild = { realm in
            Base.resolve(payload, in: realm).map { SectionedSource(base: $0, order: order, key: key) }
        }
    }

    var isInvalidated: Bool { isBaseInvalidated() }

    /// The sections at the Realm's current version, computed when it moved.
    func snapshot() -> Snapshot {
        guard let realm else { return .empty }
        return realm.withAccess {
            let stamp = realm.transaction.changeCounter
            if let cached, cached.stamp == stamp { return cached }
            let elements = read()
            var sections: [Section] = []
            var sectionIndex: [Key: Int] = [:]
            for (position, element) in elements.enumerated() {
                let key = keyOf(element)
                if let index = sectionIndex[key] {
                    sections[index].rows.append(position)
                } else {
                    sectionIndex[key] = sections.count
                    sections.append(Section(key: key, rows: [position]))
                }
            }
            let snapshot = Snapshot(stamp: stamp, elements: elements, sections: sections, sectionIndex: sectionIndex)
            cached = snapshot
            return snapshot
        }
    }

    func frozen() -> SectionedSource {
        guard let realm else { preconditionFailure("Cannot freeze sections of a collection with no Realm.") }
        if realm.isFrozen { return self }
        guard let source = rebuild(realm.freeze()) else {
            preconditionFailure("Cannot freeze a collection of an object created in the same write transaction.")
        }
        return source
    }

    func thawed() -> SectionedSource? {
        guard let realm else { return nil }
        guard realm.isFrozen else { return self }
        return rebuild(realm.thaw())
    }

    /// Registers `block` for the changes of the sections (or of the
    /// section of `sectionKey` only), on this thread or on `queue`.
    func observe(keyPaths: [String]?, on queue: DispatchQueue?, section sectionKey: Key?,
                 _ block: @escaping (SectionedSource, SectionedResultsChange<Void>) -> Void) -> NotificationToken {
        guard let realm else { preconditionFailure("Cannot observe sections of a collection with no Realm.") }
        realm.verifyThread()
        realm.verifyObservable()
        guard let queue else { return observeHere(keyPaths: keyPaths, section: sectionKey, block) }
        let configuration = realm.configuration
        let registration = QueueRegistration()
        // Run on the queue only, after this hand-over.
        let register = UncheckedSendable({ [rebuild] in
            do {
                let queueRealm = try Realm(configuration: configuration, queue: queue)
                guard let source = rebuild(queueRealm) else { return }
                registration.set(source.observeHere(keyPaths: keyPaths, section: sectionKey, block))
            } catch {
                preconditionFailure("Failed to open the Realm at '\(configuration.identity)' on the queue '\(queue.label)': \(error)")
            }
        })
        queue.async { register.value() }
        return NotificationToken { queue.async { registration.invalidate() } }
    }

    private func observeHere(keyPaths: [String]?, section sectionKey: Key?,
                             _ block: @escaping (SectionedSource, SectionedResultsChange<Void>) -> Void) -> NotificationToken {
        var previous = snapshot()
        return observeBase(keyPaths) { [self] change in
            switch change {
            case .initial:
                previous = snapshot()
                block(self, .initial(()))
            case .update(_, let deletions, let insertions, let modifications):
                let old = previous
                let current = snapshot()
                previous = current
                var diff = SectionDiff(old: old, new: current, deletions: deletions, insertions: insertions, modifications: modifications)
                if let sectionKey {
                    diff = diff.limited(to: old.sectionIndex[sectionKey], new: current.sectionIndex[sectionKey])
                    guard !diff.isEmpty else { return }
                }
                block(self, .update((), deletions: diff.deletions, insertions: diff.insertions, modifications: diff.modifications,
                                    sectionsToInsert: diff.sectionsToInsert, sectionsToDelete: diff.sectionsToDelete))
            case .error:
                // Realm's sectioned results have no error case; the
                // collection's observer has stopped.
                break
            }
        }
    }
}
