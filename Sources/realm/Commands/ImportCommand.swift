import ArgumentParser
import RealmTools

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add objects from a JSON or CSV file, in one transaction.",
        discussion: """
            Reads what `realm export --class CLASS` writes: a JSON array of objects, or CSV with a \
            header of property names; or, without a class, what `realm export` writes for a whole \
            file, every class at once. Properties left out take their defaults; links name the \
            target's primary key and may point at objects later in the same file. The whole \
            import is one write transaction: on the first error, which names the line and the \
            property, nothing is written.

            Without --update an object whose primary key exists is an error; with it, that \
            object's given properties are replaced.

            An object of a class without a primary key carries the key it had in the exported \
            file ("$key"), and links name it; the import maps them to the objects it makes.

            Examples:
              realm import default.realm Dog dogs.json
              realm import default.realm Dog dogs.csv --update
              realm import copy.realm everything.json
            """)

    @OptionGroup var options: FileOptions

    @Argument(help: ArgumentHelp("The class of the objects, then the JSON or CSV file to read; the file alone for a whole file's JSON export.",
                                 valueName: "class-and-input"))
    var classAndInput: [String]

    @Option(help: "json or csv; by default, from the input's extension.")
    var format: ObjectFormat?

    @Flag(help: "Update objects whose primary key exists instead of failing.")
    var update = false

    @Flag(help: "Print no progress or summary.")
    var quiet = false

    func validate() throws {
        guard (1...2).contains(classAndInput.count) else {
            throw ValidationError("give a class and an input file, or a whole file's JSON export alone")
        }
    }

    func run() throws {
        try reportingErrors("import") {
            let file = try options.open(readOnly: false)
            if classAndInput.count == 2 {
                _ = try Importer.importObjects(into: file, className: classAndInput[0], from: classAndInput[1], format: format,
                                               update: update, quiet: quiet)
            } else {
                guard format != .csv else { throw ToolError("a CSV file holds one class: name it before the file") }
                _ = try Importer.importFile(into: file, from: classAndInput[0], update: update, quiet: quiet)
            }
        }
    }
}
