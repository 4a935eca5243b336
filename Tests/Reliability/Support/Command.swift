import Foundation

/// Writes a line to standard output at once, unbuffered, so that a parent
/// reading a child that is killed the next instant sees every line printed.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The command line: a family to run, or a child role.
enum Command {
    static let familyNames = ["bad-values", "concurrency", "crash-safety", "damaged-files", "injection", "predicate-fuzz", "soak"]

    static func family(named name: String) -> ((Size, UInt64) throws -> Int32)? {
        switch name {
        case "crash-safety": CrashSafety.run
        case "concurrency": Concurrency.run
        case "predicate-fuzz": PredicateFuzz.run
        case "soak": Soak.run
        case "injection": Injection.run
        case "bad-values": BadValues.run
        case "damaged-files": DamagedFiles.run
        default: nil
        }
    }

    static func run(_ arguments: [String]) -> Int32 {
        guard let verb = arguments.first else {
            say("usage: RealmReliability FAMILY [--size ci|full] [--seed N] [--case N]; families: \(familyNames.joined(separator: ", "))")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        func option(_ name: String) -> String? {
            guard let index = rest.firstIndex(of: name), index + 1 < rest.count else { return nil }
            return rest[index + 1]
        }

        switch verb {
        case "transfer":
            // transfer PATH WRITER SEED LIMIT compact|plain
            return Bank.transferChild(path: rest[0], writer: Int(rest[1]) ?? 0, seed: UInt64(rest[2]) ?? 0,
                                      limit: Int(rest[3]) ?? 0, compactOnLaunch: rest[4] == "compact")
        case "read-damaged":
            return DamagedFiles.readDamaged(path: rest[0])
        default:
            guard let family = family(named: verb) else {
                say("unknown family '\(verb)'; families: \(familyNames.joined(separator: ", "))")
                return 2
            }
            let size = option("--size").flatMap(Size.init(rawValue:)) ?? .ci
            let seed = option("--seed").flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
            onlyCase = option("--case").flatMap(Int.init)
            say("family \(verb) size \(size.rawValue) seed \(seed)")
            do {
                return try family(size, seed)
            } catch {
                say("RESULT family=\(verb) seed=\(seed) cases=0 failures=1 error=\(error)")
                return 1
            }
        }
    }
}
