// swift-tools-version: 6.1
//
// Benchmarks, kept out of the product package so that neither the product
// nor CI builds them. Run in release mode:
//
//   swift run -c release --package-path Benchmarks core-operations

import PackageDescription

let package = Package(
    name: "realm-swift-sqlite-benchmarks",
    dependencies: [
        .package(name: "realm-swift-sqlite", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "core-operations",
            dependencies: [.product(name: "RealmCore", package: "realm-swift-sqlite")],
            path: "Sources/CoreOperations"
        ),
    ]
)
