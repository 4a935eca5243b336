import ArgumentParser
import RealmTools

struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the classes and properties a Realm file stores.",
        discussion: """
            Reads the schema from the file itself, so no model classes are needed. For each class: \
            its object count; for each property: its type (`int?` is optional, `list<Dog>` a list, \
            `Dog?` a link), and whether it is the primary key, indexed, a link or a backlink \
            (linking objects, computed from the links pointing at the class).

            Examples:
              realm schema default.realm
              realm schema default.realm --json | jq '.classes[].name'
            """)

    @OptionGroup var options: FileOptions

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try reportingErrors("schema") {
            let file = try options.open(readOnly: true)
            print(json ? try SchemaDescription.json(of: file) : try SchemaDescription.text(of: file), terminator: "")
        }
    }
}
