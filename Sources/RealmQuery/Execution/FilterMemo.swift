import RealmCore

/// The format strings that one thread filtered whole classes by lately,
/// each with its parse and its plan template, so that a lookup written as a
/// filter per call (`realm.objects(Dog.self).filter("name == %@", name)`)
/// goes from its arguments to its plan without the process-wide caches.
///
/// Those caches (`ParseCache`, `PlanTemplates`) are shared by every thread:
/// each use takes a lock, builds a key and compares a query's shape, which
/// together cost as much as the lookup's SQLite step. The memo compares a
/// class name, a format string and the kinds of the arguments instead. An
/// entry holds what those caches returned for the format's first call of
/// its shape, so a hit gives the predicate and plan they would give.
///
/// Only queries over a whole class (no predicate, order or distinct of
/// their own) are remembered: the idiom it serves starts from
/// `objects(_:)`, and keying on that alone keeps a hit cheap.
///
/// Not thread-safe: its owner, which is confined to one thread (a Realm),
/// keeps it to itself.
package final class FilterMemo {
    /// A class, so that finding one costs a retain rather than a copy.
    private final class Entry {
        let className: String
        let format: String
        let shapes: [ArgumentShape]
        /// The schema the template was planned for (the transaction's
        /// catalog), held so that its identity cannot be reused.
        let catalog: AnyObject
        let parsed: ParsedFormat
        let template: PlanTemplate

        init(className: String, format: String, shapes: [ArgumentShape], catalog: AnyObject,
             parsed: ParsedFormat, template: PlanTemplate) {
            self.className = className
            self.format = format
            self.shapes = shapes
            self.catalog = catalog
            self.parsed = parsed
            self.template = template
        }

        func matches(_ className: String, _ format: String, _ arguments: [QueryArgument], _ catalog: AnyObject) -> Bool {
            guard self.catalog === catalog, shapes.count == arguments.count,
                  self.format.hasSameCodePoints(as: format), self.className == className else { return false }
            for (shape, argument) in zip(shapes, arguments) where shape != ArgumentShape(argument) {
                return false
            }
            return parsed.accepts(arguments)
        }
    }

    /// A thread's lookups use a handful of formats.
    static let capacity = 16

    /// The entries, the most recently made last.
    private var entries: [Entry] = []

    /// An empty memo.
    package init() {}

    /// `query` further filtered by `format` with `arguments`, checked
    /// against the schema the transaction reads and planned for it.
    ///
    /// - Throws: ``QueryError`` for a malformed format or a predicate that
    ///   does not fit the schema, pointing at the offending token.
    package func filtered(
        _ query: Query, by format: String, arguments: [QueryArgument], in transaction: Transaction
    ) throws -> Query {
        // Begins an idle transaction's read, which loads the schema.
        _ = try transaction.version
        let catalog = transaction.catalogIdentity
        let isWholeClass = query.isWholeClass
        if isWholeClass,
           let entry = entries.last(where: { $0.matches(query.className, format, arguments, catalog) }),
           let values = entry.parsed.constantValues(with: arguments) {
            // Only a whole-class query gets here, so its predicate, true,
            // takes nothing away from the format's.
            return query.filtered(by: entry.parsed, arguments: arguments,
                                  plan: entry.template.plan(with: values), for: catalog)
        }
        let (predicate, parsed) = try PredicateParser.parseReusably(format, arguments: arguments)
        let filtered = query.filtered(by: predicate)
        let template = try filtered.makePlan(in: transaction).template
        if isWholeClass, let parsed, let template {
            // Entries for an older schema can never match again.
            entries.removeAll { $0.catalog !== catalog }
            if entries.count >= Self.capacity { entries.removeFirst() }
            entries.append(Entry(
                className: query.className, format: format, shapes: arguments.map(ArgumentShape.init),
                catalog: catalog, parsed: parsed, template: template))
        }
        return filtered
    }

    /// The number of entries, for tests.
    package var count: Int { entries.count }
}

extension Query {
    /// Whether the query is all the objects of its class, in key order.
    fileprivate var isWholeClass: Bool {
        guard case .truePredicate = predicate, case .table = source else { return false }
        return sort.isEmpty && distinct.isEmpty && !distinctBeforeSort && evaluation == .automatic
    }
}
