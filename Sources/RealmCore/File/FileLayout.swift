/// The SQL names and statements of a Realm file's fixed tables, and the
/// naming of the tables that hold objects and lists.
///
/// ```
/// realm_metadata    one row: format version, schema version, commit version,
///                   catalog generation
/// realm_classes     one row per class: table name, embedded flag, Swift type
///                   name, the next object key to hand out, and whether the
///                   class is keyed by its primary key (format 2)
/// realm_properties  one row per property, in declaration order
/// realm_history     one row per recent commit: its compressed change set
/// class_<Class>     one row per object: _key, then one column per scalar or
///                   to-one link property; in a class keyed by its primary
///                   key, _key is the primary key and it has no column of
///                   its own
/// list_<Class>.<p>  one row per list element: owner key, position, value
/// ```
package enum FileLayout {
    /// The layout version of the files this code creates.
    ///
    /// Version 2 added `realm_classes.keyed_by_primary_key`. Version 1 files
    /// are read and written as they are: their classes keep a separate key.
    static let formatVersion: Int64 = 2
    /// The layout versions this code reads and writes.
    static let readableFormatVersions: ClosedRange<Int64> = 1...2

    /// How many commits of change-set history the file keeps for other
    /// processes; one further behind computes its changes from scratch.
    static let historyLength: Int64 = 1_000
    /// Commits between trims of the history, which therefore holds
    /// between ``historyLength`` and ``historyLength`` + this many versions.
    static let historyTrimInterval: UInt64 = 64

    static let createFixedTables = """
        CREATE TABLE realm_metadata (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            format_version INTEGER NOT NULL,
            schema_version INTEGER NOT NULL,
            version INTEGER NOT NULL,
            catalog_generation INTEGER NOT NULL
        );
        INSERT INTO realm_metadata VALUES (1, \(formatVersion), 0, 1, 1);
        CREATE TABLE realm_classes (
            name TEXT PRIMARY KEY,
            position INTEGER NOT NULL,
            table_name TEXT NOT NULL UNIQUE,
            is_embedded INTEGER NOT NULL,
            swift_type TEXT,
            next_key INTEGER NOT NULL,
            keyed_by_primary_key INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE realm_properties (
            class_name TEXT NOT NULL,
            name TEXT NOT NULL,
            position INTEGER NOT NULL,
            type TEXT NOT NULL,
            is_optional INTEGER NOT NULL,
            is_list INTEGER NOT NULL,
            object_class TEXT,
            origin_property TEXT,
            is_indexed INTEGER NOT NULL,
            is_primary_key INTEGER NOT NULL,
            PRIMARY KEY (class_name, name)
        ) WITHOUT ROWID;
        CREATE TABLE realm_history (
            version INTEGER PRIMARY KEY,
            changes BLOB NOT NULL
        );
        """

    static let fixedTableNames: Set<String> = ["realm_metadata", "realm_classes", "realm_properties", "realm_history"]

    package static func tableName(forClass className: String) -> String {
        "class_" + className
    }

    package static func listTableName(forClass className: String, property: String) -> String {
        // Property names never contain '.', so the last '.' splits the name
        // unambiguously whatever the class name holds.
        "list_" + className + "." + property
    }

    package static func indexName(forTable table: String, column: String) -> String {
        "index_" + table + "." + column
    }

    /// `name` as a quoted SQL identifier.
    package static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as a quoted SQL string literal, for DDL only (values are always
    /// bound as parameters).
    package static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}

import Foundation
