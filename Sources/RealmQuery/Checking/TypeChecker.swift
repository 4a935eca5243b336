import RealmCore

/// Checks a predicate against a schema and resolves it into a
/// ``Condition``: every key path must resolve, every operator must apply to
/// the types it compares, every constant must fit the key path it is
/// compared with. Errors quote the format string and point at the offending
/// token (or quote the predicate's description when it was built in code).
///
/// Costs one walk over the predicate, with dictionary-free lookups in the
/// schema (classes are few).
struct TypeChecker {
    let schema: Schema
    /// What errors quote for comparisons that carry no source location.
    /// The whole predicate, quoted in errors about comparisons built in
    /// code (formatted only then).
    let predicate: Predicate
    private var resolver: KeyPathResolver { KeyPathResolver(schema: schema) }

    func check(_ predicate: Predicate, className: String) throws(QueryError) -> Condition {
        try check(predicate, className: className, variable: nil)
    }

    private func check(_ predicate: Predicate, className: String, variable: String?) throws(QueryError) -> Condition {
        switch predicate {
        case .truePredicate:
            return .constant(true)
        case .falsePredicate:
            return .constant(false)
        case .and(let operands):
            var checked: [Condition] = []
            for operand in operands { checked.append(try check(operand, className: className, variable: variable)) }
            return .and(checked)
        case .or(let operands):
            var checked: [Condition] = []
            for operand in operands { checked.append(try check(operand, className: className, variable: variable)) }
            return .or(checked)
        case .not(let operand):
            return .not(try check(operand, className: className, variable: variable))
        case .comparison(let comparison):
            return try check(comparison, className: className, variable: variable)
        }
    }

    // MARK: Comparisons

    /// One side of a comparison, resolved.
    private struct Side {
        var operand: Operand
        /// nil for constants.
        var type: PropertyType?
        var objectClass: String?
        var mayBeNull = false
        var isMultiValued = false
        var isSubquery = false
        /// How messages name it.
        var name: String

        var isConstant: Bool { type == nil }
    }

    private func check(_ comparison: Comparison, className: String, variable: String?) throws(QueryError) -> Condition {
        let report = Reporter(comparison: comparison, predicate: predicate)
        var left = try side(comparison.left, isLeft: true, className: className, variable: variable, report: report)
        var right = try side(comparison.right, isLeft: false, className: className, variable: variable, report: report)
        var op = comparison.op

        if left.isConstant && right.isConstant {
            throw report.error("A comparison needs at least one key path, but this one compares two constants", at: .whole)
        }
        if case .constants = left.operand {
            throw report.error("A list of values can only be the right side of IN or BETWEEN", at: .left)
        }
        if op == .in {
            if right.isMultiValued {
                guard comparison.modifier == .direct || comparison.modifier == .any else {
                    throw report.error("\(comparison.modifier.rawValue) cannot modify IN with a list key path; write \(comparison.modifier.rawValue) \(comparison.right) == \(comparison.left)", at: .whole)
                }
                op = .equal
            } else if case .constants = right.operand {
            } else {
                throw report.error("IN needs a list of values {…}, a collection argument or a key path to a list, but \(right.name) is a single value", at: .right)
            }
        } else if case .constants(let values) = right.operand {
            guard op == .between else {
                throw report.error("A list of values can only be the right side of IN or BETWEEN", at: .right)
            }
            guard values.count == 2 else {
                throw report.error("BETWEEN needs exactly two values, {low, high}, but \(values.count) were given", at: .right)
            }
        } else if op == .between {
            throw report.error("BETWEEN needs two values, {low, high}, but \(right.name) is not a list", at: .right)
        }

        var quantifier = Quantifier.single
        if left.isMultiValued && right.isMultiValued {
            throw report.error("Only one side of a comparison can be a key path through a list, but \(left.name) and \(right.name) both are", at: .whole)
        }
        if left.isMultiValued || right.isMultiValued {
            switch comparison.modifier {
            case .direct, .any: quantifier = .any
            case .all: quantifier = .all
            case .none: quantifier = .none
            }
        } else if comparison.modifier != .direct {
            let subject = left.isConstant ? right : left
            throw report.error("\(comparison.modifier.rawValue) needs a key path through a list or linking objects, but \(subject.name) is a single value", at: left.isConstant ? .right : .left)
        }
        if (left.isSubquery && !right.isConstant) || (right.isSubquery && !left.isConstant) {
            throw report.error("SUBQUERY(…).@count must be compared with a constant", at: .whole)
        }

        let subject = left.isConstant ? right : left
        if case .path(let path)? = Optional(subject.operand) {
            switch path.terminal {
            case .mixedType, .mixedPath(_, _, _, .typeNames):
                return try typeComparison(left: left, op: op, right: right, quantifier: quantifier, report: report)
            default:
                break
            }
        }
        let type = subject.type!
        if !left.isConstant && !right.isConstant {
            try checkCompatible(left, right, report: report)
        }
        try checkOperator(op, options: comparison.options, on: subject, report: report)

        if left.isConstant {
            left.operand = try coerce(left.operand, to: right, op: op, at: .left, report: report)
        }
        if right.isConstant {
            right.operand = try coerce(right.operand, to: left, op: op, at: .right, report: report)
        }
        return .comparison(ResolvedComparison(
            left: left.operand, op: op, right: right.operand, quantifier: quantifier,
            options: comparison.options, type: type, multiValuedRight: right.isMultiValued))
    }

    private func side(_ expression: QueryExpression, isLeft: Bool, className: String, variable: String?, report: Reporter) throws(QueryError) -> Side {
        switch expression {
        case .value(let value):
            return Side(operand: .constant(value), name: ValueCoercion.describe(value))
        case .values(let values):
            return Side(operand: .constants(values), name: "the list of \(values.count) values")
        case .keyPath(let text):
            let path = try resolve(text, className: className, variable: variable, isLeft: isLeft, componentShift: 0, report: report)
            return Side(operand: .path(path), type: path.valueType, objectClass: path.terminal == .object ? path.endClass : nil,
                        mayBeNull: path.mayBeNull, isMultiValued: path.isMultiValued,
                        name: "'\(text)' (\(Self.describe(path)))")
        case .collectionOperation(let op, let collection, let property):
            let collectionCount = collection.split(separator: ".", omittingEmptySubsequences: false).count
            let text = collection + (property.map { "." + $0 } ?? "")
            let path = try resolve(text, className: className, variable: variable, isLeft: isLeft, componentShift: collectionCount, report: report)
            let place: Reporter.Place = isLeft ? .left : .right
            if op == .count, property == nil, let sized = Self.sizeOfNestedCollection(path) {
                // `value.@size`: the size of the collection a mixed value
                // holds, as `value[SIZE]`.
                return Side(operand: .path(sized), type: sized.valueType, mayBeNull: sized.mayBeNull, isMultiValued: sized.isMultiValued,
                            name: "'\(collection).\(op.rawValue)' (\(Self.describe(sized)))")
            }
            guard path.isMultiValued else {
                throw report.error("\(op.rawValue) needs a list, linking objects or a key path through one, but '\(collection)' is \(Self.phrase(path))", at: place)
            }
            let written = "\(collection).\(op.rawValue)" + (property.map { "." + $0 } ?? "")
            let (type, mayBeNull) = try aggregateType(op, of: path, written: written, at: place, report: report)
            return Side(operand: .aggregate(op, path), type: type, mayBeNull: mayBeNull, name: "'\(written)' (\(type))")
        case .subqueryCount(let collection, let subqueryVariable, let predicate):
            let place: Reporter.Place = isLeft ? .left : .right
            let path: ResolvedPath
            do {
                path = try resolver.resolve(collection, from: className, variable: variable)
            } catch {
                throw report.error(error.message, at: place)
            }
            guard path.isMultiValued, path.terminal == .object else {
                throw report.error("The collection of SUBQUERY must be a list of objects or linking objects, but '\(collection)' is \(Self.phrase(path))", at: place)
            }
            let inner = try check(predicate, className: path.endClass, variable: subqueryVariable)
            return Side(operand: .subqueryCount(path, inner), type: .int, isSubquery: true, name: "SUBQUERY(\(collection), …).@count")
        }
    }

    /// The path to the size of the collection a mixed property (or a path
    /// into its nested collections) reaches; nil for any other path.
    private static func sizeOfNestedCollection(_ path: ResolvedPath) -> ResolvedPath? {
        let terminal: PathTerminal
        switch path.terminal {
        case .column(let property, let index) where property.type == .mixed:
            terminal = .mixedPath(property, index: index, steps: [], end: .size)
        case .mixedPath(let property, let index, let steps, .values):
            terminal = .mixedPath(property, index: index, steps: steps, end: .size)
        default:
            return nil
        }
        return ResolvedPath(rootClass: path.rootClass, steps: path.steps, terminal: terminal, text: path.text)
    }

    private func resolve(_ text: String, className: String, variable: String?, isLeft: Bool, componentShift: Int, report: Reporter) throws(QueryError) -> ResolvedPath {
        do {
            return try resolver.resolve(text, from: className, variable: variable)
        } catch {
            // Components after a collection operator sit one further along,
            // past the operator.
            let component = componentShift > 0 && error.component >= componentShift ? error.component + 1 : error.component
            throw report.error(error.message, at: isLeft ? .leftComponent(component) : .rightComponent(component))
        }
    }

    private func aggregateType(_ op: CollectionOperation, of path: ResolvedPath, written: String, at place: Reporter.Place, report: Reporter) throws(QueryError) -> (PropertyType, Bool) {
        let element = path.valueType
        if op == .count { return (.int, false) }
        if element == .object {
            throw report.error("\(op.rawValue) needs a property of the elements to aggregate, as in \(path.text).\(op.rawValue).someProperty", at: place)
        }
        switch op {
        case .min, .max:
            guard [.int, .float, .double, .date, .decimal].contains(element) else {
                throw report.error("\(op.rawValue) applies to int, float, double, date and decimal values, but '\(path.text)' holds \(element) values", at: place)
            }
            return (element, true)
        case .sum, .average:
            guard [.int, .float, .double, .decimal].contains(element) else {
                throw report.error("\(op.rawValue) applies to int, float, double and decimal values, but '\(path.text)' holds \(element) values", at: place)
            }
            if element == .decimal { return (.decimal, op == .average) }
            if op == .average { return (.double, true) }
            return (element == .int ? .int : .double, false)
        case .count:
            return (.int, false)
        }
    }

    // MARK: Types and operators

    private static let numericTypes: Set<PropertyType> = [.int, .float, .double]

    private func checkCompatible(_ left: Side, _ right: Side, report: Reporter) throws(QueryError) {
        let leftType = left.type!, rightType = right.type!
        if Self.numericTypes.contains(leftType) && Self.numericTypes.contains(rightType) { return }
        // A mixed value compares with anything.
        if leftType == .mixed || rightType == .mixed { return }
        guard leftType == rightType else {
            throw report.error("Cannot compare \(left.name) with \(right.name): their types differ", at: .op)
        }
        if leftType == .object && left.objectClass != right.objectClass {
            throw report.error("Cannot compare \(left.name) with \(right.name): they are objects of different classes", at: .op)
        }
    }

    private func checkOperator(_ op: ComparisonOperator, options: StringOptions, on subject: Side, report: Reporter) throws(QueryError) {
        let type = subject.type!
        let allowed: [ComparisonOperator]
        let summary: String
        switch type {
        case .int, .float, .double, .date, .decimal:
            allowed = [.equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .between, .in]
            summary = "\(type == .date ? "dates" : "numbers") support ==, !=, <, <=, >, >=, BETWEEN and IN"
        case .string:
            allowed = [.equal, .notEqual, .in, .beginsWith, .contains, .endsWith, .like]
            summary = "strings support ==, !=, IN, BEGINSWITH, CONTAINS, ENDSWITH and LIKE"
        case .data:
            allowed = [.equal, .notEqual, .in, .beginsWith, .contains, .endsWith, .like]
            summary = "data supports ==, !=, IN, BEGINSWITH, CONTAINS, ENDSWITH and LIKE"
        case .object:
            allowed = [.equal, .notEqual, .in]
            summary = "objects support == and != (identity) and IN"
        case .mixed:
            allowed = [.equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual, .between, .in,
                       .beginsWith, .contains, .endsWith, .like]
            summary = "mixed values support every comparison"
        default:
            allowed = [.equal, .notEqual, .in]
            summary = "\(type) values support ==, != and IN"
        }
        guard allowed.contains(op) else {
            throw report.error("'\(op.rawValue)' is not supported for \(subject.name); \(summary)", at: .op)
        }
        if !options.isEmpty && type != .string && type != .mixed {
            throw report.error("String options \(options.formatted) apply only to string comparisons, but \(subject.name) is not a string", at: .op)
        }
    }

    /// `value.@type == 'string'`, `!=`, `IN {…}`: the names, Realm's (any
    /// case, with its groups such as `numeric`), become the type names the
    /// post-filter gives each value, compared with IN.
    private func typeComparison(left: Side, op: ComparisonOperator, right: Side, quantifier: Quantifier,
                                report: Reporter) throws(QueryError) -> Condition {
        guard !left.isConstant, right.isConstant else {
            throw report.error("@type is compared with type names: write value.@type == 'string'", at: .whole)
        }
        guard op == .equal || op == .notEqual || op == .in else {
            throw report.error("@type supports ==, != and IN", at: .op)
        }
        if op == .notEqual && quantifier != .single {
            throw report.error("!= on the types of a collection's values is not supported; write NONE … == or ALL … !=", at: .op)
        }
        let names: [Value]
        switch right.operand {
        case .constant(let value): names = [value]
        case .constants(let values): names = values
        default: names = []
        }
        var canonical: [Value] = []
        for name in names {
            guard case .string(let text) = name else {
                throw report.error("@type is compared with type names (strings), but got \(ValueCoercion.describe(name))", at: .right)
            }
            guard let group = MixedTypeNames.group(named: text) else {
                throw report.error("'\(text)' is not a type name; use one of \(MixedTypeNames.all.joined(separator: ", "))", at: .right)
            }
            canonical += group.map(Value.string)
        }
        let comparison = ResolvedComparison(left: left.operand, op: .in, right: .constants(canonical), quantifier: quantifier,
                                            options: [], type: .mixed, multiValuedRight: false)
        return op == .notEqual ? .not(.comparison(comparison)) : .comparison(comparison)
    }

    /// Converts a constant side to the type of the other side.
    private func coerce(_ operand: Operand, to subject: Side, op: ComparisonOperator, at place: Reporter.Place, report: Reporter) throws(QueryError) -> Operand {
        let type = subject.type!
        func convert(_ value: Value, allowNil: Bool) throws(QueryError) -> Value {
            if value.isNull {
                guard allowNil else {
                    throw report.error("nil cannot be used with '\(op.rawValue)'; only ==, != and IN compare with nil", at: place)
                }
                guard subject.mayBeNull else {
                    throw report.error("\(subject.name) is never nil, so it cannot be compared with nil", at: place)
                }
                return .null
            }
            guard let converted = ValueCoercion.coerce(value, to: type) else {
                throw report.error("Expected \(Self.article(type)) to compare with \(subject.name), but got \(ValueCoercion.describe(value))", at: place)
            }
            return converted
        }
        switch operand {
        case .constant(let value):
            return .constant(try convert(value, allowNil: op == .equal || op == .notEqual))
        case .constants(let values):
            var converted: [Value] = []
            for value in values { converted.append(try convert(value, allowNil: op == .in)) }
            return .constants(converted)
        default:
            return operand
        }
    }

    static func article(_ type: PropertyType) -> String {
        switch type {
        case .int: "an int"
        case .object: "an object"
        case .objectId: "an object id"
        case .uuid: "a UUID"
        case .data: "data"
        default: "a \(type)"
        }
    }

    /// The path's type as the object of "is": `a string property`, `a list
    /// of Dog`.
    static func phrase(_ path: ResolvedPath) -> String {
        if case .column(let property, _) = path.terminal {
            let noun = property.isOptional ? "optional \(property.type)" : property.type.rawValue
            let article = noun.first.map { "aeiou".contains($0) } == true ? "an" : "a"
            return "\(article) \(noun) property"
        }
        return describe(path)
    }

    static func describe(_ path: ResolvedPath) -> String {
        switch path.terminal {
        case .object:
            guard let last = path.steps.last else { return "an object of \(path.rootClass)" }
            switch last.kind {
            case .link, .mapValue: return "a link to \(last.targetClass)"
            case .list: return path.steps.count == 1 ? "a list of \(last.targetClass)" : "\(last.targetClass) objects"
            case .backlink: return "linking objects of \(last.targetClass)"
            }
        case .column(let property, _):
            return property.isOptional ? "optional \(property.type)" : property.type.rawValue
        case .primitiveList(let property, _):
            return "a list of \(property.type)\(property.isOptional ? "?" : "")"
        case .mapKeys:
            return "the keys of a map"
        case .mapValue(let property, _, _):
            return "a map value of \(property.type)"
        case .mixedType:
            return "the type of a mixed value"
        case .mixedPath(_, _, _, let end):
            switch end {
            case .values: return "a value in a nested collection"
            case .typeNames: return "the type of a value in a nested collection"
            case .size: return "the size of a nested collection"
            }
        }
    }
}
