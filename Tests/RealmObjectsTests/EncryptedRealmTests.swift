import Foundation
import RealmObjects
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Encrypted Realms through the object API: the seeds' samples, copies
/// between keys, migrations, compaction, and the errors a wrong key gives.
@Suite struct EncryptedRealmTests {
    static let key = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 41 &+ 3) })
    static let otherKey = Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 200) })

    // MARK: The seeds' samples

    /// Seed 000 "Encryption" (and seed 001's, its Objective-C twin), as
    /// written but for the random bytes: `SecRandomCopyBytes` is Apple's
    /// Security framework; its counterpart here is `arc4random_buf`, which
    /// glibc (2.36 and later), the BSDs and Apple's platforms all have.
    @Test func theEncryptionSample() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let directory = TemporaryDirectory()
            seedCheck(FileManager.default.changeCurrentDirectoryPath(directory.url.path), "chdir")

            // Generate a random encryption key
            var key = Data(count: 64)
            _ = key.withUnsafeMutableBytes { bytes in
                arc4random_buf(bytes.baseAddress!, 64)
            }

            // Open the encrypted Realm file
            let config = Realm.Configuration(encryptionKey: key)
            do {
                let realm = try Realm(configuration: config)
                // Use the Realm as normal
                let dogs = realm.objects(Dog.self).filter("name contains 'Fido'")
                seedCheck(dogs.isEmpty, "a new encrypted Realm is empty")
                try! realm.write { realm.add(Dog(value: ["name": "Fido", "age": 3])) }
                seedCheck(dogs.count == 1, "the encrypted Realm is used as normal")
            } catch let error as NSError {
                // If the encryption key is wrong, `error` will say that it's an invalid database
                fatalError("Error opening realm: \(error)")
            }
            seedCheck(key != Data(count: 64), "arc4random_buf filled the key")

            // The same key must be supplied every time.
            var wrongKey = key
            wrongKey[0] ^= 0xff
            do {
                _ = try Realm(configuration: Realm.Configuration(encryptionKey: wrongKey))
                seedCheck(false, "a wrong key opens the Realm")
            } catch let error as NSError {
                seedCheck("\(error)".contains("invalid database"), "the error says the database is invalid: \(error)")
                seedCheck(error.domain == "io.realm" && error.code == Realm.Error.Code.fileAccess.rawValue, "a file access error")
            }
            seedCheck(try! Realm(configuration: config).objects(Dog.self).first?.name == "Fido", "the right key still opens it")
        }
        #expect(seedStandardError(result) == "")
    }

    // MARK: Keys

    @Test func keysOfTheWrongLengthAreRefused() throws {
        let directory = TemporaryDirectory()
        for length in [0, 16, 32, 63, 65] {
            let configuration = Realm.Configuration(fileURL: directory.file(), encryptionKey: Data(count: length), objectTypes: [Dog.self])
            let error = #expect(throws: Realm.Error.self) { _ = try Realm(configuration: configuration) }
            #expect(error?.localizedDescription.contains("exactly 64 bytes") == true)
            #expect(error?.localizedDescription.contains("it is \(length) bytes") == true)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file().path), "a refused key creates no file")
    }

    @Test func aRealmOpenWithOneKeyRefusesAnother() throws {
        let directory = TemporaryDirectory()
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), encryptionKey: Self.key, objectTypes: [Dog.self]))
        for other in [Self.otherKey, nil] {
            let error = #expect(throws: Realm.Error.self) {
                _ = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), encryptionKey: other, objectTypes: [Dog.self]))
            }
            #expect(error?.localizedDescription.contains("already opened with") == true)
        }
        withExtendedLifetime(realm) {}
    }

    @Test func aMissingKeyAndAKeyForAPlainFileSayTheDatabaseIsInvalid() throws {
        let directory = TemporaryDirectory()
        let encrypted = directory.file("encrypted.realm"), plain = directory.file("plain.realm")
        try Realm(configuration: Realm.Configuration(fileURL: encrypted, encryptionKey: Self.key, objectTypes: [Dog.self])).write {}
        try Realm(configuration: Realm.Configuration(fileURL: plain, objectTypes: [Dog.self])).write {}
        for (url, key) in [(encrypted, nil), (plain, Self.key), (encrypted, Self.otherKey)] as [(URL, Data?)] {
            let error = #expect(throws: Realm.Error.self) {
                _ = try Realm(configuration: Realm.Configuration(fileURL: url, encryptionKey: key, objectTypes: [Dog.self]))
            }
            #expect(error?.code == .fileAccess)
            #expect(error?.localizedDescription.contains("invalid database") == true)
        }
        #expect(try schemaVersionAtURL(encrypted, encryptionKey: Self.key) == 0)
        #expect(throws: Realm.Error.self) { _ = try schemaVersionAtURL(encrypted) }
    }

    // MARK: Copies

    /// Fills a Realm with objects of every property type.
    static func fill(_ realm: Realm, count: Int = 200) throws {
        try realm.write {
            for index in 0..<count {
                let object = AllTypes()
                object.int = index
                object.int8 = Int8(truncatingIfNeeded: index)
                object.double = Double(index) / 7
                object.float = Float(index) / 3
                object.bool = index % 2 == 0
                object.string = "encrypted string \(index) " + String(repeating: "x", count: index % 50)
                object.data = Data((0..<(index % 300)).map { UInt8(truncatingIfNeeded: $0 &+ index) })
                object.date = Date(timeIntervalSince1970: Double(index) * 1000.5)
                object.decimal = Decimal(index) / 4
                object.uuid = UUID()
                object.objectId = ObjectId.generate()
                object.optionalString = index % 3 == 0 ? nil : "optional \(index)"
                object.optionalInt = index % 4 == 0 ? nil : index
                object.ints.append(objectsIn: 0..<(index % 7))
                object.optionalStrings.append(objectsIn: [nil, "a\(index)"])
                realm.add(object)
            }
        }
    }

    /// Every object of `realm`, each property's value as text, in order.
    static func rows(_ realm: Realm) -> [[String]] {
        let schema = realm.schema["AllTypes"]!
        return realm.dynamicObjects("AllTypes").sorted(byKeyPath: "int").map { object in
            schema.properties.map { property in "\(object[property.name] ?? "nil")" }
        }
    }

    @Test(arguments: [(true, false), (false, true), (true, true)])
    func writeCopyBetweenKeys(sourceEncrypted: Bool, copyEncrypted: Bool) throws {
        let directory = TemporaryDirectory()
        let sourceKey = sourceEncrypted ? Self.key : nil
        let copyKey = copyEncrypted ? (sourceEncrypted ? Self.otherKey : Self.key) : nil
        let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), encryptionKey: sourceKey, objectTypes: [AllTypes.self]))
        try Self.fill(realm)
        let expected = Self.rows(realm)
        #expect(expected.count == 200)

        // Outside a write: the newest committed version.
        let copyURL = directory.file("copy.realm")
        try realm.writeCopy(toFile: copyURL, encryptionKey: copyKey)
        // Inside one: the transaction's own changes too.
        let pendingURL = directory.file("pending.realm")
        realm.beginWrite()
        realm.add(AllTypes(value: ["int": 1000, "string": "uncommitted"]))
        try realm.writeCopy(toFile: pendingURL, encryptionKey: copyKey)
        realm.cancelWrite()

        for (url, count) in [(copyURL, 200), (pendingURL, 201)] {
            let copy = try Realm(configuration: Realm.Configuration(fileURL: url, encryptionKey: copyKey, objectTypes: [AllTypes.self]))
            let rows = Self.rows(copy)
            #expect(rows.count == count)
            #expect(Array(rows.prefix(200)) == expected, "the copy at \(url.lastPathComponent) differs")
            let header = try #require(FileManager.default.contents(atPath: url.path)).prefix(16)
            #expect((header == Data("SQLite format 3\0".utf8)) == (copyKey == nil))
            // The copy opens only with its own key.
            let wrong: Data? = copyKey == nil ? Self.key : nil
            #expect(throws: Realm.Error.self) {
                _ = try Realm(configuration: Realm.Configuration(fileURL: url, encryptionKey: wrong, objectTypes: [AllTypes.self]))
            }
        }
    }

    // MARK: Features on encrypted files

    final class VersionedDogV1: Object {
        @Persisted var name = ""
        @Persisted var age = 0
        override class func className() -> String { "VersionedDog" }
    }

    final class VersionedDogV2: Object {
        @Persisted var fullName = ""
        @Persisted var age = 0
        override class func className() -> String { "VersionedDog" }
    }

    @Test func migrationsRunOnEncryptedFiles() throws {
        let directory = TemporaryDirectory()
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: directory.file(), encryptionKey: Self.key, objectTypes: [VersionedDogV1.self]))
            try realm.write {
                realm.add(VersionedDogV1(value: ["name": "Rex", "age": 3]))
                realm.add(VersionedDogV1(value: ["name": "Fido", "age": 5]))
            }
        }
        let configuration = Realm.Configuration(fileURL: directory.file(), encryptionKey: Self.key, schemaVersion: 1, migrationBlock: { migration, oldVersion in
            #expect(oldVersion == 0)
            migration.enumerateObjects(ofType: "VersionedDog") { old, new in
                new!["fullName"] = "\(old!["name"]!) the dog"
            }
        }, objectTypes: [VersionedDogV2.self])
        #expect(try schemaVersionAtURL(directory.file(), encryptionKey: Self.key) == 0)
        let realm = try Realm(configuration: configuration)
        #expect(Set(realm.objects(VersionedDogV2.self).map(\.fullName)) == ["Rex the dog", "Fido the dog"])
        #expect(try schemaVersionAtURL(directory.file(), encryptionKey: Self.key) == 1)
    }

    @Test func compactOnLaunchShrinksAnEncryptedFile() throws {
        let directory = TemporaryDirectory()
        let url = directory.file()
        do {
            let realm = try Realm(configuration: Realm.Configuration(fileURL: url, encryptionKey: Self.key, objectTypes: [AllTypes.self]))
            try Self.fill(realm, count: 2000)
            try realm.write { realm.delete(realm.objects(AllTypes.self).filter("int >= 100")) }
        }
        let sizeBefore = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        let asked = Locked<[Int]>([])
        let configuration = Realm.Configuration(fileURL: url, encryptionKey: Self.key, shouldCompactOnLaunch: { total, used in
            asked.value = [total, used]
            return used < total / 2
        }, objectTypes: [AllTypes.self])
        let realm = try Realm(configuration: configuration)
        #expect(asked.value.count == 2 && asked.value[1] < asked.value[0])
        let sizeAfter = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(sizeAfter < sizeBefore / 2, "\(sizeBefore) → \(sizeAfter) bytes")
        #expect(realm.objects(AllTypes.self).count == 100)
        try Realm.verify(configuration: configuration)
        #expect(realm.objects(AllTypes.self).filter("int == 42").first?.string.hasPrefix("encrypted string 42") == true)
    }

    @Test func deleteFilesRemovesAnEncryptedRealm() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file(), encryptionKey: Self.key, objectTypes: [Dog.self])
        do {
            let realm = try Realm(configuration: configuration)
            try realm.write { realm.add(Dog(value: ["name": "Rex"])) }
        }
        #expect(try Realm.deleteFiles(for: configuration))
        #expect(!FileManager.default.fileExists(atPath: directory.file().path))
        #expect(try Realm(configuration: configuration).objects(Dog.self).isEmpty)
    }

    @Test func anInMemoryRealmAcceptsAKey() throws {
        var configuration = inMemoryConfiguration(types: [Dog.self])
        configuration.encryptionKey = Self.key
        let realm = try Realm(configuration: configuration)
        try realm.write { realm.add(Dog(value: ["name": "Rex", "age": 1])) }
        #expect(try Realm(configuration: configuration).objects(Dog.self).first?.name == "Rex")
    }

    @Test func readersOnOtherThreadsSeeEachCommit() throws {
        let directory = TemporaryDirectory()
        let configuration = Realm.Configuration(fileURL: directory.file(), encryptionKey: Self.key, objectTypes: [Dog.self])
        let realm = try Realm(configuration: configuration)
        let pinned = try Realm(configuration: configuration).objects(Dog.self)
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            let local = try! Realm(configuration: configuration)
            for index in 0..<25 {
                try! local.write { local.add(Dog(value: ["name": "dog \(worker)-\(index)", "age": index])) }
            }
        }
        realm.refresh()
        #expect(realm.objects(Dog.self).count == 100)
        #expect(pinned.count == 100)
        try Realm.verify(configuration: configuration)
    }
}
