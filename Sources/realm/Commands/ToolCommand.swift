import ArgumentParser
import Foundation
import RealmTools

/// Options every command that opens a Realm file takes.
struct FileOptions: ParsableArguments {
    @Argument(help: "The Realm file.")
    var file: String

    @Option(name: .customLong("key-file"),
            help: ArgumentHelp("A file holding the Realm's encryption key: 64 bytes, or 128 hex digits.", valueName: "path"))
    var keyFile: String?

    func key() throws(ToolError) -> Data? {
        try keyFile.map { path throws(ToolError) in try KeyFile.read(path) }
    }

    /// The key, or the key file's error as one line and `status` for a
    /// command that reports its own failures (not through
    /// ``reportingErrors(_:_:)``).
    func key(for command: String, failingWith status: Int32) throws -> Data? {
        do {
            return try key()
        } catch {
            FileHandle.standardError.write(Data("realm \(command): \(error.message)\n".utf8))
            throw ExitCode(status)
        }
    }

    func open(readOnly: Bool) throws(ToolError) -> RealmFile {
        try RealmFile(path: file, encryptionKey: key(), readOnly: readOnly)
    }
}

/// Runs a command's work; a ``ToolError`` (a user's mistake, a file that
/// cannot be read) becomes one line on standard error and exit status 1,
/// never a stack trace.
func reportingErrors(_ command: String, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ToolError {
        FileHandle.standardError.write(Data("realm \(command): \(error.message)\n".utf8))
        throw ExitCode(1)
    }
}

extension ObjectFormat: ExpressibleByArgument {}
