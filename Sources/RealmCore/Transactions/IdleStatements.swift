/// Prepared statements of finished cursors, by SQL, for the next cursor to
/// reuse.
///
/// The statement returned last is kept apart: a loop that runs one query
/// per iteration takes back the same statement each time, and comparing its
/// SQL with the caller's (usually the same string, so a pointer comparison)
/// is cheaper than hashing it.
struct IdleStatements {
    private var recent: Statement?
    private var others: [String: [Statement]] = [:]

    mutating func take(sql: String) -> Statement? {
        if let recent, recent.sql == sql {
            self.recent = nil
            return recent
        }
        return others[sql]?.popLast()
    }

    mutating func put(_ statement: Statement) {
        if let recent {
            others[recent.sql, default: []].append(recent)
        }
        recent = statement
    }

    mutating func removeAll() {
        recent = nil
        others.removeAll()
    }
}
