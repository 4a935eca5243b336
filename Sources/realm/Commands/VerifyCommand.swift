import ArgumentParser
import Foundation
import RealmObjects

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a Realm file for damage: SQLite's integrity check, then the catalog's checks.",
        discussion: """
            Exits with 0 when the file is sound, 1 when it is damaged (each problem printed on a \
            line), 2 when it cannot be opened (Docs/Reliability.md).

            Example:
              realm verify default.realm
            """)

    @OptionGroup var options: FileOptions

    func run() throws {
        // A key file that cannot be read means the file cannot be opened.
        let key = try options.key(for: "verify", failingWith: 2)
        let file = options.file
        let configuration = Realm.Configuration(fileURL: URL(fileURLWithPath: file), encryptionKey: key, readOnly: true)
        let problems: [String]
        do {
            guard FileManager.default.fileExists(atPath: file) else {
                throw Realm.Error(.fileNotFound, "\(file): no such file", fileURL: configuration.fileURL)
            }
            problems = try Realm.verificationProblems(configuration: configuration)
        } catch {
            FileHandle.standardError.write(Data("realm verify: \(error.localizedDescription)\n".utf8))
            throw ExitCode(2)
        }
        guard problems.isEmpty else {
            print("\(file): damaged, \(problems.count) problem\(problems.count == 1 ? "" : "s") found")
            for problem in problems { print("- \(problem)") }
            throw ExitCode(1)
        }
        print("\(file): ok")
    }
}
