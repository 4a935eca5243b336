import Foundation
import RealmCore

/// The formats objects are written in.
public enum ObjectFormat: String, CaseIterable, Sendable {
    /// Aligned columns, for people.
    case table
    /// A JSON array of objects, one per line (`{"Class": [...]}` for a whole
    /// file); what `realm import` reads back.
    case json
    /// A header of property names, then a record per object.
    case csv
}

/// Writes objects out, streaming: one object is in memory at a time (a
/// table, which must measure its columns, holds the rows it prints).
public enum Exporter {
    /// Writes the objects `query` matches in `format`.
    public static func write(_ query: ObjectQuery, of file: RealmFile, format: ObjectFormat, to sink: OutputSink,
                             progress: ProgressReporter? = nil) throws(ToolError) -> Int {
        let reader = ObjectReader(file: file)
        var written = 0
        switch format {
        case .json:
            try sink.write("[")
            var json = JSONWriter()
            try query.forEachMatch(in: file) { element, storedClass throws(ToolError) in
                json.raw(written == 0 ? "\n" : ",\n")
                try reader.writeJSON(key: element.key, values: reader.values(of: element, in: storedClass), of: storedClass, into: &json)
                try sink.write(&json)
                written += 1
                progress?.update(written)
            }
            try sink.write(written == 0 ? "]\n" : "\n]\n")
        case .csv:
            let storedClass = try file.storedClass(named: query.className)
            let properties = storedClass.objectSchema.properties
            let names = (storedClass.isKeyedByObjectKey ? [RecordSource.keyMember] : []) + storedClass.valueProperties.map { properties[$0].name }
            try sink.write(names.map(CSVField.encode).joined(separator: ",") + "\n")
            try query.forEachMatch(in: file) { element, storedClass throws(ToolError) in
                let values = try reader.values(of: element, in: storedClass)
                // One line, written as it is made: no array of fields.
                var line = storedClass.isKeyedByObjectKey ? String(element.key.rawValue) : ""
                for (position, index) in storedClass.valueProperties.enumerated() {
                    if position > 0 || storedClass.isKeyedByObjectKey { line += "," }
                    line += CSVField.encode(try reader.csvText(key: element.key, values: values, property: index, of: storedClass))
                }
                try sink.write(line + "\n")
                written += 1
                progress?.update(written)
            }
        case .table:
            let storedClass = try file.storedClass(named: query.className)
            let properties = storedClass.objectSchema.properties
            var rows: [[String]] = [storedClass.valueProperties.map { properties[$0].name }]
            try query.forEachMatch(in: file) { element, storedClass throws(ToolError) in
                let values = try reader.values(of: element, in: storedClass)
                var row: [String] = []
                for index in storedClass.valueProperties {
                    row.append(try reader.tableText(key: element.key, values: values, property: index, of: storedClass))
                }
                rows.append(row)
                written += 1
                progress?.update(written)
            }
            try TableLayout.write(rows, to: sink)
        }
        try sink.flush()
        return written
    }

    /// Writes every object of `classNames` (every top-level class when
    /// nil) as JSON: `{"Class": [objects], …}`, classes in name order.
    public static func exportJSON(of file: RealmFile, classNames: [String]?, to sink: OutputSink,
                                  progress: ProgressReporter? = nil) throws(ToolError) -> Int {
        let names = classNames ?? file.schema.objectSchemas.filter { !$0.isEmbedded }.map(\.name).sorted()
        var written = 0
        try sink.write("{")
        for (position, name) in names.enumerated() {
            var json = JSONWriter()
            json.raw(position == 0 ? "\n" : ",\n")
            json.string(name)
            json.raw(":[")
            try sink.write(&json)
            let reader = ObjectReader(file: file)
            var first = true
            try ObjectQuery(className: name).forEachMatch(in: file) { element, storedClass throws(ToolError) in
                json.raw(first ? "\n" : ",\n")
                first = false
                try reader.writeJSON(key: element.key, values: reader.values(of: element, in: storedClass), of: storedClass, into: &json)
                try sink.write(&json)
                written += 1
                progress?.update(written)
            }
            try sink.write(first ? "]" : "\n]")
        }
        try sink.write(names.isEmpty ? "}\n" : "\n}\n")
        try sink.flush()
        return written
    }
}

/// Aligned columns with a rule under the header; cells longer than 48
/// characters are cut with an ellipsis, and line breaks shown as ⏎.
enum TableLayout {
    static let maximumWidth = 48

    static func write(_ rows: [[String]], to sink: OutputSink) throws(ToolError) {
        let cells = rows.map { row in row.map(fit) }
        guard let header = cells.first else { return }
        var widths = header.map(\.count)
        for row in cells {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        func line(_ row: [String]) -> String {
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ") + "\n"
        }
        try sink.write(line(header))
        try sink.write(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n")
        for row in cells.dropFirst() { try sink.write(line(row)) }
    }

    private static func fit(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\r\n", with: "⏎").replacingOccurrences(of: "\n", with: "⏎")
        return flat.count > maximumWidth ? String(flat.prefix(maximumWidth - 1)) + "…" : flat
    }
}
