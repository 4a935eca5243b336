import Foundation
import RealmCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads objects from a JSON or CSV file into a Realm file, in one write
/// transaction: all of them, or (on the first error, which names the line
/// and property) none. The input is one class's objects (as `realm export
/// --class` writes), or a whole file's (as `realm export` writes).
///
/// The input is read twice when its classes have links, streaming both
/// times: first every object is created or updated without its links (and
/// without the embedded objects that hold links), then the links are set,
/// so that objects may link to objects later in the input (a class linking
/// to itself, say). An object of a class without a primary key carries the
/// key it had in the exported file (`"$key"`); links to it name that key,
/// and are mapped to the object the import made.
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
        let summary = try run(into: file, from: path, classes: [storedClass], update: update, quiet: quiet) { () throws(ToolError) in
            try RecordSource(path: path, format: format, storedClass: storedClass, file: file)
        }
        report(summary, of: "'\(className)'", quiet: quiet)
        return summary
    }

    /// Imports a whole file's export (`{"Class": [objects], …}`), every
    /// class in one transaction.
    public static func importFile(into file: RealmFile, from path: String, update: Bool, quiet: Bool = false) throws(ToolError) -> Summary {
        let classes = try file.schema.objectSchemas.filter { !$0.isEmbedded }.map { schema throws(ToolError) in
            try file.storedClass(named: schema.name)
        }
        let summary = try run(into: file, from: path, classes: classes, update: update, quiet: quiet) { () throws(ToolError) in
            try RecordSource(path: path, format: .json, storedClass: nil, file: file)
        }
        report(summary, of: "every class", quiet: quiet)
        return summary
    }

    private static func report(_ summary: Summary, of what: String, quiet: Bool) {
        guard !quiet else { return }
        let total = summary.created + summary.updated
        FileHandle.standardError.write(Data(
            "imported \(total) object\(total == 1 ? "" : "s") of \(what) (\(summary.created) created, \(summary.updated) updated)\n".utf8))
    }

    /// The two passes over the input, in one write transaction.
    private static func run(into file: RealmFile, from path: String, classes: [StoredClass], update: Bool, quiet: Bool,
                            source makeSource: () throws(ToolError) -> RecordSource) throws(ToolError) -> Summary {
        var linkProperties: [String: Set<Int>] = [:]
        for storedClass in classes {
            var links = Set<Int>()
            for (index, property) in storedClass.objectSchema.properties.enumerated() where try holdsLinks(property, in: file) {
                links.insert(index)
            }
            linkProperties[storedClass.name] = links
        }
        let size = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0
        let passes = linkProperties.values.allSatisfy(\.isEmpty) ? 1 : 2
        if passes == 2 {
            // The second pass reads the input again: a pipe would be empty.
            var status = stat()
            guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                throw ToolError("\(path): the objects have links, which are set in a second reading of the input; give a regular file, not a pipe")
            }
        }
        let progress = ProgressReporter(label: "import", unit: "bytes", total: size * passes, quiet: quiet)
        let writer = ObjectWriter(file: file)
        var summary = Summary()
        do {
            try file.write {
                var keys: [String: [ObjectKey]] = [:]
                let first = try makeSource()
                while let record = try first.next() {
                    progress.update(first.bytesRead)
                    let stored = record.storedClass
                    let key = try located(record, path: path) { () throws(ToolError) in
                        try createOrUpdate(record, update: update, skipping: linkProperties[stored.name] ?? [],
                                           writer: writer, file: file, summary: &summary)
                    }
                    keys[stored.name, default: []].append(key)
                    if let sourceKey = record.sourceKey {
                        guard writer.keyMap[stored.name, default: [:]].updateValue(key, forKey: sourceKey) == nil else {
                            throw ToolError("\(path), line \(record.line): another '\(stored.name)' has the \"$key\" \(sourceKey)")
                        }
                    }
                }
                guard passes == 2 else { return }
                let second = try makeSource()
                var positions: [String: Int] = [:]
                while let record = try second.next() {
                    progress.update(size + second.bytesRead)
                    let stored = record.storedClass
                    let position = positions[stored.name, default: 0]
                    guard let classKeys = keys[stored.name], position < classKeys.count else {
                        throw ToolError("\(path) changed while it was being imported")
                    }
                    let links = linkProperties[stored.name] ?? []
                    try located(record, path: path) { () throws(ToolError) in
                        for (index, input) in record.members where links.contains(index) {
                            try writer.write(input, property: index, of: classKeys[position], in: stored, creating: true)
                        }
                    }
                    positions[stored.name] = position + 1
                }
                guard positions.allSatisfy({ keys[$0.key]?.count == $0.value }) else {
                    throw ToolError("\(path) changed while it was being imported")
                }
            }
        } catch let error as ToolError {
            progress.abandon()
            throw error
        } catch {
            progress.abandon()
            throw ToolError("\(file.path): the import was not committed: \(error)")
        }
        progress.abandon()
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

    private static func createOrUpdate(_ record: RecordSource.Record, update: Bool, skipping links: Set<Int>,
                                       writer: ObjectWriter, file: RealmFile, summary: inout Summary) throws(ToolError) -> ObjectKey {
        let storedClass = record.storedClass
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

/// The records of an import file, each as its class, property indices and
/// inputs.
final class RecordSource {
    struct Record {
        var storedClass: StoredClass
        var members: [(Int, ObjectWriter.Input)]
        var line: Int
        /// The object's key in the exported file (`"$key"`), for a class
        /// without a primary key.
        var sourceKey: Int64?
    }

    /// The member or column that carries an object's key in the exported
    /// file, for a class without a primary key.
    static let keyMember = "$key"

    private enum Reader {
        case json(JSONStreamReader)
        /// The header's property indices; nil for the key column.
        case csv(CSVReader, header: [Int?])
    }

    private let reader: Reader
    private let path: String
    private let file: RealmFile
    /// The class of the records: given, or the current class of a whole
    /// file's export.
    private var storedClass: StoredClass?

    /// The records of one class (`storedClass`), or of a whole file's JSON
    /// export (`storedClass` nil).
    init(path: String, format: ObjectFormat, storedClass: StoredClass?, file: RealmFile) throws(ToolError) {
        self.path = path
        self.file = file
        self.storedClass = storedClass
        switch format {
        case .csv:
            guard let storedClass else { throw ToolError("\(path): a CSV file holds one class: name it") }
            let csv = try CSVReader(path: path)
            guard let (names, line) = try csv.nextRecord() else { throw ToolError("\(path): the file is empty; a CSV file starts with a header of property names") }
            let header = try names.map { name throws(ToolError) -> Int? in
                if name == Self.keyMember { return nil }
                do throws(ToolError) {
                    return try storedClass.propertyIndex(named: name ?? "")
                } catch {
                    throw ToolError("\(path), line \(line): \(error.message)")
                }
            }
            csv.hasOneField = header.count == 1
            reader = .csv(csv, header: header)
        default:
            let json = try JSONStreamReader(path: path)
            switch (try json.begin(), storedClass) {
            case (.classes, .some(let storedClass)):
                throw ToolError("\(path) holds every class (as `realm export` writes): import it without naming '\(storedClass.name)'")
            case (.array, nil):
                throw ToolError("\(path) holds one class's objects (as `realm export --class` writes): name the class")
            default:
                break
            }
            reader = .json(json)
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
            var element = try json.nextElement()
            while element == nil {
                guard let name = try json.nextClass() else { return nil }
                let stored = try file.storedClass(named: name)
                guard !stored.objectSchema.isEmbedded else {
                    throw ToolError("\(path): class '\(name)' is embedded: its objects belong inside their parents")
                }
                storedClass = stored
                element = try json.nextElement()
            }
            guard let (value, line) = element, let storedClass else { return nil }
            guard case .object(let members) = value else {
                throw ToolError("\(path), line \(line): expected an object of '\(storedClass.name)', found \(value.kind)")
            }
            var record = Record(storedClass: storedClass, members: [], line: line)
            record.members.reserveCapacity(members.count)
            for (name, member) in members {
                do throws(ToolError) {
                    if name == Self.keyMember {
                        record.sourceKey = try sourceKey(member, of: storedClass)
                    } else {
                        record.members.append((try storedClass.propertyIndex(named: name), .json(member)))
                    }
                } catch {
                    throw ToolError("\(path), line \(line): \(error.message)")
                }
            }
            return record
        case .csv(let csv, let header):
            guard let (fields, line) = try csv.nextRecord(), let storedClass else { return nil }
            guard fields.count == header.count else {
                throw ToolError("\(path), line \(line): \(fields.count) fields where the header has \(header.count)")
            }
            var record = Record(storedClass: storedClass, members: [], line: line)
            for (index, field) in zip(header, fields) {
                if let index {
                    record.members.append((index, .text(field)))
                } else {
                    do throws(ToolError) {
                        record.sourceKey = try sourceKey(.number(field ?? ""), of: storedClass)
                    } catch {
                        throw ToolError("\(path), line \(line): \(error.message)")
                    }
                }
            }
            return record
        }
    }

    private func sourceKey(_ value: JSONValue, of storedClass: StoredClass) throws(ToolError) -> Int64 {
        guard storedClass.primaryKeyIndex == nil else {
            throw ToolError("\"$key\" is for classes without a primary key; '\(storedClass.name)' has one")
        }
        guard case .number(let text) = value, let key = Int64(text) else {
            throw ToolError("\"$key\" must be an integer, found \(value.kind)")
        }
        return key
    }
}
