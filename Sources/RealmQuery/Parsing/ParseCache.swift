import RealmCore
import Synchronization

/// Where a constant of a parsed predicate came from.
enum ConstantSource: Equatable, Sendable {
    /// How a placeholder converts its argument.
    enum Conversion: Sendable {
        case none
        /// `%f` given an integer.
        case integerToDouble
    }

    /// Written out in the format string.
    case literal
    /// The argument at this position.
    case argument(Int, Conversion)
    /// A `{…}` list with arguments among its elements, whose parse is not
    /// reused.
    case listWithArguments
}

/// What parsing depends on in an argument: the kind of a value, the text of
/// a key path.
enum ArgumentShape: Hashable, Sendable {
    case value(ConstantKind)
    case keyPath(String)
    case values

    init(_ argument: QueryArgument) {
        switch argument {
        case .value(let value): self = .value(ConstantKind(value))
        case .keyPath(let path): self = .keyPath(path)
        case .values: self = .values
        }
    }

    /// Key paths compare by code points, as property names do in a file.
    static func == (lhs: ArgumentShape, rhs: ArgumentShape) -> Bool {
        switch (lhs, rhs) {
        case (.value(let a), .value(let b)): a == b
        case (.keyPath(let a), .keyPath(let b)): a.hasSameCodePoints(as: b)
        case (.values, .values): true
        default: false
        }
    }
}

/// A format string parsed once, ready to take other arguments of the same
/// shapes: the parser's decisions (which placeholder takes which argument,
/// whether it fits, how `%f` converts it) depend only on the shapes, except
/// for a string standing for a key path, whose text must match.
struct ParsedFormat: Sendable {
    private let predicate: Predicate
    private let sources: [ConstantSource]
    /// The literal constants, by constant number; `.value(.null)` where an
    /// argument goes.
    private let literals: [QueryExpression]
    /// The arguments that stand for key paths, which shape the predicate.
    private let keyPathArguments: [(position: Int, argument: QueryArgument)]
    private let takesArguments: Bool

    /// The parse of a format string that can be reused; nil when it cannot
    /// (a `{…}` list with arguments in it), or when the sources do not line
    /// up with the predicate's constants.
    init?(_ predicate: Predicate, sources: [ConstantSource], keyPathArguments: Set<Int>, arguments: [QueryArgument]) {
        let constants = predicate.constants
        guard constants.count == sources.count, !sources.contains(.listWithArguments) else { return nil }
        for (constant, source) in zip(constants, sources) {
            if case .argument(let position, let conversion) = source,
               Self.expression(for: arguments[position], conversion) != constant {
                return nil
            }
        }
        // The arguments' values are replaced at each use; keeping them
        // would hold a collection for `IN %@` in memory as long as the
        // entry lives.
        literals = zip(constants, sources).map { constant, source in source == .literal ? constant : .value(.null) }
        self.predicate = predicate.replacingConstants(with: literals)
        self.sources = sources
        self.keyPathArguments = keyPathArguments.sorted().map { ($0, arguments[$0]) }
        self.takesArguments = sources.contains { $0 != .literal }
    }

    /// Whether `arguments`, of the shapes this parse was made with, can
    /// reuse it: the key paths they stand for are the same.
    func accepts(_ arguments: [QueryArgument]) -> Bool {
        keyPathArguments.allSatisfy { arguments[$0.position] == $0.argument }
    }

    /// The predicate the format string means with `arguments`.
    func predicate(with arguments: [QueryArgument]) -> Predicate {
        guard takesArguments else { return predicate }
        return predicate.replacingConstants(with: constants(with: arguments))
    }

    /// The values of the constants of ``predicate(with:)``, in order, made
    /// without building the predicate; nil when one is a list.
    func constantValues(with arguments: [QueryArgument]) -> [Value]? {
        var values: [Value] = []
        values.reserveCapacity(sources.count)
        for (number, source) in sources.enumerated() {
            guard case .value(let value) = constant(number, source, with: arguments) else { return nil }
            values.append(value)
        }
        return values
    }

    private func constants(with arguments: [QueryArgument]) -> [QueryExpression] {
        var constants: [QueryExpression] = []
        constants.reserveCapacity(sources.count)
        for (number, source) in sources.enumerated() {
            constants.append(constant(number, source, with: arguments))
        }
        return constants
    }

    private func constant(_ number: Int, _ source: ConstantSource, with arguments: [QueryArgument]) -> QueryExpression {
        switch source {
        case .literal, .listWithArguments: literals[number]
        case .argument(let position, let conversion): Self.expression(for: arguments[position], conversion)
        }
    }

    private static func expression(for argument: QueryArgument, _ conversion: ConstantSource.Conversion) -> QueryExpression {
        switch (argument, conversion) {
        case (.value(.int(let value)), .integerToDouble): .value(.double(Double(value)))
        case (.value(let value), _): .value(value)
        case (.values(let values), _): .values(values)
        case (.keyPath(let path), _): .keyPath(path)
        }
    }
}

/// The parses of recent format strings, by the shapes of their arguments,
/// shared by the whole process: a filter written per lookup
/// (`filter("name == %@", name)`) is parsed once, not per call.
///
/// The cache is small and bounded; when full, it starts over.
final class ParseCache: Sendable {
    static let shared = ParseCache()
    static let capacity = 256

    private struct Key: Hashable {
        let format: String
        let shapes: [ArgumentShape]

        /// Formats compare by code points: a canonically equivalent format
        /// with other code points is another query.
        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.format.hasSameCodePoints(as: rhs.format) && lhs.shapes == rhs.shapes
        }
    }

    private struct State {
        var entries: [Key: ParsedFormat] = [:]
        /// The entry found last, compared before hashing: a loop of
        /// lookups parses one format again and again.
        var recent: (key: Key, parsed: ParsedFormat)?
    }

    private let state = Mutex(State())

    /// The predicate of `format` with `arguments`: from an earlier parse of
    /// the same format with arguments of the same shapes, or from `parse`,
    /// whose reusable result is kept; with that reusable parse, if any.
    func predicate(
        _ format: String, arguments: [QueryArgument],
        parse: () throws(QueryError) -> (Predicate, ParsedFormat?)
    ) throws(QueryError) -> (predicate: Predicate, reusable: ParsedFormat?) {
        let key = Key(format: format, shapes: arguments.map(ArgumentShape.init))
        let found = state.withLock { state -> ParsedFormat? in
            if let recent = state.recent, recent.key == key { return recent.parsed }
            guard let parsed = state.entries[key] else { return nil }
            state.recent = (key, parsed)
            return parsed
        }
        if let found, found.accepts(arguments) {
            return (found.predicate(with: arguments), found)
        }
        let (predicate, parsed) = try parse()
        if let parsed {
            state.withLock { state in
                if state.entries.count >= Self.capacity { state.entries.removeAll(keepingCapacity: true) }
                state.entries[key] = parsed
                state.recent = (key, parsed)
            }
        }
        return (predicate, parsed)
    }
}
