import Foundation
import RealmCore
import RealmObjects

/// Damaged copies of a Realm, each opened and fully read in a child process:
/// no damage may crash or hang the reader, and what it reads is reported as
/// damage or read as stored, never as garbage of another type.
///
/// With `RELIABILITY_ENCRYPTED=1` in the environment the templates, and so
/// every damaged copy, are encrypted files.
enum DamagedFiles {
    enum Damage: String, CaseIterable {
        case bitFlips, zeroedPage, swappedPages, duplicatedPage, truncated, header
        case walBitFlips, walZeroedFrame, walTruncated, walGarbage
        case garbageAppended, directory, empty, randomBytes, foreignSQLite
        case wrongStorageClass, catalogEdited, tableDropped
        /// Bits flipped, or random bytes written, inside a few pages of the
        /// main file while a live `-wal` holds the newest commits (or, half
        /// the time, of the compacted file).
        case pageBitFlipsUnderWAL, pageRandomBytes
    }

    static let pageSize = 4096
    static let encryptionKey = Bank.encryptionKey

    static func configuration(_ url: URL) -> Realm.Configuration {
        Realm.Configuration(fileURL: url, encryptionKey: encryptionKey, objectTypes: itemTypes)
    }

    static func run(size: Size, seed: UInt64) throws -> Int32 {
        let report = Report(family: "damaged-files", seed: seed)
        let scratch = try Scratch("damaged")
        defer { scratch.remove() }
        let count = size.cases(ci: 540, full: 10_000)

        // Two healthy templates: a file whose commits are all in its -wal,
        // and a compacted file with no -wal. At full size they hold 4,000
        // items, so that damage lands in index and list pages as often as in
        // rows.
        var rng = SeededGenerator(seed: seed)
        let live = scratch.file("live.realm")
        let clean = scratch.file("clean.realm")
        let items = size == .full ? 4_000 : 450
        try autoreleasepool {
            let realm = try Realm(configuration: configuration(live))
            try ItemFixture.fill(realm, count: items - 50, startingAt: 0, rng: &rng)
            for batch in 0..<10 {
                try ItemFixture.fill(realm, count: 5, startingAt: items - 50 + batch * 5, rng: &rng)
            }
            try realm.writeCopy(toFile: clean, encryptionKey: encryptionKey)
            try FileManager.default.copyItem(at: live, to: scratch.file("wal.realm"))
            try FileManager.default.copyItem(atPath: live.path + "-wal", toPath: scratch.file("wal.realm").path + "-wal")
        }
        let cleanBytes = try Data(contentsOf: clean)
        let walMain = try Data(contentsOf: scratch.file("wal.realm"))
        let walLog = try Data(contentsOf: URL(fileURLWithPath: scratch.file("wal.realm").path + "-wal"))

        let outcomes = Tally()
        let kindsInOrder = Damage.allCases
        parallelCases(count) { index in
            let caseSeed = SeededGenerator.caseSeed(seed, index)
            var rng = SeededGenerator(seed: caseSeed)
            let damage = kindsInOrder[index % kindsInOrder.count]
            let directory = scratch.file("case-\(index)")
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { if onlyCase == nil { try? FileManager.default.removeItem(at: directory) } }
            let path = directory.appendingPathComponent("damaged.realm")
            do {
                try make(damage, at: path, clean: cleanBytes, walMain: walMain, walLog: walLog, rng: &rng)
            } catch {
                report.fail("case \(index) (\(damage), seed \(caseSeed)): could not build the damaged file: \(error)")
                return
            }
            let ending: Child.Ending
            let output: String
            do {
                let child = try Child(["read-damaged", path.path])
                ending = child.wait(timeout: .seconds(120))
                output = child.text
            } catch {
                report.fail("case \(index): could not start the reader: \(error)")
                return
            }
            report.countCase()
            let verdict = output.split(separator: "\n").last { $0.hasPrefix("READ") || $0.hasPrefix("REFUSED") || $0.hasPrefix("DAMAGE") }
            outcomes.add(verdict.map { String($0.prefix { $0 != " " }) } ?? "none")
            guard case .exited(0) = ending, verdict != nil else {
                report.fail("case \(index) (\(damage)), replay with `RealmReliability damaged-files --case \(index) --seed \(seed)`: the reader ended with \(ending); output: \(output.suffix(1500))")
                return
            }
        }
        report.figure("files", report.cases)
        report.figure("outcomes", outcomes.description)
        return report.finish()
    }

    /// Writes a damaged copy at `path`.
    static func make(_ damage: Damage, at path: URL, clean: Data, walMain: Data, walLog: Data, rng: inout SeededGenerator) throws {
        let walPath = URL(fileURLWithPath: path.path + "-wal")
        var bytes = clean
        switch damage {
        case .bitFlips:
            for _ in 0..<Int.random(in: 1...32, using: &rng) {
                let offset = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[offset] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
            }
        case .zeroedPage:
            let page = Int.random(in: 0..<(bytes.count / pageSize), using: &rng)
            bytes.replaceSubrange(page * pageSize..<(page + 1) * pageSize, with: Data(count: pageSize))
        case .swappedPages, .duplicatedPage:
            let pages = bytes.count / pageSize
            let a = Int.random(in: 0..<pages, using: &rng)
            let b = Int.random(in: 0..<pages, using: &rng)
            let pageA = bytes.subdata(in: a * pageSize..<(a + 1) * pageSize)
            let pageB = bytes.subdata(in: b * pageSize..<(b + 1) * pageSize)
            bytes.replaceSubrange(b * pageSize..<(b + 1) * pageSize, with: pageA)
            if damage == .swappedPages {
                bytes.replaceSubrange(a * pageSize..<(a + 1) * pageSize, with: pageB)
            }
        case .truncated:
            let length = rng.chance(0.5)
                ? Int.random(in: 0..<(bytes.count / pageSize), using: &rng) * pageSize
                : Int.random(in: 0..<bytes.count, using: &rng)
            bytes = bytes.prefix(length)
        case .header:
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                bytes[Int.random(in: 0..<100, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
        case .pageBitFlipsUnderWAL, .pageRandomBytes:
            let underWAL = rng.chance(0.5)
            if underWAL {
                bytes = walMain
                try walLog.write(to: walPath)
            }
            let pages = max(bytes.count / pageSize, 1)
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                // Past the first page (its header is `.header`'s).
                let page = pages > 1 ? Int.random(in: 1..<pages, using: &rng) : 0
                let start = page * pageSize
                let end = min(start + pageSize, bytes.count)
                guard start < end else { continue }
                if damage == .pageBitFlipsUnderWAL {
                    for _ in 0..<Int.random(in: 1...8, using: &rng) {
                        bytes[Int.random(in: start..<end, using: &rng)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
                    }
                } else {
                    let offset = Int.random(in: start..<end, using: &rng)
                    let length = min(Int.random(in: 1...512, using: &rng), end - offset)
                    bytes.replaceSubrange(offset..<offset + length, with: Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }))
                }
            }
        case .walBitFlips, .walZeroedFrame, .walTruncated, .walGarbage:
            bytes = walMain
            var log = walLog
            switch damage {
            case .walBitFlips:
                for _ in 0..<Int.random(in: 1...32, using: &rng) {
                    let offset = Int.random(in: 0..<log.count, using: &rng)
                    log[offset] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
                }
            case .walZeroedFrame:
                let frames = (log.count - 32) / (pageSize + 24)
                let frame = Int.random(in: 0..<max(frames, 1), using: &rng)
                let start = 32 + frame * (pageSize + 24)
                log.replaceSubrange(start..<min(start + pageSize + 24, log.count), with: Data(count: min(pageSize + 24, log.count - start)))
            case .walTruncated:
                log = log.prefix(Int.random(in: 0..<log.count, using: &rng))
            default:
                let offset = Int.random(in: 0..<log.count, using: &rng)
                let length = min(Int.random(in: 1...8192, using: &rng), log.count - offset)
                log.replaceSubrange(offset..<offset + length, with: Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }))
            }
            try log.write(to: walPath)
        case .garbageAppended:
            bytes.append(Data((0..<Int.random(in: 1...8192, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }))
        case .directory:
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            return
        case .empty:
            bytes = Data()
        case .randomBytes:
            bytes = Data((0..<Int.random(in: 1...40_000, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) })
            if rng.chance(0.5) {
                // With SQLite's magic, so that the header check is passed.
                bytes.replaceSubrange(0..<min(16, bytes.count), with: Data("SQLite format 3\0".utf8).prefix(bytes.count))
            }
        case .foreignSQLite, .wrongStorageClass, .catalogEdited, .tableDropped:
            try clean.write(to: path)
            try editWithSQL(damage, at: path, rng: &rng)
            return
        }
        try bytes.write(to: path)
    }

    /// Damage that only SQL can do: values of another storage class than
    /// their property's, a catalog that contradicts the tables, a table gone,
    /// or a SQLite file that was never a Realm.
    static func editWithSQL(_ damage: Damage, at path: URL, rng: inout SeededGenerator) throws {
        if damage == .foreignSQLite {
            try FileManager.default.removeItem(at: path)
        }
        let connection = try Connection(path: path.path, readOnly: false, encryptionKey: encryptionKey)
        let table = damage == .foreignSQLite ? "" : (try itemTable(connection))
        switch damage {
        case .foreignSQLite:
            try connection.execute(rng.chance(0.5)
                ? "CREATE TABLE people(name TEXT, age INTEGER); INSERT INTO people VALUES ('Ann', 3)"
                : "CREATE TABLE realm_metadata(id INTEGER PRIMARY KEY, note TEXT); INSERT INTO realm_metadata VALUES (1, 'x')")
        case .wrongStorageClass:
            let columns = try itemColumns(connection, table: table)
            for _ in 0..<Int.random(in: 1...6, using: &rng) {
                let column = columns.randomElement(using: &rng)!
                let value = ["x'00ff10'", "'text'", "12345", "1.5", "NULL", "x''", "-9223372036854775808", "9.9e300"].randomElement(using: &rng)!
                let rows = rng.chance(0.3) ? "" : " WHERE _key % \(Int.random(in: 2...9, using: &rng)) = 0"
                try? connection.execute("UPDATE \"\(table)\" SET \"\(column)\" = \(value)\(rows)")
            }
            // List tables too.
            let lists = try names(connection, "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_%' ESCAPE '\\' AND name NOT LIKE 'realm\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
            if let list = lists.randomElement(using: &rng) {
                let listColumns = try itemColumns(connection, table: list)
                if let column = listColumns.randomElement(using: &rng) {
                    try? connection.execute("UPDATE \"\(list)\" SET \"\(column)\" = \(["x'01'", "'s'", "7", "NULL", "2.5"].randomElement(using: &rng)!)")
                }
            }
        case .catalogEdited:
            let edits = [
                "UPDATE realm_properties SET type = 'int' WHERE name = 'name'",
                "UPDATE realm_properties SET type = 'string' WHERE name = 'count'",
                "UPDATE realm_properties SET type = 'date' WHERE name = 'blob'",
                "UPDATE realm_properties SET is_optional = 1 - is_optional",
                "UPDATE realm_properties SET is_list = 1 WHERE name = 'flag'",
                "UPDATE realm_properties SET object_class = 'Nowhere' WHERE name = 'parent'",
                "DELETE FROM realm_properties WHERE name = 'ratio'",
                "UPDATE realm_classes SET table_name = 'missing'",
                "UPDATE realm_metadata SET format_version = 99",
                "DELETE FROM realm_metadata",
                "UPDATE realm_properties SET type = 'nonsense'",
                "UPDATE realm_classes SET keyed_by_primary_key = 1 - keyed_by_primary_key",
                "DROP TABLE realm_properties",
            ]
            try? connection.execute(edits.randomElement(using: &rng)!)
        case .tableDropped:
            let tables = try names(connection, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
            try? connection.execute("DROP TABLE \"\(tables.randomElement(using: &rng)!)\"")
        default:
            break
        }
    }

    static func itemTable(_ connection: Connection) throws -> String {
        try names(connection, "SELECT table_name FROM realm_classes WHERE name = 'Item'").first ?? "Item"
    }

    static func itemColumns(_ connection: Connection, table: String) throws -> [String] {
        try names(connection, "SELECT name FROM pragma_table_info('\(table)')")
    }

    static func names(_ connection: Connection, _ sql: String) throws -> [String] {
        let statement = try connection.prepare(sql)
        defer { statement.reset() }
        var result: [String] = []
        while try statement.step() { result.append(statement.string(at: 0)) }
        return result
    }

    /// The child's side: open, read everything, then try a throwing call, and
    /// say how it went on the last line.
    static func readDamaged(path: String) -> Int32 {
        let configuration = configuration(URL(fileURLWithPath: path))
        do {
            let realm = try Realm(configuration: configuration)
            let touched = ItemFixture.readEverything(realm) &+ ItemFixture.readByIndex(realm)
            do {
                try realm.writeCopy(toFile: URL(fileURLWithPath: path + ".copy"), encryptionKey: encryptionKey)
                try realm.write {
                    try realm.create(Item.self, value: ["id": 9_999_999, "name": "after"], update: .modified)
                }
                say("READ touched=\(touched)")
            } catch {
                say("DAMAGE touched=\(touched) \(error)")
            }
        } catch {
            say("REFUSED \(error)")
        }
        return 0
    }
}
