// The `realm` command-line tool. `realm demo` runs the seeds' "Getting
// started" sample end to end on ./default.realm and says what happens at
// each step, and `realm demo sync` a sync server with two devices that
// edit offline and converge. The commands in Commands/ work on any Realm
// file, read with the schema it stores (RealmTools, Docs/Tools.md):
// schema, query, export, import, compact, verify, copy, encrypt, decrypt
// and browse. `realm server` runs the sync server, and `realm login` logs
// a user in.

import ArgumentParser
import Dispatch
import Foundation
import GettingStarted
import RealmObjects

@main
struct RealmTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "realm",
        abstract: "Realm's object database for Swift, stored in SQLite.",
        discussion: "See Docs/Tools.md for examples of every command.",
        subcommands: [
            Demo.self, SchemaCommand.self, QueryCommand.self, ExportCommand.self, ImportCommand.self,
            CompactCommand.self, VerifyCommand.self, CopyCommand.self, EncryptCommand.self, DecryptCommand.self,
            BrowseCommand.self, ServerCommand.self, LoginCommand.self,
        ])
}

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the getting-started sample on ./default.realm (or, with 'sync', the sync demo).",
        subcommands: [LocalDemo.self, SyncDemo.self],
        defaultSubcommand: LocalDemo.self)
}

struct LocalDemo: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "local", abstract: "Run the getting-started sample on ./default.realm.")

    @Option(help: "The Realm file to use.")
    var file = "default.realm"

    func run() throws {
        try GettingStarted.run(file: file)
    }
}
