import ArgumentParser
import Foundation
import RealmTools

struct CompactCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compact",
        abstract: "Rewrite a Realm file without its free space.",
        discussion: """
            Deleted objects and old versions leave free pages; compacting returns them to the \
            file system. The Realm must not be open in another process.

            Example:
              realm compact default.realm
            """)

    @OptionGroup var options: FileOptions

    @Flag(help: "Print nothing on success.")
    var quiet = false

    func run() throws {
        try reportingErrors("compact") {
            let key = try options.key()
            let (before, after) = try ProgressReporter.whileWorking("compacting \(options.file)", quiet: quiet) { () throws(ToolError) in
                try FileMaintenance.compact(options.file, encryptionKey: key)
            }
            if !quiet { print("compacted \(options.file): \(ByteCount(before)) → \(ByteCount(after))") }
        }
    }
}

struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Write a compacted copy of a Realm to a new file.",
        discussion: """
            The copy holds the newest committed version; the original may be in use meanwhile. \
            With --destination-key-file the copy is encrypted with that key, otherwise it is plain.

            Examples:
              realm copy default.realm backup.realm
              realm copy secret.realm plain.realm --key-file realm.key
            """)

    @OptionGroup var options: FileOptions

    @Argument(help: "The new file; it must not exist.")
    var destination: String

    @Option(name: .customLong("destination-key-file"), help: ArgumentHelp("Encrypt the copy with the key in this file.", valueName: "path"))
    var destinationKeyFile: String?

    @Flag(help: "Print nothing on success.")
    var quiet = false

    func run() throws {
        try reportingErrors("copy") {
            let destinationKey = try destinationKeyFile.map { path throws(ToolError) in try KeyFile.read(path) }
            let key = try options.key()
            try ProgressReporter.whileWorking("copying \(options.file)", quiet: quiet) { () throws(ToolError) in
                try FileMaintenance.copy(options.file, encryptionKey: key, to: destination, destinationKey: destinationKey)
            }
            if !quiet { print("copied \(options.file) to \(destination) (\(ByteCount(FileMaintenance.size(of: destination))))") }
        }
    }
}

struct EncryptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "encrypt",
        abstract: "Encrypt a plain Realm file in place.",
        discussion: """
            Every page of the file is then encrypted with AES-256 and authenticated with \
            HMAC-SHA-256 (Docs/Encryption.md). The key file holds 64 bytes, or 128 hex digits: \
            `openssl rand -hex 64 > realm.key`. Keep it: without it the data cannot be read. \
            The Realm must not be open in another process.

            Example:
              realm encrypt default.realm --key-file realm.key
            """)

    @OptionGroup var options: RekeyOptions

    func run() throws {
        try options.rekey("encrypt", encrypting: true)
    }
}

struct DecryptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Decrypt an encrypted Realm file in place.",
        discussion: """
            The file becomes a plain SQLite database that any SQLite tool reads. The Realm must \
            not be open in another process.

            Example:
              realm decrypt default.realm --key-file realm.key
            """)

    @OptionGroup var options: RekeyOptions

    func run() throws {
        try options.rekey("decrypt", encrypting: false)
    }
}

/// What `encrypt` and `decrypt` take, and the work they share.
struct RekeyOptions: ParsableArguments {
    @Argument(help: "The Realm file.")
    var file: String

    @Option(name: .customLong("key-file"), help: ArgumentHelp("The key: 64 bytes, or 128 hex digits.", valueName: "path"))
    var keyFile: String

    @Flag(help: "Print nothing on success.")
    var quiet = false

    /// Replaces the file by a copy under the key (encrypting) or under no
    /// key (decrypting).
    func rekey(_ command: String, encrypting: Bool) throws {
        try reportingErrors(command) {
            let key = try KeyFile.read(keyFile)
            try ProgressReporter.whileWorking("\(command)ing \(file)", quiet: quiet) { () throws(ToolError) in
                try FileMaintenance.rekey(file, from: encrypting ? nil : key, to: encrypting ? key : nil)
            }
            if !quiet { print("\(command)ed \(file)") }
        }
    }
}

/// A size in bytes, as people read it.
struct ByteCount: CustomStringConvertible {
    let bytes: Int
    init(_ bytes: Int) { self.bytes = bytes }

    var description: String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f %@", value, units[unit])
    }
}
