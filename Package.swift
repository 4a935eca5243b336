// swift-tools-version: 6.1
//
// Realm's programming model for Swift on Linux, stored in SQLite.
//
// Four layers, each a library product of its own, each importing only the
// layers below it:
//
//   RealmObjects  the Swift object SDK (Object, @Persisted, Realm, Results …)
//   RealmQuery    the predicate language, compiled to SQL plus post-filters
//   RealmCore     versioned transactions, schema catalog, object store, change sets
//   CStorage      a C shim over SQLite and zlib, and the encrypting VFS (OpenSSL)

import PackageDescription

let package = Package(
    name: "realm-swift-sqlite",
    products: [
        .library(name: "CStorage", targets: ["CStorage"]),
        .library(name: "RealmCore", targets: ["RealmCore"]),
        .library(name: "RealmQuery", targets: ["RealmQuery"]),
        .library(name: "RealmObjects", targets: ["RealmObjects"]),
        .executable(name: "realm", targets: ["realm"]),
    ],
    dependencies: [
        // For the command-line tool only; the libraries need nothing but
        // Foundation and the system libraries.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // System libraries, found with pkg-config; Debian names in `providers`.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // Layer 0: what Swift cannot express well in the C APIs.
        .target(name: "CStorage", dependencies: ["CSQLite", "CZlib", "COpenSSL"]),

        // Layer 1: the storage engine.
        .target(name: "RealmCore", dependencies: ["CStorage"]),

        // Layer 2: the query language.
        .target(name: "RealmQuery", dependencies: ["RealmCore"]),

        // Layer 3: the Swift object SDK.
        .target(name: "RealmObjects", dependencies: ["RealmQuery", "RealmCore"]),

        // The demo and command-line tool.
        .executableTarget(
            name: "realm",
            dependencies: ["RealmObjects", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // A second process for the multi-process and crash tests.
        .executableTarget(
            name: "RealmCoreTestHelper",
            dependencies: ["RealmCore"],
            path: "Tests/RealmCoreTestHelper"
        ),

        // The reliability suite's families and the child processes they run
        // (see Tests/Reliability/main.swift); run by ReliabilityTests.
        .executableTarget(
            name: "RealmReliability",
            dependencies: ["RealmObjects", "RealmQuery", "RealmCore"],
            path: "Tests/Reliability"
        ),

        .testTarget(name: "CStorageTests", dependencies: ["CStorage"]),
        .testTarget(
            name: "RealmCoreTests",
            dependencies: ["RealmCore", "RealmCoreTestHelper"]
        ),
        .testTarget(name: "RealmQueryTests", dependencies: ["RealmQuery", "RealmCore"]),
        .testTarget(name: "RealmObjectsTests", dependencies: ["RealmObjects", "RealmQuery", "RealmCore"]),
        .testTarget(name: "ReliabilityTests", dependencies: ["RealmReliability"]),
    ]
)
