import Foundation
import RealmObjects
import Testing

/// `Realm.Error` caught both ways the seeds and Realm's users catch it: as
/// itself, with a code, and as an `NSError` of domain `io.realm` (seed 000,
/// "Error handling" and "Encryption").
@Suite struct ErrorBridgingTests {
    private func readOnlyMissingFile() -> Realm.Configuration {
        Realm.Configuration(fileURL: TemporaryDirectory().file("missing.realm"), readOnly: true)
    }

    @Test func openingErrorsAreCaughtAsNSError() {
        let configuration = readOnlyMissingFile()
        var caught: NSError?
        // Seed 000, "Error handling", with the configuration that fails.
        do {
            let realm = try Realm(configuration: configuration)
            Issue.record("opened \(realm)")
        } catch let error as NSError {
            // handle error
            caught = error
        }
        #expect(caught?.domain == "io.realm")
        #expect(caught?.code == Realm.Error.Code.fileNotFound.rawValue)
        #expect(caught?.code == 5)
        #expect(caught?.localizedDescription.contains("missing.realm") == true)
        #expect(caught?.userInfo[NSFilePathErrorKey] as? String == configuration.fileURL?.path)
    }

    @Test func openingErrorsAreCaughtAsRealmErrorWithACode() {
        do {
            _ = try Realm(configuration: readOnlyMissingFile())
            Issue.record("opened a missing read-only Realm")
        } catch let error as Realm.Error where error.code == .fileNotFound {
            #expect(error.message.contains("missing.realm"))
            #expect(error.fileURL?.lastPathComponent == "missing.realm")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func writeAndCommitErrorsAreCaughtAsNSError() throws {
        let realm = try Realm(configuration: inMemoryConfiguration())
        try realm.write { realm.add(Book(value: ["id": 1])) }
        do {
            try realm.write { realm.add(Book(value: ["id": 1])) }
            Issue.record("a duplicate key was committed")
        } catch let error as NSError {
            #expect(error.domain == Realm.Error.errorDomain)
            #expect(error.code == Realm.Error.Code.duplicatePrimaryKey.rawValue)
            #expect(error.localizedDescription.contains("Book"))
        }
        realm.beginWrite()
        realm.create(Book.self, value: ["id": 1])
        do {
            try realm.commitWrite()
            Issue.record("a duplicate key was committed")
        } catch let error as NSError {
            #expect(error.code == Realm.Error.Code.duplicatePrimaryKey.rawValue)
        }
    }

    @Test func anNSErrorOfRealmsDomainIsARealmError() {
        let error: any Error = NSError(domain: "io.realm", code: 10, userInfo: [NSLocalizedDescriptionKey: "Migration is required"])
        let realmError = error as? Realm.Error
        #expect(realmError?.code == .schemaMismatch)
        #expect(realmError?.message == "Migration is required")
        #expect((NSError(domain: "elsewhere", code: 10) as any Error) as? Realm.Error == nil)
    }

    @Test func codesKeepRealmsNumbers() {
        let numbers: [(Realm.Error.Code, Int)] = [
            (.fail, 1), (.fileAccess, 2), (.filePermissionDenied, 3), (.fileExists, 4), (.fileNotFound, 5),
            (.fileFormatUpgradeRequired, 6), (.incompatibleLockFile, 8), (.addressSpaceExhausted, 9), (.schemaMismatch, 10),
        ]
        for (code, number) in numbers { #expect(code.rawValue == number) }
    }

    @Test func aFileThatIsNotARealmIsFileAccessAndADamagedRealmIsCorrupt() throws {
        let directory = TemporaryDirectory()
        let text = directory.file("notes.realm")
        try Data("just some notes, long enough to be taken for a header".utf8).write(to: text)
        let notARealm = #expect(throws: Realm.Error.self) { _ = try Realm(fileURL: text) }
        #expect(notARealm?.code == .fileAccess)

        let damaged = directory.file("damaged.realm")
        try autoreleasepool {
            let realm = try Realm(fileURL: damaged)
            try realm.write { for index in 0..<200 { realm.add(Dog(value: ["name": "dog \(index)", "age": index])) } }
            realm.invalidate()
        }
        // Keep the header, which says the file has more pages than it has.
        let handle = try FileHandle(forWritingTo: damaged)
        try handle.truncate(atOffset: 4096 + 100)
        try handle.close()
        try? FileManager.default.removeItem(at: damaged.appendingPathExtension("wal"))
        let corrupt = #expect(throws: Realm.Error.self) { _ = try Realm(fileURL: damaged) }
        #expect(corrupt?.code == .fileCorrupt)
        #expect(corrupt?.message.contains("damaged.realm") == true)
    }

    @Test func writeCopyOverAnExistingFileIsFileExists() throws {
        let directory = TemporaryDirectory()
        let realm = try Realm(fileURL: directory.file())
        let existing = directory.file("copy.realm")
        try Data().write(to: existing)
        let error = #expect(throws: Realm.Error.self) { try realm.writeCopy(toFile: existing) }
        #expect(error?.code == .fileExists)
    }
}
