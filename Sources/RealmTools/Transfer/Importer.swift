import Foundation
import RealmCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads objects of one class from a JSON or CSV file into a Realm file, in
/// one write transaction: all of them, or (on the first error, which names
/// the line and property) none.
///
/// The input is read twice when the class has links, streaming both times:
/// first every object is created or updated without its links (and without
/// the embedded objects that hold links), then the links are set, so that
/// objects may link to objects later in the file (a class linking to
/// itself, say).
public enum Importer {
    /// What an import did.
    public struct Summary: Sendable, Equatable {
        /// Objects created.
        public var created = 0
        /// Existing objects changed (with `update`).
        public var updated = 0
    }

    /// Imports `path` (JSON when it ends in `.json`, CSV when in `.csv`,
    /// unless `format` says) into objects of `className`. With `update`,
    /// an object whose primary key exists is updated with the properties
    /// the input gives; without it, that is an error.
    public static func importObjects(into file: RealmFile, className: String, from path: String, format: ObjectFormat? = nil,
                                     update: Bool, quiet: Bool = false) throws(ToolError) -> Summary {
        let storedClass = try file.storedClass(named: className)
        guard !storedClass.objectSchema.isEmbedded else {
            throw ToolError("class '\(className)' is embedded: import its objects inside their parents")
        }
        let format = if let format { format } else { try inferredFormat(path) }
        guard format != .table else { throw ToolError("import reads json or csv, not table") }
        let writer = ObjectWriter(file: file)
        var linkProperties = Set<Int>()
        for (index, property) in storedClass.objectSchema.properties.enumerated() where try holdsLinks(property, in: file) {
            linkProperties.insert(index)
        }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
        let passes = linkProperties.isEmpty ? 1 : 2
        if passes == 2 {
            // The second pass reads the input again: a pipe would be empty.
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                throw ToolError("\(path): '\(className)' has links, which are set in a second reading of the input; give a regular file, not a pipe")
            }
        }
        let progress = ProgressReporter(label: "import", unit: "bytes", total: size * passes, quiet: quiet)
        var summary = Summary()
        do {
            try file.write {
                var keys: [ObjectKey] = []
                let first = try RecordSource(path: path, format: format, storedClass: storedClass)
                while let record = try first.next() {
                    progress.update(first.bytesRead)
                    keys.append(try located(record, path: path) { () throws(ToolError) in
                        try createOrUpdate(record, of: storedClass, update: update, skipping: linkProperties,
                                           writer: writer, file: file, summary: &summary)
                    })
                }
                guard passes == 2 else { return }
                let second = try RecordSource(path: path, format: format, storedClass: storedClass)
                var position = 0
                while let record = try second.next() {
                    guard position < keys.count else { throw ToolError("\(path) changed while it was being imported") }
                    progress.update(size + second.bytesRead)
                    try located(record, path: path) { () throws(ToolError) in
                        for (index, input) in record.members where linkProperties.contains(index) {
                            try writer.write(input, property: index, of: keys[position], in: storedClass, creating: true)
                        }
                    }
                    position += 1
                }
                guard position == keys.count else { throw ToolError("\(path) changed while it was being imported") }
            }
        } catch let error as ToolError {
            progress.abandon()
            throw error
        } catch {
            progress.abandon()
            throw ToolError("\(file.path): the import was not committed: \(error)")
        }
        progress.finish("imported \(summary.created + summary.updated) object\(summary.created + summary.updated == 1 ? "" : "s") of '\(className)' (\(summary.created) created, \(summary.updated) updated)")
        return summary
    }

    static func inferredFormat(_ path: String) throws(ToolError) -> ObjectFormat {
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "json": .json
        case "csv": .csv
        default: throw ToolError("\(path): say the format with --format json or --format csv")
        }
    }

    /// Whether a property's values may link to top-level objects, which
    /// the second pass sets once every object of the input exists: links,
    /// and embedded objects whose class (or a class embedded in it) has
    /// links.
    private static func holdsLinks(_ property: Property, in file: RealmFile, depth: Int = 0) throws(ToolError) -> Bool {
        guard property.type == .object, depth < 32 else { return false }
        let target = try file.storedClass(named: property.objectClassName ?? "")
        guard target.objectSchema.isEmbedded else { return true }
        for nested in target.objectSchema.properties where try holdsLinks(nested, in: file, depth: depth + 1) {
            return true
        }
        return false
    }

    /// Runs `body`, prefixing its error with the file and line.
    private static func located<T>(_ record: RecordSource.Record, path: String, _ body: () throws(ToolError) -> T) throws(ToolError) -> T {
        do {
            return try body()
        } catch {
            throw ToolError("\(path), line \(record.line): \(error.message)")
        }
    }

    private static func createOrUpdate(_ record: RecordSource.Record, of storedClass: StoredClass, update: Bool, skipping links: Set<Int>,
                                       writer: ObjectWriter, file: RealmFile, summary: inout Summary) throws(ToolError) -> ObjectKey {
        let properties = storedClass.objectSchema.properties
        var existing: ObjectKey?
        if let primaryKey = storedClass.primaryKeyIndex {
            guard let input = record.members.first(where: { $0.0 == primaryKey })?.1 else {
                throw ToolError("the primary key '\(properties[primaryKey].name)' is missing")
            }
            let keyValue: Value
            do {
                keyValue = try writer.columnValue(input, for: properties[primaryKey])
            } catch {
                throw ToolError("property '\(storedClass.name).\(properties[primaryKey].name)': \(error.message)")
            }
            do {
                existing = try file.transaction.object(withPrimaryKey: keyValue, in: storedClass.handle)
            } catch {
                throw ToolError(error.message)
            }
            if existing != nil && !update {
                throw ToolError("an object of '\(storedClass.name)' with primary key \(describe(keyValue)) already exists (use --update to change it)")
            }
        }
        if let existing {
            for (index, input) in record.members where !links.contains(index) {
                try writer.write(input, property: index, of: existing, in: storedClass, creating: false)
            }
            summary.updated += 1
            return existing
        }
        var columns: [Int: Value] = [:]
        var deferred: [(Int, ObjectWriter.Input)] = []
        for (index, input) in record.members where !links.contains(index) {
            let property = properties[index]
            if property.type == .linkingObjects {
                throw ToolError("property '\(storedClass.name).\(property.name)': is computed from links and cannot be set")
            }
            if try writer.isDeferred(property) {
                deferred.append((index, input))
            } else {
                do {
                    columns[index] = try writer.columnValue(input, for: property)
                } catch {
                    throw ToolError("property '\(storedClass.name).\(property.name)': \(error.message)")
                }
            }
        }
        let key = try writer.create(storedClass, columns: columns)
        for (index, input) in deferred {
            try writer.write(input, property: index, of: key, in: storedClass, creating: true)
        }
        summary.created += 1
        return key
    }

    private static func describe(_ value: Value) -> String {
        if case .string(let text) = value { return "'\(text)'" }
        return "\(value)"
    }
}

/// The records of an import file, each as property indices and inputs.
final class RecordSource {
    struct Record {
        var members: [(Int, ObjectWriter.Input)]
        var line: Int
    }

    private enum Reader {
        case json(JSONStreamReader)
        case csv(CSVReader, header: [Int])
    }

    private let reader: Reader
    private let storedClass: StoredClass
    private let path: String

    init(path: String, format: ObjectFormat, storedClass: StoredClass) throws(ToolError) {
        self.path = path
        self.storedClass = storedClass
        switch format {
        case .csv:
            let csv = try CSVReader(path: path)
            guard let (names, line) = try csv.nextRecord() else { throw ToolError("\(path): the file is empty; a CSV file starts with a header of property names") }
            let header = try names.map { name throws(ToolError) in
                do throws(ToolError) {
                    return try storedClass.propertyIndex(named: name ?? "")
                } catch {
                    throw ToolError("\(path), line \(line): \(error.message)")
                }
            }
            csv.hasOneField = header.count == 1
            reader = .csv(csv, header: header)
        default:
            reader = .json(try JSONStreamReader(path: path))
        }
    }

    var bytesRead: Int {
        switch reader {
        case .json(let json): json.bytesRead
        case .csv(let csv, _): csv.bytesRead
        }
    }

    func next() throws(ToolError) -> Record? {
        switch reader {
        case .json(let json):
            guard let (value, line) = try json.nextElement() else { return nil }
            guard case .object(let members) = value else {
                throw ToolError("\(path), line \(line): expected an object of '\(storedClass.name)', found \(value.kind)")
            }
            var indexed: [(Int, ObjectWriter.Input)] = []
            indexed.reserveCapacity(members.count)
            for (name, member) in members {
                do throws(ToolError) {
                    indexed.append((try storedClass.propertyIndex(named: name), .json(member)))
                } catch {
                    throw ToolError("\(path), line \(line): \(error.message)")
                }
            }
            return Record(members: indexed, line: line)
        case .csv(let csv, let header):
            guard let (fields, line) = try csv.nextRecord() else { return nil }
            guard fields.count == header.count else {
                throw ToolError("\(path), line \(line): \(fields.count) fields where the header has \(header.count)")
            }
            return Record(members: zip(header, fields).map { ($0, .text($1)) }, line: line)
        }
    }
}
