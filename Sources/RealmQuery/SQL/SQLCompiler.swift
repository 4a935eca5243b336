import RealmCore

/// Compiles resolved conditions into SQL boolean fragments.
///
/// Every comparison becomes SQL that SQLite can run on its own where SQL can
/// say exactly what Realm means; where it cannot (folding beyond ASCII,
/// decimal ordering, aggregates of decimals), it becomes an approximation
/// that still narrows the candidates, marked inexact so that the query runs
/// the post-filter. `positive` is the polarity: true outside any NOT (an
/// approximation must then be a superset), false under an odd number of NOTs
/// (a subset). Values become bound parameters, never SQL text.
struct SQLCompiler {
    let names: StatementNames

    func compile(_ condition: Condition, on object: SQLObject, positive: Bool = true) -> SQLFragment {
        switch condition {
        case .constant(let value):
            return .constant(value)
        case .and(let operands):
            return .and(operands.map { compile($0, on: object, positive: positive) })
        case .or(let operands):
            return .or(operands.map { compile($0, on: object, positive: positive) })
        case .not(let operand):
            return .not(compile(operand, on: object, positive: !positive))
        case .comparison(let comparison):
            return compile(comparison, on: object, positive: positive)
        }
    }

    // MARK: Comparisons

    private func compile(_ comparison: ResolvedComparison, on object: SQLObject, positive: Bool) -> SQLFragment {
        if comparison.quantifier == .single {
            guard let left = operand(comparison.left, on: object, type: comparison.type),
                  let right = operand(comparison.right, on: object, type: comparison.type) else {
                return approximation(positive: positive)
            }
            return test(comparison, left, right, positive: positive)
        }

        let multi = comparison.multiValuedRight ? comparison.right : comparison.left
        let single = comparison.multiValuedRight ? comparison.left : comparison.right
        guard case .path(let path) = multi, let other = operand(single, on: object, type: comparison.type) else {
            return approximation(positive: positive)
        }
        let collection = collection(path, from: object)
        let element = collection.elementOperand(type: path.valueType)
        let (left, right) = comparison.multiValuedRight ? (other, element) : (element, other)

        switch comparison.quantifier {
        case .any, .single:
            let inner = test(comparison, left, right, positive: positive)
            return exists(collection, where: inner)
        case .all:
            // ALL x: p(x)  ≡  NOT EXISTS x: NOT p(x); the two negations cancel
            // out in the polarity.
            let inner = test(comparison, left, right, positive: positive)
            return .not(exists(collection, where: .not(inner)))
        case .none:
            let inner = test(comparison, left, right, positive: !positive)
            return .not(exists(collection, where: inner))
        }
    }

    /// The trivial approximation of a condition SQL cannot say: everything
    /// (a superset) where not negated, nothing (a subset) where negated.
    private func approximation(positive: Bool) -> SQLFragment {
        .constant(positive, isExact: false)
    }

    private func exists(_ collection: CollectionSQL, where condition: SQLFragment) -> SQLFragment {
        if condition.constant == false { return .constant(false, isExact: condition.isExact) }
        var sql = "EXISTS (SELECT 1 FROM " + collection.from.sql + " WHERE " + collection.correlation
        if condition.constant != true { sql += " AND " + condition.text(in: .and) }
        sql += ")"
        var fragment = SQLFragment(sql, condition.constant == true ? [] : condition.arguments, isExact: condition.isExact, isNullable: false)
        // An object is uncertain when one of its elements is.
        fragment.uncertain = condition.uncertain.map { element in
            SQLFragment.Uncertainty(sql: "EXISTS (SELECT 1 FROM " + collection.from.sql + " WHERE " + collection.correlation
                                        + " AND (" + element.sql + "))", arguments: element.arguments)
        }
        return fragment
    }

    /// The test of one pair of scalar values, polarity-correct.
    private func test(_ comparison: ResolvedComparison, _ left: SQLOperand, _ right: SQLOperand, positive: Bool) -> SQLFragment {
        if comparison.type == .mixed, let narrowed = mixedTest(comparison, left, right, positive: positive) { return narrowed }
        let folding = comparison.type == .string ? Folding.of(comparison.options) : nil
        if comparison.op == .notEqual, folding != nil {
            // Folded equality is approximated, so its negation must be
            // derived with the opposite polarity.
            var equal = comparison
            equal.op = .equal
            return .not(test(equal, left, right, positive: !positive))
        }
        let fragment = scalarTest(comparison, left, right, folding: folding)
        if fragment.isExact || positive { return fragment }
        if folding != nil, comparison.op != .in {
            // What matches exactly also matches folded: the exact test is a
            // subset that still narrows a negated folded test.
            var exact = comparison
            exact.options = []
            var subset = scalarTest(exact, left, right, folding: nil)
            if subset.isExact {
                subset.isExact = false
                return subset
            }
        }
        return .constant(false, isExact: false)
    }

    private func scalarTest(_ comparison: ResolvedComparison, _ left: SQLOperand, _ right: SQLOperand, folding: Folding?) -> SQLFragment {
        let type = comparison.type
        // What `mixedTest` cannot narrow (two key paths, string options,
        // type names, paths into nested collections): the post-filter
        // decides.
        if type == .mixed { return .constant(true, isExact: false) }
        switch comparison.op {
        case .equal:
            if let folding { return foldedMatch(.equal, subject: left, needle: right, folding: folding) }
            if type == .decimal { return decimalEquality(left, right) }
            return equality(left, right, negated: false)
        case .notEqual:
            // Text unequal is not value unequal (1.50 and 1.5): decimals
            // are left to the post-filter.
            if type == .decimal { return .constant(true, isExact: false) }
            return equality(left, right, negated: true)
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            return ordering(comparison.op, left, right, type: type)
        case .between:
            guard case .constants(let bounds) = comparison.right else { return .constant(true, isExact: false) }
            return between(left, bounds[0], bounds[1], type: type)
        case .in:
            guard case .constants(let values) = comparison.right, type != .decimal else { return .constant(true, isExact: false) }
            return membership(left, values, type: type, folding: folding)
        case .beginsWith, .contains, .endsWith, .like:
            if let folding { return foldedMatch(comparison.op, subject: left, needle: right, folding: folding) }
            return substringMatch(comparison.op, subject: left, needle: right, type: type)
        }
    }

    // MARK: Operands

    /// The SQL of a single-valued operand, or nil when SQL cannot compute it
    /// exactly (aggregates of decimals, subqueries with inexact conditions).
    func operand(_ operand: Operand, on object: SQLObject, type: PropertyType) -> SQLOperand? {
        switch operand {
        case .constant(let value):
            return .parameter(value)
        case .constants:
            // Consumed by IN and BETWEEN directly.
            return .expression("NULL", isNullable: true)
        case .path(let path):
            return value(of: path, from: object)
        case .aggregate(let op, let path):
            return aggregate(op, of: path, from: object)
        case .subqueryCount(let path, let condition):
            let collection = collection(path, from: object)
            guard case .object(let element) = collection.element else { return nil }
            let inner = compile(condition, on: element, positive: true)
            guard inner.isExact else { return nil }
            var sql = "(SELECT count(*) FROM " + collection.from.sql + " WHERE " + collection.correlation
            if inner.constant != true { sql += " AND " + inner.text(in: .and) }
            sql += ")"
            return .expression(sql, arguments: inner.constant == true ? [] : inner.arguments, isNullable: false)
        }
    }

    /// The value of a single-valued path (only to-one links).
    func value(of path: ResolvedPath, from root: SQLObject) -> SQLOperand {
        var object = root
        for step in path.steps {
            object = object.following(step)
        }
        switch path.terminal {
        case .object:
            return .expression(object.key, isNullable: path.mayBeNull)
        case .column(let property, _), .primitiveList(let property, _):
            return .expression(object.column(property.name), mayBeNaNBlob: property.type == .float || property.type == .double,
                               isNullable: path.mayBeNull)
        case .mapKeys(let property, _), .mixedType(let property, _), .mixedPath(let property, _, _, _):
            // Never compared in SQL (a map's keys are a collection; a
            // type comparison is a mixed one).
            return .expression(object.column(property.name), isNullable: true)
        case .mapValue(let property, _, let key):
            // One value, or NULL for a key the map does not have.
            return .expression(SQLNames.mapValue(object.className, property.name, owner: object.key, key: key),
                               mayBeNaNBlob: property.type == .float || property.type == .double, isNullable: true)
        }
    }

    /// That every link of a to-one key path holds an object, so that its
    /// property can be read; nil for a path without links.
    func linksReached(by path: ResolvedPath, from root: SQLObject) -> SQLFragment? {
        guard !path.steps.isEmpty else { return nil }
        var object = root
        for step in path.steps {
            object = object.following(step)
        }
        return SQLFragment("\(object.key) IS NOT NULL", isNullable: false)
    }

    private func aggregate(_ op: CollectionOperation, of path: ResolvedPath, from object: SQLObject) -> SQLOperand? {
        let collection = collection(path, from: object)
        if op == .count {
            return .expression("(SELECT count(*) FROM \(collection.from.sql) WHERE \(collection.correlation))", isNullable: false)
        }
        let type = path.valueType
        // Decimals are text in the file: SQL cannot add or order them exactly.
        guard type != .decimal else { return nil }
        let value = collection.elementOperand(type: type).sql
        let isReal = type == .float || type == .double
        // NaN is a BLOB in the file; aggregates skip it, as they skip nil.
        let guardNaN = isReal ? " AND \(value) <= 9e999" : ""
        let function: String
        switch op {
        case .min: function = "min(\(value))"
        case .max: function = "max(\(value))"
        // SQLite turns a NaN sum (of infinities of both signs) into NULL:
        // only an empty sum is zero.
        // Integers add as Realm adds them (realm_sum wraps around), with one
        // answer whatever order SQLite reads them in.
        case .sum: function = isReal ? "CASE count(\(value)) WHEN 0 THEN 0.0 ELSE sum(\(value)) END" : "ifnull(realm_sum(\(value)), 0)"
        case .average: function = "avg(\(value))"
        case .count: function = "count(*)"
        }
        return .expression("(SELECT \(function) FROM \(collection.from.sql) WHERE \(collection.correlation)\(guardNaN))",
                           isNullable: op != .sum || isReal)
    }
}
