import RealmCore

/// Evaluates resolved conditions on objects in Swift: the post-filter that
/// finishes what SQL could only narrow, and (forced) the reference the tests
/// hold the SQL against.
///
/// Each comparison reads the values its key paths reach through the
/// transaction's object API (one row read per object touched, lists and
/// linking objects one query each), so it costs far more per object than
/// SQL; queries use it only on the candidates SQL leaves.
struct PostFilter {
    let reader: ObjectReader
    private let needles = NeedleCache()

    init(transaction: Transaction) {
        self.reader = ObjectReader(transaction: transaction)
    }

    /// Whether the object `key` of `className` matches `condition`; `row`
    /// holds the object's values when the caller has read them already.
    func matches(_ condition: Condition, _ key: ObjectKey, of className: String, row: [Value]? = nil) throws -> Bool {
        defer { reader.clearRows() }
        if let row { reader.remember(row, of: key, in: className) }
        return try evaluate(condition, key, className)
    }

    private func evaluate(_ condition: Condition, _ key: ObjectKey, _ className: String) throws -> Bool {
        switch condition {
        case .constant(let value):
            return value
        case .and(let operands):
            for operand in operands where try !evaluate(operand, key, className) { return false }
            return true
        case .or(let operands):
            for operand in operands where try evaluate(operand, key, className) { return true }
            return false
        case .not(let operand):
            return try !evaluate(operand, key, className)
        case .comparison(let comparison):
            return try evaluate(comparison, key, className)
        }
    }

    private func evaluate(_ comparison: ResolvedComparison, _ key: ObjectKey, _ className: String) throws -> Bool {
        if comparison.quantifier == .single {
            let left = try value(comparison.left, key, className)
            let right = try value(comparison.right, key, className)
            return test(comparison, left, right)
        }
        let multi = comparison.multiValuedRight ? comparison.right : comparison.left
        let single = comparison.multiValuedRight ? comparison.left : comparison.right
        guard case .path(let path) = multi else { return false }
        let other = try value(single, key, className)
        let elements = try values(of: path, from: key)
        let matches = { (element: Value) -> Bool in
            comparison.multiValuedRight ? test(comparison, other, element) : test(comparison, element, other)
        }
        switch comparison.quantifier {
        case .any, .single: return elements.contains(where: matches)
        case .all: return elements.allSatisfy(matches)
        case .none: return !elements.contains(where: matches)
        }
    }

    /// The test of one pair of values.
    private func test(_ comparison: ResolvedComparison, _ left: Value, _ right: Value) -> Bool {
        let folding = comparison.type == .string ? Folding.of(comparison.options) : nil
        switch comparison.op {
        case .equal:
            return ValueSemantics.equal(left, right, folding: folding)
        case .notEqual:
            return !ValueSemantics.equal(left, right, folding: folding)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            return ValueSemantics.satisfies(ValueSemantics.order(left, right), comparison.op)
        case .between:
            guard case .constants(let bounds) = comparison.right, bounds.count == 2 else { return false }
            return ValueSemantics.satisfies(ValueSemantics.order(left, bounds[0]), .greaterThanOrEqual)
                && ValueSemantics.satisfies(ValueSemantics.order(left, bounds[1]), .lessThanOrEqual)
        case .in:
            guard case .constants(let values) = comparison.right else { return false }
            return values.contains { ValueSemantics.equal(left, $0, folding: folding) }
        case .beginsWith, .contains, .endsWith, .like:
            return StringMatching.matches(comparison.op, left, right, folding: folding, needles: needles)
        }
    }

    /// The single value of an operand (constants lists are read by the test).
    private func value(_ operand: Operand, _ key: ObjectKey, _ className: String) throws -> Value {
        switch operand {
        case .constant(let value):
            return value
        case .constants:
            return .null
        case .path(let path):
            if path.steps.isEmpty, case .column(_, let index) = path.terminal {
                return try reader.column(index, of: key, in: className)
            }
            return try values(of: path, from: key).first ?? .null
        case .aggregate(let op, let path):
            return try Aggregation.compute(op, of: values(of: path, from: key), type: path.valueType)
        case .subqueryCount(let path, let condition):
            var count: Int64 = 0
            for case .object(let element) in try values(of: path, from: key)
            where try evaluate(condition, element, path.endClass) {
                count += 1
            }
            return .int(count)
        }
    }

    /// Every value `path` yields from the object `key`: one for a path of
    /// to-one links (nil when a link is nil), any number through lists and
    /// linking objects (nothing past a nil link), in list order, linking
    /// objects in key order.
    func values(of path: ResolvedPath, from key: ObjectKey) throws -> [Value] {
        var current: [ObjectKey?] = [key]
        for step in path.steps {
            var next: [ObjectKey?] = []
            for object in current {
                guard let object else {
                    // A nil link stays nil through the links after it (which
                    // yield nil), but a collection past it yields nothing.
                    if step.isToOne { next.append(nil) }
                    continue
                }
                switch step.kind {
                case .link:
                    let link = try reader.column(step.propertyIndex, of: object, in: step.ownerClass)
                    if case .object(let target) = link { next.append(target) } else { next.append(nil) }
                case .mapValue(let mapKey):
                    let value = try reader.mapValue(step.propertyIndex, key: mapKey, of: object, in: step.ownerClass)
                    if case .object(let target) = value { next.append(target) } else { next.append(nil) }
                case .list:
                    for case .object(let target) in try reader.list(step.propertyIndex, of: object, in: step.ownerClass) {
                        next.append(target)
                    }
                case .backlink:
                    next += try reader.linkingObjects(to: object, from: step.ownerClass, property: step.propertyIndex).map { $0 }
                }
            }
            current = next
        }
        let endClass = path.endClass
        switch path.terminal {
        case .object:
            return current.map { $0.map(Value.object) ?? .null }
        case .column(_, let index):
            return try current.map { object in
                guard let object else { return .null }
                return try reader.column(index, of: object, in: endClass)
            }
        case .primitiveList(_, let index):
            var result: [Value] = []
            for case let object? in current {
                result += try reader.list(index, of: object, in: endClass)
            }
            return result
        case .mapKeys(_, let index):
            var result: [Value] = []
            for case let object? in current {
                result += try reader.mapKeys(index, of: object, in: endClass).map(Value.string)
            }
            return result
        case .mapValue(_, let index, let key):
            return try current.map { object in
                guard let object else { return .null }
                return try reader.mapValue(index, key: key, of: object, in: endClass)
            }
        case .mixedType(let property, let index):
            // The values' type names (see `MixedTypeNames`).
            var result: [Value] = []
            for object in current {
                guard let object else {
                    result.append(.string("null"))
                    continue
                }
                let values = property.isCollection ? try reader.list(index, of: object, in: endClass)
                    : [try reader.column(index, of: object, in: endClass)]
                result += values.map { .string(MixedTypeNames.name(of: $0)) }
            }
            return result
        case .mixedPath(_, let index, let steps, let end):
            var result: [Value] = []
            for object in current {
                var reached = [try object.map { try reader.column(index, of: $0, in: endClass) } ?? .null]
                for step in steps { reached = try reached.flatMap { try reader.nested($0, step) } }
                switch end {
                case .values:
                    // A single value not reached reads as nil.
                    result += reached.isEmpty && !steps.contains(.all) ? [.null] : reached
                case .typeNames:
                    result += reached.map { .string(MixedTypeNames.name(of: $0)) }
                case .size:
                    result += try reached.map { try reader.size(of: $0) }
                }
            }
            return result
        }
    }
}
