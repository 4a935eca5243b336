import RealmCore

/// The rows a multi-valued key path yields, as the FROM and WHERE of a
/// correlated subquery: one row per value, in the order the Swift evaluator
/// walks them.
struct CollectionSQL {
    /// What each row yields.
    enum Element {
        /// An object (for paths ending at objects, and for SUBQUERY).
        case object(SQLObject)
        /// A value (a column of the objects reached, or a primitive list's
        /// element).
        case value(String, isNullable: Bool)
    }

    let from: FromClause
    /// Ties the subquery's rows to the outer object.
    let correlation: String
    let element: Element

    func elementOperand(type: PropertyType) -> SQLOperand {
        switch element {
        case .object(let object):
            return .expression(object.key, isNullable: object.nullable)
        case .value(let sql, let isNullable):
            return .expression(sql, mayBeNaNBlob: type == .float || type == .double, isNullable: isNullable)
        }
    }
}

extension SQLCompiler {
    /// Compiles a multi-valued path: to-one links before the first
    /// collection are followed in the outer query (usually without any join:
    /// the link column is the key), the first collection becomes the
    /// subquery's first table, later steps become joins (inner joins for
    /// collections, which yield nothing from nil; left joins for links,
    /// which yield nil).
    func collection(_ path: ResolvedPath, from root: SQLObject) -> CollectionSQL {
        var outer = root
        let firstCollection = path.steps.firstIndex(where: \.isToMany)
        for step in path.steps[..<(firstCollection ?? path.steps.count)] {
            outer = outer.following(step)
        }

        guard let firstCollection else {
            // Only to-one links, then a list of primitive values (or a
            // map's keys).
            let list = names.next("l")
            switch path.terminal {
            case .primitiveList(let property, _):
                let from = FromClause("\(SQLNames.list(outer.className, property.name)) AS \(list)", names: names)
                return CollectionSQL(from: from, correlation: "\(list).owner = \(outer.key)",
                                     element: .value("\(list).value", isNullable: property.isOptional))
            case .mapKeys(let property, _):
                let from = FromClause("\(SQLNames.list(outer.className, property.name)) AS \(list)", names: names)
                return CollectionSQL(from: from, correlation: "\(list).owner = \(outer.key)", element: .value("\(list).key", isNullable: false))
            case .mixedPath(let property, _, _, _):
                // Never compared in SQL; the value stands in.
                let from = FromClause("\(SQLNames.table(outer.className)) AS \(list)", names: names)
                return CollectionSQL(from: from, correlation: "\(list)._key = \(outer.key)",
                                     element: .value("\(list).\(SQLNames.quote(property.name))", isNullable: true))
            case .mixedType(let property, _) where property.isCollection:
                // Never compared in SQL; the elements stand in.
                let from = FromClause("\(SQLNames.list(outer.className, property.name)) AS \(list)", names: names)
                return CollectionSQL(from: from, correlation: "\(list).owner = \(outer.key)", element: .value("\(list).value", isNullable: true))
            default:
                preconditionFailure("collection(_:from:) needs a multi-valued path")
            }
        }

        let step = path.steps[firstCollection]
        let from: FromClause
        let correlation: String
        var current: SQLObject
        switch step.kind {
        case .list:
            let list = names.next("l")
            from = FromClause("\(SQLNames.list(step.ownerClass, step.property)) AS \(list)", names: names)
            correlation = "\(list).owner = \(outer.key)"
            current = SQLObject(className: step.targetClass, key: "\(list).value", alias: nil, nullable: false, from: from)
        case .backlink(originIsList: false):
            let table = names.next("t")
            from = FromClause("\(SQLNames.table(step.ownerClass)) AS \(table)", names: names)
            correlation = "\(table).\(SQLNames.quote(step.property)) = \(outer.key)"
            current = SQLObject(className: step.targetClass, key: "\(table)._key", alias: table, nullable: false, from: from)
        case .backlink(originIsList: true):
            let list = names.next("l")
            from = FromClause("\(SQLNames.list(step.ownerClass, step.property)) AS \(list)", names: names)
            correlation = "\(list).value = \(outer.key)"
            current = SQLObject(className: step.targetClass, key: "\(list).owner", alias: nil, nullable: false, from: from)
        case .link, .mapValue:
            preconditionFailure("the first collection step is not a to-one step")
        }

        for step in path.steps[(firstCollection + 1)...] {
            switch step.kind {
            case .link, .mapValue:
                current = current.following(step)
            case .list:
                let list = names.next("l")
                from.append("JOIN \(SQLNames.list(step.ownerClass, step.property)) AS \(list) ON \(list).owner = \(current.key)")
                current = SQLObject(className: step.targetClass, key: "\(list).value", alias: nil, nullable: false, from: from)
            case .backlink(originIsList: false):
                let table = names.next("t")
                from.append("JOIN \(SQLNames.table(step.ownerClass)) AS \(table) ON \(table).\(SQLNames.quote(step.property)) = \(current.key)")
                current = SQLObject(className: step.targetClass, key: "\(table)._key", alias: table, nullable: false, from: from)
            case .backlink(originIsList: true):
                let list = names.next("l")
                from.append("JOIN \(SQLNames.list(step.ownerClass, step.property)) AS \(list) ON \(list).value = \(current.key)")
                current = SQLObject(className: step.targetClass, key: "\(list).owner", alias: nil, nullable: false, from: from)
            }
        }

        switch path.terminal {
        case .object:
            return CollectionSQL(from: from, correlation: correlation, element: .object(current))
        case .column(let property, _):
            let column = current.column(property.name)
            return CollectionSQL(from: from, correlation: correlation,
                                 element: .value(column, isNullable: property.isOptional || current.nullable))
        case .primitiveList(let property, _):
            let list = names.next("l")
            from.append("JOIN \(SQLNames.list(current.className, property.name)) AS \(list) ON \(list).owner = \(current.key)")
            return CollectionSQL(from: from, correlation: correlation, element: .value("\(list).value", isNullable: property.isOptional))
        case .mapKeys(let property, _):
            let list = names.next("l")
            from.append("JOIN \(SQLNames.list(current.className, property.name)) AS \(list) ON \(list).owner = \(current.key)")
            return CollectionSQL(from: from, correlation: correlation, element: .value("\(list).key", isNullable: false))
        case .mixedPath(let property, _, _, _):
            // Never compared in SQL (the post-filter walks the nested
            // collections); the value stands in.
            return CollectionSQL(from: from, correlation: correlation, element: .value(current.column(property.name), isNullable: true))
        case .mixedType(let property, _) where !property.isCollection:
            // Never compared in SQL (the comparison is a mixed one); the
            // value stands in.
            return CollectionSQL(from: from, correlation: correlation, element: .value(current.column(property.name), isNullable: true))
        case .mixedType(let property, _):
            let list = names.next("l")
            from.append("JOIN \(SQLNames.list(current.className, property.name)) AS \(list) ON \(list).owner = \(current.key)")
            return CollectionSQL(from: from, correlation: correlation, element: .value("\(list).value", isNullable: true))
        case .mapValue(let property, _, let key):
            return CollectionSQL(from: from, correlation: correlation,
                                 element: .value(SQLNames.mapValue(current.className, property.name, owner: current.key, key: key), isNullable: true))
        }
    }
}
