// swift-tools-version:6.1
import PackageDescription

// PostgreSQL benchmarks: Persistance against raw postgres-nio and Fluent, in one process.
//
// A package of its own, apart from `Benchmarks/Package.swift`, so that the SQLite benchmark
// (whose smoke run is part of the test command) never builds SwiftNIO, postgres-nio or Fluent.
//
//     Benchmarks/Postgres/run.sh
//     swift run -c release --package-path Benchmarks/Postgres persistance-pg-bench --help
// A path dependency's identity is its folder's name, which differs between clones and
// worktrees (`Persistance`, `main`, a CI checkout...), so it is read from the folder two levels up.
let libraryPackage = Context.packageDirectory
    .split(separator: "/", omittingEmptySubsequences: true)
    .dropLast(2)
    .last
    .map(String.init) ?? "Persistance"

let package = Package(
    name: "PersistancePostgresBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "persistance-pg-bench", targets: ["PersistancePostgresBench"]),
    ],
    dependencies: [
        .package(path: "../..", traits: ["SystemSQLite", "PostgreSQL"]),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/vapor/fluent-kit", exact: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver", exact: "2.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "PersistancePostgresBench",
            dependencies: [
                .product(name: "Persistance", package: libraryPackage),
                .product(name: "PersistanceMacros", package: libraryPackage),
                .product(name: "PersistancePostgres", package: libraryPackage),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
            ],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
