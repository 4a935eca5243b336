/// The SQL names and statements of a Realm file's fixed tables, and the
/// naming of the tables that hold objects and lists.
///
/// ```
/// realm_metadata    one row: format version, schema version, commit version
///                   (before format 3: kept current; since: the version of a
///                   file with no history yet), catalog generation
/// realm_classes     one row per class: table name, embedded flag, Swift type
///                   name, the next object key to hand out, and whether the
///                   class is keyed by its primary key (format 2)
/// realm_properties  one row per property, in declaration order
/// realm_history     one row per recent commit: its compressed change set;
///                   the newest row is the commit version (format 3)
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
    ///
    /// Version 3 stopped updating `realm_metadata.version` at each commit:
    /// the history row every commit inserts carries the version already, and
    /// the second write cost each commit a page of the log (its write, its
    /// checksum and its share of the sync to disk). Files of earlier formats
    /// keep their metadata current, for the libraries that read only it.
    static let formatVersion: Int64 = 3
    /// The layout versions this code reads and writes.
    static let readableFormatVersions: ClosedRange<Int64> = 1...3

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

    /// The file's commit version, in every format: the newer of the
    /// metadata's (a file with no history yet, or of a format before 3) and
    /// the history's newest row (the last entry of its `INTEGER PRIMARY
    /// KEY`, one descent of the b-tree). Trimming keeps the newest
    /// ``historyLength`` rows, so a file that has a history never loses it.
    static let versionExpression = "max(version, ifnull((SELECT max(version) FROM realm_history), 0))"

    /// The commit version alone (``versionExpression``).
    static let selectVersion = "SELECT \(versionExpression) FROM realm_metadata WHERE id = 1"

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
