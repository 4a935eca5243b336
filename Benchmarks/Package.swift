// swift-tools-version: 6.1
//
// The benchmark: this project against GRDB and against the SQLite C API,
// on the workloads of SPEC.md section 8, in one process and one run. Kept
// out of the product package so that neither the product nor CI builds it.
//
//   swift run -c release --package-path Benchmarks realm-benchmark [--quick] [--output DIR] [--filter SUBSTRING]
//   swift run -c release --package-path Benchmarks realm-sync-benchmark [--quick]
//
// Each contender is a target of its own, so that no file imports two
// database libraries: RealmObjects, GRDB and the SQLite C API declare
// overlapping names (`Database`, `Configuration`, `Results`, `Column`, and
// two Clang modules over the same sqlite3.h), and a contender should only
// see the API its users would.

import PackageDescription

let package = Package(
    name: "realm-swift-sqlite-benchmarks",
    products: [
        .executable(name: "realm-benchmark", targets: ["RealmBenchmark"]),
        .executable(name: "realm-sync-benchmark", targets: ["SyncBenchmark"]),
    ],
    dependencies: [
        .package(name: "realm-swift-sqlite", path: ".."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
    ],
    targets: [
        // What every contender shares: the protocol, the data, the checks.
        .target(name: "BenchmarkSupport"),

        // The contenders.
        .target(
            name: "RealmContender",
            dependencies: ["BenchmarkSupport", .product(name: "RealmObjects", package: "realm-swift-sqlite")]
        ),
        .target(
            name: "GRDBContender",
            dependencies: ["BenchmarkSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // The raw C API through GRDB's `GRDBSQLite` module: a plain system
        // library module over the system's sqlite3.h and libsqlite3 (the
        // library RealmCore and GRDB link too), so all three contenders
        // run the same SQLite, and the binary holds one Clang module for
        // sqlite3.h next to GRDB's rather than a third copy of its own.
        .target(
            name: "SQLiteContender",
            dependencies: ["BenchmarkSupport", .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),

        // The harness, the reports and the command line.
        .executableTarget(
            name: "RealmBenchmark",
            dependencies: [
                "BenchmarkSupport", "RealmContender", "GRDBContender", "SQLiteContender",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Sync: a server and clients on loopback (issue 19).
        .executableTarget(
            name: "SyncBenchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "RealmCore", package: "realm-swift-sqlite"),
                .product(name: "RealmObjects", package: "realm-swift-sqlite"),
                .product(name: "RealmSync", package: "realm-swift-sqlite"),
                .product(name: "RealmSyncServer", package: "realm-swift-sqlite"),
                .product(name: "RealmSyncWire", package: "realm-swift-sqlite"),
                .product(name: "WSClient", package: "swift-websocket"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
