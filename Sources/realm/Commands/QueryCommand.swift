import ArgumentParser
import RealmTools

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print the objects of a class that match a predicate.",
        discussion: """
            The predicate is Realm's query language (Docs/Queries.md): comparisons, BEGINSWITH, \
            CONTAINS, LIKE, [c] and [d] modifiers, key paths through links, ANY/ALL/NONE over \
            lists, @count, @sum and the other aggregates, SUBQUERY. A predicate that does not \
            parse or fit the class is reported on one line, pointing at the token.

            Links print as the target's primary key (or Class#key for a class without one), \
            lists as their first elements, dates in ISO 8601 (UTC), data in base64.

            Examples:
              realm query default.realm Dog
              realm query default.realm Dog "age < 2 AND name BEGINSWITH[c] 'r'" --sort age,desc --limit 10
              realm query default.realm Person "ANY dogs.age > 5" --format json
            """)

    @OptionGroup var options: FileOptions

    @Argument(help: "The class to query.")
    var className: String

    @Argument(help: "A predicate; all objects when omitted.")
    var predicate: String?

    @Option(help: ArgumentHelp("Sort by a key path, ascending, or descending with ',desc'; repeat for ties.", valueName: "key[,desc]"))
    var sort: [String] = []

    @Option(help: "Print at most this many objects.")
    var limit: Int?

    @Option(help: "table, json or csv.")
    var format: ObjectFormat = .table

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
    }

    func run() throws {
        try reportingErrors("query") {
            let file = try options.open(readOnly: true)
            let sorts = try sort.map { argument throws(ToolError) in try ObjectQuery.Sort(argument: argument) }
            let query = ObjectQuery(className: className, predicate: predicate, sort: sorts, limit: limit)
            _ = try Exporter.write(query, of: file, format: format, to: .standardOutput())
        }
    }
}
