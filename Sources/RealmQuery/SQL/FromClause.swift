import RealmCore

/// The tables of one SELECT (the main query, or an EXISTS or scalar
/// subquery): a first table and the joins after it. Joins that reach the
/// same object by the same link are made once and shared.
final class FromClause {
    private(set) var items: [String]
    private var joinedAliases: [String: String] = [:]
    let names: StatementNames

    init(_ first: String, names: StatementNames) {
        self.items = [first]
        self.names = names
    }

    var sql: String { items.joined(separator: " ") }

    func append(_ join: String) {
        items.append(join)
    }

    /// The alias of the row of `className` whose key is `key`, joining it
    /// (LEFT, when the key can be NULL) the first time.
    func row(of className: String, key: String, nullable: Bool) -> String {
        let cacheKey = className + "\u{0}" + key
        if let alias = joinedAliases[cacheKey] { return alias }
        let alias = names.next("t")
        append("\(nullable ? "LEFT JOIN" : "JOIN") \(SQLNames.table(className)) AS \(alias) ON \(alias)._key = \(key)")
        joinedAliases[cacheKey] = alias
        return alias
    }
}

/// The names of one statement: it hands out table aliases unique within
/// the statement, and knows which properties have no column of their own.
final class StatementNames {
    private var counter = 0
    private let schema: Schema
    /// The classes whose primary key is the row's `_key`.
    private let keyedByPrimaryKey: Set<String>

    /// Names for a statement over `schema`, whose classes named in
    /// `keyedByPrimaryKey` keep their primary key as the object key.
    init(schema: Schema, keyedByPrimaryKey: Set<String>) {
        self.schema = schema
        self.keyedByPrimaryKey = keyedByPrimaryKey
    }

    /// Whether `property` of `className` is the object's key.
    func isObjectKey(_ property: String, of className: String) -> Bool {
        keyedByPrimaryKey.contains(className) && schema[className]?.primaryKeyProperty?.name == property
    }

    func next(_ prefix: String) -> String {
        counter += 1
        return prefix + String(counter)
    }
}

/// An object reached while compiling a key path: the SQL of its key and,
/// once its table is joined, the alias of its row.
struct SQLObject {
    var className: String
    var key: String
    /// The row's alias; `""` for the root of a query that needs no
    /// qualification (its columns are written bare).
    var alias: String?
    var nullable: Bool
    let from: FromClause

    /// The SQL of a column of the object, joining its row if needed. A
    /// primary key that keys the objects is the key itself: no join.
    mutating func column(_ property: String) -> String {
        if from.names.isObjectKey(property, of: className) { return key }
        if alias == nil { alias = from.row(of: className, key: key, nullable: nullable) }
        let quoted = SQLNames.quote(property)
        return alias!.isEmpty ? quoted : alias! + "." + quoted
    }

    /// The object a to-one link of this one leads to.
    mutating func following(link property: String, to target: String) -> SQLObject {
        SQLObject(className: target, key: column(property), alias: nil, nullable: true, from: from)
    }

    /// The object a to-one step leads to: a link, or the object a map of
    /// objects holds for a key (NULL for a key the map does not have).
    mutating func following(_ step: PathStep) -> SQLObject {
        guard case .mapValue(let mapKey) = step.kind else { return following(link: step.property, to: step.targetClass) }
        return SQLObject(className: step.targetClass, key: SQLNames.mapValue(className, step.property, owner: key, key: mapKey),
                         alias: nil, nullable: true, from: from)
    }
}

/// The quoted SQL names of the file's tables and columns (Docs/FileFormat.md).
enum SQLNames {
    /// `name` as a quoted identifier, exactly as `FileLayout.quote` quotes
    /// it, without its search-and-replace when there is no quote to double.
    static func quote(_ name: String) -> String {
        name.utf8.contains(0x22) ? FileLayout.quote(name) : "\"" + name + "\""
    }

    /// The value the map `property` of the object `owner` holds for `key`,
    /// or NULL when it has no such key: a scalar subquery.
    static func mapValue(_ className: String, _ property: String, owner: String, key: String) -> String {
        "(SELECT value FROM \(list(className, property)) WHERE owner = \(owner) AND key = \(literal(key)))"
    }

    static func table(_ className: String) -> String {
        quote(FileLayout.tableName(forClass: className))
    }

    static func list(_ className: String, _ property: String) -> String {
        quote(FileLayout.listTableName(forClass: className, property: property))
    }

    /// `text` as a SQL string literal, its quotes doubled: a map key named
    /// in a key path (which the parser keeps free of quotes; doubling them
    /// keeps any other caller safe too).
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
