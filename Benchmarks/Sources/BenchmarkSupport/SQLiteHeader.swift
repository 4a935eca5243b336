import Foundation

/// Reads what a SQLite file's header says, without opening a connection.
public enum SQLiteHeader {
    /// "wal" when the file is in WAL mode, "delete" (a rollback journal)
    /// otherwise: bytes 18 and 19 of the header are 2 for WAL, 1 for the
    /// legacy journal (https://www.sqlite.org/fileformat2.html).
    public static func journalMode(ofFileAt path: String) throws -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw BenchmarkError("Cannot read \(path).")
        }
        defer { try? handle.close() }
        let header = try handle.read(upToCount: 20) ?? Data()
        guard header.count == 20 else { throw BenchmarkError("\(path) has no SQLite header.") }
        return header[18] == 2 && header[19] == 2 ? "wal" : "delete"
    }
}
