import RealmCore
import Synchronization

/// A plan that serves every query of one shape: the same class, source,
/// sort and distinct, and a predicate that differs only in the values of
/// its constants, which are of the same kinds.
///
/// A plan qualifies when its SQL holds each constant as one parameter,
/// whatever its value. That is so when every comparison tests a single
/// value (a property of the object or of an object it links to, or the
/// object itself) against a constant or another such value, with `==`, `!=`,
/// `<`, `<=`, `>` or `>=` and no string options, the type checker kept each
/// constant as it was (a coercion that changes a constant, such as an
/// integer for a bool, disqualifies), and SQL answers alone. The compiler
/// then writes `column = ?` (`IS NOT ?`, `< ?`, …) for each, in the order of
/// the predicate. What it decides from a value (nil, NaN) is in the
/// constant's ``ConstantKind``, which is part of the shape.
struct PlanTemplate {
    private let plan: QueryPlan
    /// The filter's arguments that come before the constants: the source's.
    private let leadingArguments: [Value]

    /// The template of `plan`, made for `constants`; nil when the plan does
    /// not qualify.
    init?(_ plan: QueryPlan, constants: [Value]) {
        guard !plan.needsPostFilter, plan.condition.isRebindable,
              plan.condition.constantValues == constants else { return nil }
        let arguments = plan.arguments
        guard arguments.count >= constants.count,
              arguments.suffix(constants.count).elementsEqual(constants) else { return nil }
        self.plan = plan
        self.leadingArguments = Array(arguments.dropLast(constants.count))
    }

    /// The plan of the query of this shape whose constants are `constants`.
    func plan(with constants: [Value]) -> QueryPlan {
        plan.rebound(constants: constants, arguments: leadingArguments.isEmpty ? constants : leadingArguments + constants)
    }
}

/// The plan templates of recent query shapes, per schema (the identity of
/// the transaction's catalog), shared by the whole process: a filter
/// written per lookup is checked and compiled once, not per call.
///
/// A shape whose plan does not qualify is remembered too, so that it costs
/// one lookup before the full planning. The cache is bounded; when full, it
/// starts over.
final class PlanTemplates: Sendable {
    static let shared = PlanTemplates()
    static let capacity = 512

    /// A query up to the values of its constants.
    private struct Shape: Hashable {
        let query: Query

        static func == (lhs: Shape, rhs: Shape) -> Bool {
            let (left, right) = (lhs.query, rhs.query)
            return left.className == right.className && left.source == right.source && left.sort == right.sort
                && left.distinct == right.distinct && left.distinctBeforeSort == right.distinctBeforeSort
                && left.evaluation == right.evaluation && left.predicate.hasSameShape(as: right.predicate)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(query.className)
            hasher.combine(query.source)
            hasher.combine(query.sort)
            hasher.combine(query.distinct)
            hasher.combine(query.distinctBeforeSort)
            hasher.combine(query.evaluation)
            query.predicate.hashShape(into: &hasher)
        }
    }

    private struct Key: Hashable {
        let catalog: ObjectIdentifier
        let shape: Shape
    }

    private struct Entry: @unchecked Sendable {
        // @unchecked: the catalog is only compared by identity; holding it
        // keeps that identity from being reused while the entry lives.
        let catalog: AnyObject
        /// nil when the shape's plans do not qualify.
        let template: PlanTemplate?
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        /// The entry found last, compared before hashing: a loop of
        /// lookups asks for one shape again and again.
        var recent: (key: Key, entry: Entry)?
    }

    private let state = Mutex(State())

    /// Whether a constant is small enough to be kept in the cache.
    private static func isSmall(_ value: Value) -> Bool {
        switch value {
        case .string(let text): text.utf8.count <= 256
        case .data(let data): data.count <= 256
        default: true
        }
    }

    /// The plan of `query` for the schema of `catalog`: rebound from the
    /// template of its shape, or made by `makePlan`; with the template of
    /// the shape, when its plans qualify.
    func plan(
        for query: Query, catalog: AnyObject, makePlan: () throws -> QueryPlan
    ) throws -> (plan: QueryPlan, template: PlanTemplate?) {
        // The cache keeps the first query of each shape and its plan with
        // their values: large ones are not worth keeping.
        guard let values = query.predicate.constantValues, values.allSatisfy(Self.isSmall) else { return (try makePlan(), nil) }
        let key = Key(catalog: ObjectIdentifier(catalog), shape: Shape(query: query))
        let found = state.withLock { state -> Entry? in
            if let recent = state.recent, recent.key == key { return recent.entry }
            guard let entry = state.entries[key] else { return nil }
            state.recent = (key, entry)
            return entry
        }
        if let found, found.catalog === catalog {
            guard let template = found.template else { return (try makePlan(), nil) }
            return (template.plan(with: values), template)
        }
        let plan = try makePlan()
        let entry = Entry(catalog: catalog, template: PlanTemplate(plan, constants: values))
        state.withLock { state in
            if state.entries.count >= Self.capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[key] = entry
            state.recent = (key, entry)
        }
        return (plan, entry.template)
    }
}

extension Condition {
    /// Whether the condition's SQL holds each of its constants as one
    /// parameter, whatever the value (see ``PlanTemplate``).
    fileprivate var isRebindable: Bool {
        switch self {
        case .constant: true
        case .and(let operands), .or(let operands): operands.allSatisfy(\.isRebindable)
        case .not(let operand): operand.isRebindable
        case .comparison(let comparison): comparison.isRebindable
        }
    }

    /// The values of the `.constant` operands, in order; nil when there is
    /// a list of constants.
    fileprivate var constantValues: [Value]? {
        var values: [Value] = []
        return appendConstantValues(to: &values) ? values : nil
    }

    private func appendConstantValues(to values: inout [Value]) -> Bool {
        switch self {
        case .constant:
            return true
        case .and(let operands), .or(let operands):
            return operands.allSatisfy { $0.appendConstantValues(to: &values) }
        case .not(let operand):
            return operand.appendConstantValues(to: &values)
        case .comparison(let comparison):
            for operand in [comparison.left, comparison.right] {
                switch operand {
                case .constant(let value): values.append(value)
                case .path: break
                case .constants, .aggregate, .subqueryCount: return false
                }
            }
            return true
        }
    }

    /// The condition with the values of its `.constant` operands replaced,
    /// in order, by `values`. Only for a rebindable condition.
    func replacingConstantValues(_ values: [Value]) -> Condition {
        var next = 0
        return replacingConstantValues(values, next: &next)
    }

    private func replacingConstantValues(_ values: [Value], next: inout Int) -> Condition {
        switch self {
        case .constant:
            return self
        case .and(let operands):
            return .and(operands.map { $0.replacingConstantValues(values, next: &next) })
        case .or(let operands):
            return .or(operands.map { $0.replacingConstantValues(values, next: &next) })
        case .not(let operand):
            return .not(operand.replacingConstantValues(values, next: &next))
        case .comparison(var comparison):
            if case .constant = comparison.left {
                comparison.left = .constant(values[next])
                next += 1
            }
            if case .constant = comparison.right {
                comparison.right = .constant(values[next])
                next += 1
            }
            return .comparison(comparison)
        }
    }
}

extension ResolvedComparison {
    fileprivate var isRebindable: Bool {
        guard quantifier == .single, options.isEmpty, type != .decimal else { return false }
        switch op {
        case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual: break
        default: return false
        }
        func isSingleValue(_ operand: Operand) -> Bool {
            switch operand {
            case .path(let path): !path.isMultiValued
            case .constant: true
            case .constants, .aggregate, .subqueryCount: false
            }
        }
        return isSingleValue(left) && isSingleValue(right)
    }
}
