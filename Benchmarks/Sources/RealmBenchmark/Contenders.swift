import BenchmarkSupport
import Foundation
import GRDBContender
import RealmContender
import SQLiteContender

enum Contenders {
    /// The contenders, in the order every round runs them.
    static var types: [any Contender.Type] {
        [RealmContender.self, GRDBContender.self, GRDBCodableContender.self, SQLiteContender.self, EncryptedRealmContender.self]
    }

    /// The directory of this package, for the default output directory.
    static var packageDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // RealmBenchmark
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // Benchmarks
    }
}
