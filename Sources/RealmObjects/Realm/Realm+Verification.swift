import Foundation
import RealmCore

extension Realm {
    /// Checks the Realm file of `configuration` for damage, and throws what
    /// it finds.
    ///
    /// Runs SQLite's integrity check of the file's pages, b-trees and
    /// indexes, then the catalog's own checks: that every class table, column
    /// and list table it names exists, that every stored value has its
    /// property's type (no blob in a string column, no text in an int
    /// column), and that links and list entries point at objects that exist.
    /// The file is read as stored, whatever the configuration's
    /// `objectTypes` and `schemaVersion` say, and is never changed.
    ///
    /// ```swift
    /// do {
    ///     try Realm.verify(configuration: config)
    /// } catch let error as Realm.Error where error.code == .fileCorrupt {
    ///     print(error.localizedDescription)  // one problem per line
    /// }
    /// ```
    ///
    /// - Throws: ``Realm/Error`` with code `fileCorrupt` listing up to 100
    ///   problems, one per line, when the file is damaged; the error of
    ///   opening it (`fileNotFound`, `fileAccess` for a file that is not a
    ///   Realm, `fileCorrupt`) when it cannot be opened.
    public static func verify(configuration: Configuration = .defaultConfiguration) throws {
        let problems = try verificationProblems(configuration: configuration)
        guard problems.isEmpty else {
            throw Realm.Error(
                .fileCorrupt,
                "The Realm file at '\(configuration.identity)' is damaged (\(problems.count) problem\(problems.count == 1 ? "" : "s") found):\n"
                    + problems.map { "- " + $0 }.joined(separator: "\n"),
                fileURL: configuration.fileURL)
        }
    }

    /// What ``verify(configuration:)`` finds, as sentences: empty for a
    /// sound file.
    ///
    /// - Throws: ``Realm/Error`` when the file cannot be opened.
    public static func verificationProblems(configuration: Configuration = .defaultConfiguration, limit: Int = 100) throws -> [String] {
        // Opening a file creates it when it is missing: there is nothing to
        // check then, and nothing may be created.
        if let url = configuration.fileURL, configuration.inMemoryIdentifier == nil, !FileManager.default.fileExists(atPath: url.path) {
            throw Realm.Error(.fileNotFound, "There is no Realm file to verify at '\(url.path)'.", fileURL: url)
        }
        do {
            // Read-only when the configuration is, so that a Realm already
            // open read-write in this process shares its coordinator.
            let coordinator = try Coordinator.open(.init(location: configuration.location, isReadOnly: configuration.readOnly,
                                                          encryptionKey: configuration.encryptionKey))
            let transaction = try coordinator.makeTransaction()
            defer { transaction.invalidate() }
            return try transaction.verify(limit: limit)
        } catch {
            throw Realm.Error(error, fileURL: configuration.fileURL)
        }
    }
}
