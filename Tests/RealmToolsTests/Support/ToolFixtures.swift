import Foundation
import RealmObjects
import Testing
#if canImport(Glibc)
import Glibc
#endif

// Models covering every property type, links, lists, an embedded object,
// backlinks and a class without a primary key. The tool never sees them:
// it reads the schema from the file.

final class ToolOwner: Object {
    @Persisted(primaryKey: true) var id = ""
    @Persisted var name = ""
    let pets = List<ToolPet>()
    @Persisted var address: ToolAddress?
    @Persisted var friend: ToolOwner?
    @Persisted var note: ToolNote?
}

final class ToolPet: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var name = ""
    @Persisted var flag = false
    @Persisted var score = 0.0
    @Persisted var ratio: Float = 0
    @Persisted var born = Date(timeIntervalSince1970: 0)
    @Persisted var photo: Data?
    @Persisted var tag = ObjectId.generate()
    @Persisted var uuid = UUID()
    @Persisted var price = Decimal(0)
    let nicknames = List<String>()
    @Persisted var maybe: Int?
    let owners = LinkingObjects(fromType: ToolOwner.self, property: "pets")

    override class func indexedProperties() -> [String] { ["name"] }
}

final class ToolAddress: EmbeddedObject {
    @Persisted var city = ""
    @Persisted var zip: String?
    @Persisted var neighbor: ToolOwner?
}

final class ToolNote: Object {
    @Persisted var text = ""
}

let toolModels: [Object.Type] = [ToolOwner.self, ToolPet.self, ToolAddress.self, ToolNote.self]

/// A fresh temporary directory, removed by `body`'s end.
func withTemporaryDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("realm-tools-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try await body(directory)
}

func configuration(_ url: URL, key: Data? = nil) -> Realm.Configuration {
    Realm.Configuration(fileURL: url, encryptionKey: key, objectTypes: toolModels)
}

/// A Realm with the models' schema and no objects.
func makeEmptyRealm(_ url: URL, key: Data? = nil) throws {
    try autoreleasepool { _ = try Realm(configuration: configuration(url, key: key)) }
}

/// A Realm holding three pets, two owners (one with an embedded address,
/// friends of each other) and a note, with awkward strings.
func makeSampleRealm(_ url: URL, key: Data? = nil) throws {
    try autoreleasepool {
        let realm = try Realm(configuration: configuration(url, key: key))
        try realm.write {
            let names = ["Rex", "Fido, the \"good\" dog", "<script>alert(1)</script>\nline two"]
            var pets: [ToolPet] = []
            for (index, name) in names.enumerated() {
                let pet = ToolPet()
                pet.id = index + 1
                pet.name = name
                pet.flag = index % 2 == 0
                pet.score = Double(index) + 0.25
                pet.ratio = Float(index) / 4
                // The last pet was born before year 1, which ISO 8601's
                // four-digit years cannot write.
                pet.born = Date(timeIntervalSince1970: index == 2 ? -100_000_000_000 : 1_700_000_000.123456 + Double(index) * 86_400)
                pet.photo = index == 0 ? nil : Data([0, 1, 2, UInt8(index)])
                pet.tag = ObjectId(string: "65a1b2c3d4e5f60718293a4\(index)")!
                pet.uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5\(index)")!
                pet.price = Decimal(string: "1234567890.12345678\(index)")!
                pet.nicknames.append(objectsIn: index == 0 ? [] : ["a", "b,c"])
                pet.maybe = index == 1 ? nil : index * 10
                realm.add(pet)
                pets.append(pet)
            }
            let note = ToolNote()
            note.text = "no primary key"
            realm.add(note)
            let ann = ToolOwner()
            ann.id = "ann"
            ann.name = "Ann"
            ann.pets.append(objectsIn: [pets[0], pets[2]])
            ann.address = ToolAddress()
            ann.address!.city = "Oslo"
            ann.note = note
            realm.add(ann)
            let bob = ToolOwner()
            bob.id = "bob"
            bob.name = "Bob"
            bob.pets.append(pets[1])
            bob.friend = ann
            realm.add(bob)
            ann.friend = bob
            ann.address!.neighbor = bob
        }
    }
}

/// The `realm` executable next to the test binary.
func realmExecutable(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    var binaries: [URL] = []
    if let url = Bundle.main.executableURL { binaries.append(url) }
    if let first = CommandLine.arguments.first { binaries.append(URL(fileURLWithPath: first)) }
    for binary in binaries {
        var directory = binary.resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("realm")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
    }
    return try #require(nil as URL?, "realm not found next to the test binary; build with `swift build --build-tests`.",
                        sourceLocation: sourceLocation)
}

/// What a run of the tool printed, and how it ended.
struct ToolRun {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The child's peak resident memory (VmHWM), in kilobytes, as last read
    /// before it ended.
    var peakKilobytes: Int
}

/// Runs `realm` with `arguments` to its end, on a dispatch thread.
func realm(_ arguments: [String]) async throws -> ToolRun {
    try await run(realmExecutable(), arguments)
}

/// Runs `realm` with `arguments` on a terminal (a pseudo-terminal made by
/// util-linux's `script`), as a user at a terminal runs it.
func realmOnTerminal(_ arguments: [String]) async throws -> ToolRun {
    let command = try ([realmExecutable().path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    return try await run(URL(fileURLWithPath: "/usr/bin/script"), ["-qec", command.joined(separator: " "), "/dev/null"])
}

/// Runs `work` on a thread of its own and waits for it: long blocking
/// work kept off the tests' cooperative pool.
func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// Runs an executable to its end, on a dispatch thread.
func run(_ executable: URL, _ arguments: [String]) async throws -> ToolRun {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try runToEnd(executable, arguments) })
        }
    }
}

/// Spawns the child with posix_spawn, and follows its peak memory until it
/// ends (Foundation's Process does not tell it).
private func runToEnd(_ executable: URL, _ arguments: [String]) throws -> ToolRun {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("realm-out-\(UUID().uuidString)")
    let err = FileManager.default.temporaryDirectory.appendingPathComponent("realm-err-\(UUID().uuidString)")
    defer {
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, out.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, err.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable.path, &actions, nil, argv, environ)
    guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }
    // The peak is read from /proc while the child runs: wait4's ru_maxrss
    // would include this process's own memory, which a child spawned with
    // vfork semantics inherits as its high-water mark.
    var status: Int32 = 0
    var peak = 0
    while true {
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == pid { break }
        if reaped < 0 && errno != EINTR { throw POSIXError(.ECHILD) }
        if let report = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
           let line = report.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
           let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") {
            peak = max(peak, kilobytes)
        }
        usleep(10_000)
    }
    let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return ToolRun(status: exitStatus,
                   stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "",
                   peakKilobytes: peak)
}
