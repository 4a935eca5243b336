import ArgumentParser
import Foundation
import RealmTools

struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse and edit a Realm file in a web browser.",
        discussion: """
            Starts a web server on 127.0.0.1 and prints its URL, which carries a random session \
            token: open it in a browser. The pages list the classes with their counts, page \
            through each class's objects (sort by a column, filter with the predicate language), \
            follow links, expand lists and backlinks, and edit values, add and delete objects, \
            each in one write transaction. Pages follow changes other processes make to the file.

            Only requests with the token are answered, and writes also need the page's form \
            token, so other web sites cannot read or change the data. Stop with Ctrl-C.

            Examples:
              realm browse default.realm
              realm browse secret.realm --key-file realm.key --read-only --port 8080
            """)

    @OptionGroup var options: FileOptions

    @Option(help: "The port to listen on; by default a free one.")
    var port = 0

    @Option(help: "The address to listen on. Anything but loopback exposes the data to the network.")
    var host = "127.0.0.1"

    @Flag(name: .customLong("read-only"), help: "Show the data without edit forms; refuse writes.")
    var readOnly = false

    func run() async throws {
        let key = try options.key(for: "browse", failingWith: 1)
        let browser = DataBrowser(configuration: .init(path: options.file, encryptionKey: key, readOnly: readOnly, host: host, port: port))
        try await browser.run { url in
            // Written at once: a program reading the URL from a pipe must
            // not wait for print's buffer.
            FileHandle.standardOutput.write(Data("Browsing \(options.file) at \(url)\nStop with Ctrl-C.\n".utf8))
        }
    }
}
