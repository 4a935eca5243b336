import Foundation
import RealmCore
import RealmQuery

/// What `realm query` and the browser ask for: a class's objects, filtered
/// with the predicate language, sorted, and limited.
public struct ObjectQuery: Sendable {
    /// A sort key path, ascending or descending.
    public struct Sort: Sendable, Equatable {
        /// A property, or a key path through to-one links.
        public var keyPath: String
        /// Whether smaller values come first.
        public var ascending: Bool

        /// A sort by `keyPath`.
        public init(keyPath: String, ascending: Bool = true) {
            self.keyPath = keyPath
            self.ascending = ascending
        }

        /// Parses `key` or `key,desc` (or `key,asc`), as `--sort` takes it.
        public init(argument: String) throws(ToolError) {
            let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let key = parts.first, !key.isEmpty, parts.count <= 2 else {
                throw ToolError("invalid sort '\(argument)': write a key path, optionally followed by ',desc'")
            }
            keyPath = key
            switch parts.count == 2 ? parts[1].lowercased() : "asc" {
            case "asc", "ascending": ascending = true
            case "desc", "descending": ascending = false
            default: throw ToolError("invalid sort '\(argument)': after the comma write 'asc' or 'desc'")
            }
        }
    }

    /// The class whose objects are wanted.
    public var className: String
    /// A predicate in Realm's query language, or nil for every object.
    public var predicate: String?
    /// Sort keys, the most significant first; none for the class's order.
    public var sort: [Sort]
    /// At most this many objects, or nil for all.
    public var limit: Int?
    /// How many matches to pass over first (a page's start).
    public var offset = 0

    /// A query of `className`'s objects.
    public init(className: String, predicate: String? = nil, sort: [Sort] = [], limit: Int? = nil) {
        self.className = className
        self.predicate = predicate
        self.sort = sort
        self.limit = limit
    }

    /// The storage engine's query, checked against the file's schema.
    ///
    /// - Throws: ``ToolError`` pointing at the offending token of the
    ///   predicate, or naming the unknown class or sort key.
    func compiled(for file: RealmFile) throws(ToolError) -> Query {
        let storedClass = try file.storedClass(named: className)
        guard !storedClass.objectSchema.isEmbedded else {
            throw ToolError("class '\(className)' is embedded: its objects live inside their parents; query the parent class")
        }
        let trimmed = predicate?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        do {
            let parsed = trimmed.isEmpty ? Predicate.truePredicate : try PredicateParser.parse(trimmed)
            let query = Query(className: className, predicate: parsed,
                              sort: sort.map { SortDescriptor(keyPath: $0.keyPath, ascending: $0.ascending) })
            return try query.validated(against: file.schema)
        } catch {
            throw ToolError(error)
        }
    }

    /// Walks the matching objects in order, up to the limit.
    func forEachMatch(in file: RealmFile, _ body: (ObjectCursor.Element, StoredClass) throws(ToolError) -> Void) throws(ToolError) {
        let storedClass = try file.storedClass(named: className)
        let query = try compiled(for: file)
        let cursor: ObjectCursor
        do {
            cursor = try query.makeCursor(in: file.transaction, firstBatchSize: ObjectCursor.rowsPerBatch)
        } catch let error as QueryError {
            throw ToolError(error)
        } catch {
            throw ToolError("\(file.path): querying '\(className)': \(error)")
        }
        var skipped = 0
        while skipped < offset {
            do {
                guard try cursor.next() != nil else { return }
            } catch {
                throw ToolError(error, while: "\(file.path): reading '\(className)'")
            }
            skipped += 1
        }
        var remaining = limit ?? Int.max
        while remaining > 0 {
            let element: ObjectCursor.Element?
            do {
                element = try cursor.next()
            } catch {
                throw ToolError(error, while: "\(file.path): reading '\(className)'")
            }
            guard let element else { break }
            try body(element, storedClass)
            remaining -= 1
        }
    }

    /// The number of matching objects (ignoring the limit).
    func count(in file: RealmFile) throws(ToolError) -> Int {
        let query = try compiled(for: file)
        do {
            return try query.count(in: file.transaction)
        } catch let error as QueryError {
            throw ToolError(error)
        } catch {
            throw ToolError("\(file.path): counting '\(className)': \(error)")
        }
    }
}
