/// Checking a file: SQLite's own check of its pages, b-trees and indexes,
/// then the catalog's: that every table and column it names exists, that
/// every stored value has the storage class its property writes, and that
/// links and list entries point at objects that exist.
extension Transaction {
    /// SQLite's quick check (pages and b-trees, not index contents): true
    /// when it finds nothing wrong. Cheap enough for an error path that must
    /// tell a damaged file from a deleted object.
    package func quickCheck() throws(RealmError) -> Bool {
        try ensureReading()
        let statement = try connection.prepare("PRAGMA quick_check(1)")
        defer { statement.reset() }
        return try statement.step() && statement.string(at: 0) == "ok"
    }

    /// Everything found wrong with the file at this transaction's version,
    /// up to about `limit` problems, each a sentence; empty for a sound file.
    public func verify(limit: Int = 100) throws(RealmError) -> [String] {
        try ensureReading()
        var problems: [String] = []
        let integrity = try connection.prepare("PRAGMA integrity_check(\(max(limit, 1)))")
        defer { integrity.reset() }
        do {
            while try integrity.step() {
                let line = integrity.string(at: 0)
                if line != "ok" { problems.append("SQLite's integrity check: \(line)") }
            }
        } catch {
            problems.append("SQLite's integrity check could not finish: \(error.message)")
        }
        for layout in catalog.tables where problems.count < limit {
            problems += catalogProblems(of: layout)
        }
        return Array(problems.prefix(limit))
    }

    private func catalogProblems(of layout: TableLayout) -> [String] {
        var problems: [String] = []
        /// Runs a count; a failure to run it is a problem too.
        func count(_ sql: String, _ describe: (Int64) -> String) {
            do {
                if let found = try connection.scalarUncached(sql), found > 0 { problems.append(describe(found)) }
            } catch {
                problems.append("Class '\(layout.name)': could not check the file (\(error.message)).")
            }
        }

        let columns = layout.columnProperties.compactMap { layout.columns[$0] }
        do {
            _ = try connection.prepare("SELECT _key\(columns.map { ", " + $0 }.joined()) FROM \(layout.table) LIMIT 0")
        } catch {
            return ["Class '\(layout.name)': its table or columns are missing (\(error.message))."]
        }
        for propertyIndex in layout.columnProperties {
            let property = layout.property(propertyIndex)
            guard let column = layout.columns[propertyIndex], column != "_key" else { continue }
            let allowsNull = property.isOptional || property.type == .object
            count("SELECT count(*) FROM \(layout.table) WHERE NOT (\(Self.storedAs(property.type, column, allowsNull: allowsNull)))") {
                "Property \(layout.qualifiedName(propertyIndex)): \($0) object(s) hold a value of another type than \(property.type.rawValue)\(allowsNull ? "" : " (or no value)")."
            }
            if property.type == .object, let target = layout.linkTargets[propertyIndex] {
                count("SELECT count(*) FROM \(layout.table) WHERE \(column) IS NOT NULL AND \(column) NOT IN (SELECT _key FROM \(catalog.tables[target].table))") {
                    "Property \(layout.qualifiedName(propertyIndex)): \($0) link(s) to objects that do not exist."
                }
            }
        }
        for (propertyIndex, listTable) in layout.collectionTables.enumerated() {
            guard let listTable else { continue }
            let property = layout.property(propertyIndex)
            let columns = property.isList ? "owner, position, value" : property.isMap ? "owner, key, value" : "owner, value"
            do {
                _ = try connection.prepare("SELECT \(columns) FROM \(listTable) LIMIT 0")
            } catch {
                problems.append("List \(layout.qualifiedName(propertyIndex)): its table is missing (\(error.message)).")
                continue
            }
            count("SELECT count(*) FROM \(listTable) WHERE NOT (\(Self.storedAs(property.type, "value", allowsNull: property.isOptional || (property.isMap && property.type == .object))))") {
                "List \(layout.qualifiedName(propertyIndex)): \($0) element(s) hold a value of another type than \(property.type.rawValue)."
            }
            count("SELECT count(*) FROM \(listTable) WHERE owner NOT IN (SELECT _key FROM \(layout.table))") {
                "List \(layout.qualifiedName(propertyIndex)): \($0) element(s) belong to objects that do not exist."
            }
            if property.type == .object, let target = layout.linkTargets[propertyIndex] {
                count("SELECT count(*) FROM \(listTable) WHERE value NOT IN (SELECT _key FROM \(catalog.tables[target].table))") {
                    "List \(layout.qualifiedName(propertyIndex)): \($0) element(s) link to objects that do not exist."
                }
            }
        }
        return problems
    }

    /// A SQL condition true when `column` holds what ``Statement/bind(_:at:)``
    /// stores for a value of `type`.
    static func storedAs(_ type: PropertyType, _ column: String, allowsNull: Bool) -> String {
        let stored = switch type {
        case .bool: "typeof(\(column)) = 'integer' AND \(column) IN (0, 1)"
        case .int, .object, .linkingObjects: "typeof(\(column)) = 'integer'"
        case .float: "typeof(\(column)) = 'real' OR (typeof(\(column)) = 'blob' AND length(\(column)) = 4)"
        case .double: "typeof(\(column)) = 'real' OR (typeof(\(column)) = 'blob' AND length(\(column)) = 8)"
        case .date: "typeof(\(column)) IN ('real', 'integer')"
        case .string, .decimal: "typeof(\(column)) = 'text'"
        case .mixed: "typeof(\(column)) IN ('integer', 'real', 'text', 'blob')"
        case .data: "typeof(\(column)) = 'blob'"
        case .objectId: "typeof(\(column)) = 'blob' AND length(\(column)) = 12"
        case .uuid: "typeof(\(column)) = 'blob' AND length(\(column)) = 16"
        }
        return allowsNull ? "\(column) IS NULL OR \(stored)" : "\(column) IS NOT NULL AND (\(stored))"
    }
}
