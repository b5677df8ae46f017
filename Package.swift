// swift-tools-version:6.1
import CompilerPluginSupport
import PackageDescription

/// Persistance: a Swift persistence layer over SQLite or SQLCipher.
///
/// Exactly one backend is linked into any build, chosen by package trait:
/// `SystemSQLite` (the default, links libsqlite3) or `SQLCipher` (links libsqlcipher).
/// Linking both into one binary makes one library's symbols shadow the other's, so
/// enabling both is a compile-time error — except in documentation builds (the
/// `DocumentationBuild` trait, which symbol-graph extraction turns on with every other trait),
/// where the SQLCipher variant is documented and no connection can open.
///
/// PostgreSQL: the `PersistancePostgres` product is gated by the `PostgreSQL` trait, off by default.
/// Only that target depends on postgres-nio, and only when the trait is on (`.when(traits:)`), so a
/// SQLite app never builds SwiftNIO. An app that uses PostgreSQL enables it:
/// `.package(url: …, from: …, traits: ["SystemSQLite", "PostgreSQL"])`. Without the trait the
/// target compiles to nothing (its sources sit inside `#if PostgreSQL`).
/// Why a trait rather than an ordinary target: `swift test` builds every test target, and the test
/// command builds this package four times (SystemSQLite, SQLCipher, ThreadSanitizer, docs), each in
/// its own build folder. An ordinary target would compile SwiftNIO and postgres-nio (minutes on two
/// cores) in each of them. With the trait, only the SystemSQLite run (`--traits defaults,PostgreSQL`)
/// builds and tests them, once; the SQL the PostgreSQL code sends does not depend on the SQLite
/// backend, so testing it under SQLCipher as well would add build time and no coverage.
/// Async functions run on their caller's executor (as postgres-nio's do): a transaction value,
/// which is not Sendable, then never crosses an isolation boundary inside a block.
let postgresSwiftSettings: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]

let package = Package(
    name: "Persistance",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "Persistance", targets: ["Persistance"]),
        .library(name: "PersistanceMacros", targets: ["PersistanceMacros"]),
        .executable(name: "persistance", targets: ["PersistanceCLI"]),
        .library(name: "PersistanceDAO", targets: ["PersistanceDAO"]),
        .library(name: "PersistanceDAOCrypto", targets: ["PersistanceDAOCrypto"]),
        .library(name: "PersistanceServiceLifecycle", targets: ["PersistanceServiceLifecycle"]),
        .library(name: "PersistanceTracing", targets: ["PersistanceTracing"]),
        .library(name: "PersistancePostgres", targets: ["PersistancePostgres"]),
        .executable(name: "persistance-demo", targets: ["PersistanceDemo"]),
        .executable(name: "persistance-postgres-demo", targets: ["PersistancePostgresDemo"]),
        .executable(name: "persistance-crash-writer", targets: ["PersistanceCrashWriter"]),
    ],
    traits: [
        .trait(name: "SystemSQLite", description: "Link the system SQLite library (libsqlite3)."),
        .trait(name: "SQLCipher", description: "Link SQLCipher (libsqlcipher) for encrypted databases."),
        .trait(
            name: "PostgreSQL",
            description: "Build the PersistancePostgres product (PostgreSQL through postgres-nio)."),
        .trait(
            name: "DocumentationBuild",
            description: "Only for documentation: with every trait enabled, as symbol-graph extraction does, "
                + "compile the SQLCipher variant instead of failing. Connections refuse to open in such a build."),
        .default(enabledTraits: ["SystemSQLite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation`: a command plugin, built only when that command runs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Already a dependency of postgres-nio; named for its TLS contexts (`sslmode=prefer|require`).
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CSQLCipher",
            pkgConfig: "sqlcipher",
            providers: [.apt(["libsqlcipher-dev"]), .brew(["sqlcipher"])]
        ),
        .target(
            name: "Persistance",
            dependencies: [
                .target(name: "CSQLite", condition: .when(traits: ["SystemSQLite"])),
                .target(name: "CSQLCipher", condition: .when(traits: ["SQLCipher"])),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        // The compiler plugin behind every macro of the package (records, DAO interfaces).
        // Only the targets that declare macros depend on it, so the core never builds swift-syntax.
        .macro(
            name: "PersistanceMacroPlugin",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
            ]
        ),
        .target(name: "PersistanceMacros", dependencies: ["Persistance", "PersistanceMacroPlugin"]),
        // The declarative DAO: SQL in XML modules, dynamic SQL, versioned tables, field encryption.
        .target(
            name: "PersistanceDAO",
            dependencies: ["Persistance", "PersistanceMacroPlugin"]
        ),
        // The DAO's AES-GCM field cipher, apart so that PersistanceDAO alone never builds swift-crypto.
        .target(name: "PersistanceDAOCrypto", dependencies: [
            "PersistanceDAO",
            .product(name: "Crypto", package: "swift-crypto"),
        ]),
        // Databases as a swift-service-lifecycle service: closed gracefully when a server shuts down.
        .target(name: "PersistanceServiceLifecycle", dependencies: [
            "Persistance",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // Spans of transactions and statements through swift-distributed-tracing.
        .target(name: "PersistanceTracing", dependencies: [
            "Persistance",
            .product(name: "Tracing", package: "swift-distributed-tracing"),
        ]),
        // PostgreSQL through postgres-nio; empty unless the `PostgreSQL` trait is on (see the top).
        .target(name: "PersistancePostgres", dependencies: [
            "Persistance",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
            .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["PostgreSQL"])),
        ], swiftSettings: postgresSwiftSettings),
        // The `persistance` command-line tool: inspect, query, check, back up and re-key files.
        .executableTarget(name: "PersistanceCLI", dependencies: [
            "Persistance",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "PersistanceDemo", dependencies: ["PersistanceMacros", "PersistanceDAO"]),
        // One app instance of the scale-out demo (`scripts/demo.sh --postgres` runs two).
        .executableTarget(
            name: "PersistancePostgresDemo", dependencies: ["PersistanceMacros", "PersistancePostgres"],
            swiftSettings: postgresSwiftSettings),
        // Changes a database in a loop for the crash-safety tests, which kill it (see its main.swift).
        .executableTarget(name: "PersistanceCrashWriter", dependencies: ["Persistance"]),
        // The reliability tests' VFS (simulated power cuts, injected I/O errors), in C: used by
        // PersistanceTests only, built against the SQLite header of the backend being built.
        .target(
            name: "CPersistanceTestVFS",
            dependencies: [
                .target(name: "CSQLite", condition: .when(traits: ["SystemSQLite"])),
                .target(name: "CSQLCipher", condition: .when(traits: ["SQLCipher"])),
            ],
            path: "Tests/CPersistanceTestVFS",
            cSettings: [.define("PERSISTANCE_TEST_VFS_SQLCIPHER", .when(traits: ["SQLCipher"]))]
        ),
        .testTarget(name: "PersistanceTests", dependencies: [
            "Persistance",
            "PersistanceMacros",
            "CPersistanceTestVFS",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "MetricsTestKit", package: "swift-metrics"),
        ]),
        .testTarget(
            name: "PersistanceMacrosTests",
            dependencies: [
                "PersistanceMacros",
                "PersistanceMacroPlugin",
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
        // Runs against a real server: `scripts/postgres-cluster.sh` starts one, PERSISTANCE_POSTGRES_URL names it.
        .testTarget(name: "PersistancePostgresTests", dependencies: [
            "PersistancePostgres",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
        ], swiftSettings: postgresSwiftSettings),
        // One set of behaviour tests run against every engine of the build: SQLite always (SQLCipher
        // under that trait), PostgreSQL too with the `PostgreSQL` trait (see ConformanceBackend.swift).
        .testTarget(name: "PersistanceConformanceTests", dependencies: [
            "Persistance",
            "PersistanceMacros",
            "PersistancePostgres",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
        ], swiftSettings: postgresSwiftSettings),
        .testTarget(name: "PersistanceDAOTests", dependencies: ["PersistanceDAO"]),
        .testTarget(name: "PersistanceDAOCryptoTests", dependencies: ["PersistanceDAOCrypto"]),
        .testTarget(name: "PersistanceServiceLifecycleTests", dependencies: [
            "PersistanceServiceLifecycle",
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "PersistanceTracingTests", dependencies: [
            "PersistanceTracing",
            .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
        ]),
        // Expansion tests of the DAO macro. A test target that depends on a macro target is built
        // for the host, with all its dependencies: kept apart so PersistanceDAO (and swift-crypto)
        // are not built twice.
        .testTarget(
            name: "PersistanceDAOMacroTests",
            dependencies: [
                "PersistanceMacroPlugin",
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
        // Top-level `try await Database.open(…)` must pick the async overloads: this target fails
        // to build (warnings as errors) if it does not. Not a product, so dependents never build it.
        .executableTarget(name: "TopLevelAwaitCheck", dependencies: ["Persistance"], path: "Tests/TopLevelAwaitCheck"),
    ],
    swiftLanguageModes: [.v6]
)
