import RealmCore

/// The constants of a predicate in one fixed order, so that a predicate
/// parsed or planned once can serve other values of the same kinds (see
/// `ParseCache` and `PlanTemplates`).
///
/// The order is depth first, operands in the order they are written: the
/// parser meets the constants of a format string in this order too.
extension Predicate {
    /// Every `.value` and `.values` operand, subqueries included.
    var constants: [QueryExpression] {
        var constants: [QueryExpression] = []
        forEachConstant { constants.append($0) }
        return constants
    }

    /// The values of the `.value` operands, in order; nil when there is a
    /// `.values` operand.
    var constantValues: [Value]? {
        var values: [Value] = []
        var hasLists = false
        forEachConstant { constant in
            if case .value(let value) = constant { values.append(value) } else { hasLists = true }
        }
        return hasLists ? nil : values
    }

    func forEachConstant(_ body: (QueryExpression) -> Void) {
        switch self {
        case .truePredicate, .falsePredicate:
            break
        case .and(let operands), .or(let operands):
            for operand in operands { operand.forEachConstant(body) }
        case .not(let operand):
            operand.forEachConstant(body)
        case .comparison(let comparison):
            comparison.left.forEachConstant(body)
            comparison.right.forEachConstant(body)
        }
    }

    /// The predicate with its constants replaced, in order, by
    /// `replacements` (one for each of ``constants``).
    func replacingConstants(with replacements: [QueryExpression]) -> Predicate {
        var next = 0
        return replacingConstants(with: replacements, next: &next)
    }

    fileprivate func replacingConstants(with replacements: [QueryExpression], next: inout Int) -> Predicate {
        switch self {
        case .truePredicate, .falsePredicate:
            return self
        case .and(let operands):
            return .and(operands.map { $0.replacingConstants(with: replacements, next: &next) })
        case .or(let operands):
            return .or(operands.map { $0.replacingConstants(with: replacements, next: &next) })
        case .not(let operand):
            return .not(operand.replacingConstants(with: replacements, next: &next))
        case .comparison(var comparison):
            comparison.left.replaceConstants(with: replacements, next: &next)
            comparison.right.replaceConstants(with: replacements, next: &next)
            return .comparison(comparison)
        }
    }
}

extension QueryExpression {
    fileprivate func forEachConstant(_ body: (QueryExpression) -> Void) {
        switch self {
        case .value, .values:
            body(self)
        case .subqueryCount(_, _, let predicate):
            predicate.forEachConstant(body)
        case .keyPath, .collectionOperation:
            break
        }
    }

    fileprivate mutating func replaceConstants(with replacements: [QueryExpression], next: inout Int) {
        switch self {
        case .value, .values:
            self = replacements[next]
            next += 1
        case .subqueryCount(let collection, let variable, let predicate):
            self = .subqueryCount(collection: collection, variable: variable,
                                  predicate: predicate.replacingConstants(with: replacements, next: &next))
        case .keyPath, .collectionOperation:
            break
        }
    }
}

// MARK: Shapes

/// The shape of a predicate: the predicate with each constant reduced to
/// its ``ConstantKind``. Two predicates of one shape differ only in the
/// values of their constants.
extension Predicate {
    func hashShape(into hasher: inout Hasher) {
        switch self {
        case .truePredicate:
            hasher.combine(0)
        case .falsePredicate:
            hasher.combine(1)
        case .and(let operands):
            hasher.combine(2)
            Self.hashShapes(of: operands, into: &hasher)
        case .or(let operands):
            hasher.combine(3)
            Self.hashShapes(of: operands, into: &hasher)
        case .not(let operand):
            hasher.combine(4)
            operand.hashShape(into: &hasher)
        case .comparison(let comparison):
            hasher.combine(5)
            comparison.left.hashShape(into: &hasher)
            hasher.combine(comparison.op)
            comparison.right.hashShape(into: &hasher)
            hasher.combine(comparison.modifier)
            hasher.combine(comparison.options)
        }
    }

    func hasSameShape(as other: Predicate) -> Bool {
        switch (self, other) {
        case (.truePredicate, .truePredicate), (.falsePredicate, .falsePredicate):
            return true
        case (.and(let operands), .and(let others)), (.or(let operands), .or(let others)):
            return operands.count == others.count && zip(operands, others).allSatisfy { $0.hasSameShape(as: $1) }
        case (.not(let operand), .not(let otherOperand)):
            return operand.hasSameShape(as: otherOperand)
        case (.comparison(let comparison), .comparison(let otherComparison)):
            return comparison.op == otherComparison.op && comparison.modifier == otherComparison.modifier
                && comparison.options == otherComparison.options
                && comparison.left.hasSameShape(as: otherComparison.left)
                && comparison.right.hasSameShape(as: otherComparison.right)
        default:
            return false
        }
    }

    private static func hashShapes(of operands: [Predicate], into hasher: inout Hasher) {
        hasher.combine(operands.count)
        for operand in operands { operand.hashShape(into: &hasher) }
    }
}

extension QueryExpression {
    fileprivate func hashShape(into hasher: inout Hasher) {
        switch self {
        case .value, .values:
            hasher.combine(0)
            hasher.combine(ConstantKind(self))
        case .keyPath(let path):
            hasher.combine(1)
            hasher.combine(path)
        case .collectionOperation(let operation, let collection, let property):
            hasher.combine(2)
            hasher.combine(operation)
            hasher.combine(collection)
            hasher.combine(property)
        case .subqueryCount(let collection, let variable, let predicate):
            hasher.combine(3)
            hasher.combine(collection)
            hasher.combine(variable)
            predicate.hashShape(into: &hasher)
        }
    }

    fileprivate func hasSameShape(as other: QueryExpression) -> Bool {
        switch (self, other) {
        case (.value, .value), (.values, .values):
            return ConstantKind(self) == ConstantKind(other)
        case (.subqueryCount(let collection, let variable, let predicate),
              .subqueryCount(let otherCollection, let otherVariable, let otherPredicate)):
            return collection == otherCollection && variable == otherVariable && predicate.hasSameShape(as: otherPredicate)
        case (.keyPath, .keyPath), (.collectionOperation, .collectionOperation):
            return self == other
        default:
            return false
        }
    }
}

/// What a plan or a parse can depend on in a constant, short of its value:
/// its type, and for floating-point values whether it is NaN (NaN compiles
/// to a constant false).
enum ConstantKind: Hashable, Sendable {
    case null, bool, int, float, double, floatingNaN, string, data, date, objectId, uuid, decimal, object, collection
    /// A collection of values (`IN %@`, `BETWEEN %@`, `{…}`).
    case values

    init(_ value: Value) {
        switch value {
        case .null: self = .null
        case .bool: self = .bool
        case .int: self = .int
        case .float(let number): self = number.isNaN ? .floatingNaN : .float
        case .double(let number): self = number.isNaN ? .floatingNaN : .double
        case .string: self = .string
        case .data: self = .data
        case .date: self = .date
        case .objectId: self = .objectId
        case .uuid: self = .uuid
        case .decimal: self = .decimal
        case .object, .link: self = .object
        case .collection: self = .collection
        }
    }

    init(_ constant: QueryExpression) {
        if case .value(let value) = constant {
            self.init(value)
        } else {
            self = .values
        }
    }
}
