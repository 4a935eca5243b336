// swift-tools-version: 6.1
//
// Benchmarks, kept out of the product package so that neither the product
// nor CI builds them. Run in release mode:
//
//   swift run -c release --package-path Benchmarks core-operations
//   swift run -c release --package-path Benchmarks object-operations
//   swift run -c release --package-path Benchmarks notification-latency

import PackageDescription

let package = Package(
    name: "realm-swift-sqlite-benchmarks",
    dependencies: [
        .package(name: "realm-swift-sqlite", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "object-operations",
            dependencies: [.product(name: "RealmObjects", package: "realm-swift-sqlite")],
            path: "Sources/ObjectOperations"
        ),
        .executableTarget(
            name: "notification-latency",
            dependencies: [.product(name: "RealmObjects", package: "realm-swift-sqlite")],
            path: "Sources/NotificationLatency"
        ),
        .executableTarget(
            name: "core-operations",
            dependencies: [.product(name: "RealmCore", package: "realm-swift-sqlite")],
            path: "Sources/CoreOperations"
        ),
    ]
)
