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
//
// Sync sits above them, in modules of its own so that a consumer of
// RealmObjects builds no networking package:
//
//   RealmSync        the client: SyncUser, SyncCredentials, SyncManager …
//   RealmSyncServer  the self-hosted server (run by `realm server`)
//   RealmSyncEngine  recording and applying changesets, for both sides
//   RealmSyncWire    what both sides send each other, with no dependency

import PackageDescription

let package = Package(
    name: "realm-swift-sqlite",
    products: [
        .library(name: "CStorage", targets: ["CStorage"]),
        .library(name: "RealmCore", targets: ["RealmCore"]),
        .library(name: "RealmQuery", targets: ["RealmQuery"]),
        .library(name: "RealmObjects", targets: ["RealmObjects"]),
        .library(name: "RealmSyncWire", targets: ["RealmSyncWire"]),
        .library(name: "RealmSync", targets: ["RealmSync"]),
        .library(name: "RealmSyncServer", targets: ["RealmSyncServer"]),
        .library(name: "RealmTools", targets: ["RealmTools"]),
        .executable(name: "realm", targets: ["realm"]),
        .executable(name: "realm-demo", targets: ["realm-demo"]),
    ],
    dependencies: [
        // For the command-line tool only; the four storage libraries need
        // nothing but Foundation and the system libraries.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // For sync only (SPEC section 11).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The sync server's PostgreSQL store (issue 37).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
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

        // Sync: the messages of the wire, shared by client and server.
        .target(name: "RealmSyncWire"),

        // Sync: recording a synced Realm's changesets and applying other
        // replicas' (Docs/SyncDesign.md); the client's and the server's.
        .target(name: "RealmSyncEngine", dependencies: ["RealmSyncWire", "RealmCore"]),

        // Sync: the self-hosted server.
        .target(
            name: "RealmSyncServer",
            dependencies: [
                "RealmSyncWire", "RealmSyncEngine", "RealmObjects", "RealmQuery", "RealmCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),

        // Sync: the client.
        .target(
            name: "RealmSync",
            dependencies: [
                "RealmSyncWire", "RealmSyncEngine", "RealmObjects", "RealmQuery", "RealmCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),

        // What the `realm` tool does to any Realm file, read with the schema
        // it stores: schema, query, export and import, file maintenance,
        // and the web data browser (Docs/Tools.md).
        .target(
            name: "RealmTools",
            dependencies: [
                "RealmObjects", "RealmQuery", "RealmCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        // The getting-started sample, and the demo that runs it over the
        // object database alone (the README's first command).
        .target(name: "GettingStarted", dependencies: ["RealmObjects"]),
        .executableTarget(name: "realm-demo", dependencies: ["GettingStarted"]),

        // The command-line tool.
        .executableTarget(
            name: "realm",
            dependencies: [
                "GettingStarted", "RealmTools", "RealmObjects", "RealmSync", "RealmSyncServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
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

        .testTarget(name: "RealmSyncWireTests", dependencies: ["RealmSyncWire"]),

        // A client in a process of its own, for the persistence tests.
        .executableTarget(
            name: "RealmSyncTestHelper",
            dependencies: ["RealmSync", "RealmSyncEngine", "RealmObjects", "RealmCore"],
            path: "Tests/RealmSyncTestHelper"
        ),
        // End-to-end: the real server on loopback, driven through the
        // client API and plain HTTP, so both sides are imported.
        .testTarget(
            name: "RealmSyncTests",
            dependencies: [
                "RealmSync", "RealmSyncServer", "RealmSyncWire", "RealmSyncEngine", "RealmObjects", "RealmCore", "RealmSyncTestHelper", "realm",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "WSClient", package: "swift-websocket"),
            ]
        ),
        // The `realm` tool, run as a user runs it, and its web browser in
        // headless Chromium.
        .testTarget(
            name: "RealmToolsTests",
            dependencies: [
                "RealmTools", "RealmObjects", "RealmCore", "RealmSyncEngine", "realm",
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
    ]
)
