import ArgumentParser
import RealmTools

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a Realm's objects as JSON or CSV.",
        discussion: """
            JSON: with --class, an array of the class's objects, one per line; without, an object \
            with an array per class. CSV (needs --class): a header of property names, then a \
            record per object. Every property type round-trips through `realm import`: dates in \
            ISO 8601 (UTC, to the microsecond), data in base64, object ids in hex, decimals as \
            strings, links as the target's primary key ({"$key": N} for a class without one), \
            embedded objects nested, lists as arrays (in CSV, as JSON in the field). Linking \
            objects are computed, so they are left out. In CSV an empty field is null and "" \
            the empty string.

            The export streams: memory stays flat however large the Realm.

            Examples:
              realm export default.realm --format json > everything.json
              realm export default.realm --class Dog --format csv --output dogs.csv
            """)

    @OptionGroup var options: FileOptions

    @Option(name: .customLong("class"), help: "Export only this class.")
    var className: String?

    @Option(help: "json or csv.")
    var format: ObjectFormat

    @Option(help: "Write to this new file instead of standard output.")
    var output: String?

    @Flag(help: "Print no progress.")
    var quiet = false

    func validate() throws {
        if format == .table { throw ValidationError("export writes json or csv") }
        if format == .csv && className == nil { throw ValidationError("a CSV export needs --class: a CSV file holds one class") }
    }

    func run() throws {
        try reportingErrors("export") {
            let file = try options.open(readOnly: true)
            let total: Int
            if let className {
                total = try file.count(of: file.storedClass(named: className))
            } else {
                total = try file.schema.objectSchemas.filter { !$0.isEmbedded }
                    .reduce(0) { sum, schema throws(ToolError) in try sum + file.count(of: file.storedClass(named: schema.name)) }
            }
            // Progress only when the data goes to a file: on standard
            // output it would mix with the data in a terminal.
            let progress = ProgressReporter(label: "export", unit: "objects", total: total, quiet: quiet || output == nil)
            let sink = try output.map { path throws(ToolError) in try OutputSink.newFile(atPath: path) } ?? .standardOutput()
            let written: Int
            do throws(ToolError) {
                if let className {
                    written = try Exporter.write(ObjectQuery(className: className), of: file, format: format, to: sink, progress: progress)
                } else {
                    written = try Exporter.exportJSON(of: file, classNames: nil, to: sink, progress: progress)
                }
                try sink.close()
            } catch {
                // Half a file must not pass for an export.
                progress.abandon()
                sink.discard()
                throw error
            }
            progress.finish("exported \(written) objects\(output.map { " to \($0)" } ?? "")")
        }
    }
}
