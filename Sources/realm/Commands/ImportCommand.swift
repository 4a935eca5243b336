import ArgumentParser
import RealmTools

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add objects of a class from a JSON or CSV file, in one transaction.",
        discussion: """
            Reads what `realm export --class CLASS` writes: a JSON array of objects, or CSV with a \
            header of property names. Properties left out take their defaults; links name the \
            target's primary key and may point at objects later in the same file. The whole \
            import is one write transaction: on the first error, which names the line and the \
            property, nothing is written.

            Without --update an object whose primary key exists is an error; with it, that \
            object's given properties are replaced.

            Examples:
              realm import default.realm Dog dogs.json
              realm import default.realm Dog dogs.csv --update
            """)

    @OptionGroup var options: FileOptions

    @Argument(help: "The class of the objects.")
    var className: String

    @Argument(help: "The JSON or CSV file to read.")
    var input: String

    @Option(help: "json or csv; by default, from the input's extension.")
    var format: ObjectFormat?

    @Flag(help: "Update objects whose primary key exists instead of failing.")
    var update = false

    @Flag(help: "Print no progress or summary.")
    var quiet = false

    func run() throws {
        try reportingErrors("import") {
            let file = try options.open(readOnly: false)
            _ = try Importer.importObjects(into: file, className: className, from: input, format: format, update: update, quiet: quiet)
        }
    }
}
