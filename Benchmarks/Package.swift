// swift-tools-version:6.1
import PackageDescription

// Benchmarks for Persistance against the raw SQLite C API and GRDB, in one process.
//
// A separate package, so that users of the library never resolve GRDB.
//
// Exactly one SQLite library is linked into the benchmark binary, chosen by trait:
// - `SystemSQLite` (default): the library with its `SystemSQLite` trait, GRDB, and a raw-C
//   contender over libsqlite3.
// - `SQLCipher`: the library with its `SQLCipher` trait and a raw-C contender over
//   libsqlcipher; GRDB is not linked (it links libsqlite3, and one binary must never link
//   both libraries: whichever loads first supplies every `sqlite3_*` symbol).
//
//     swift run -c release --package-path Benchmarks persistance-bench
//     swift run -c release --package-path Benchmarks --traits SQLCipher persistance-bench
// A path dependency's identity is its folder's name, which differs between clones and
// worktrees (`Persistance`, `main`, a CI checkout...), so it is read from the parent folder.
let libraryPackage = Context.packageDirectory
    .split(separator: "/", omittingEmptySubsequences: true)
    .dropLast()
    .last
    .map(String.init) ?? "Persistance"

let package = Package(
    name: "PersistanceBenchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "persistance-bench", targets: ["PersistanceBench"]),
    ],
    traits: [
        .trait(name: "SystemSQLite", description: "Benchmark over the system SQLite (libsqlite3), with GRDB."),
        .trait(name: "SQLCipher", description: "Benchmark over SQLCipher (libsqlcipher), encrypted databases; no GRDB."),
        .default(enabledTraits: ["SystemSQLite"]),
    ],
    dependencies: [
        .package(path: "..", traits: [
            .trait(name: "SystemSQLite", condition: .when(traits: ["SystemSQLite"])),
            .trait(name: "SQLCipher", condition: .when(traits: ["SQLCipher"])),
        ]),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CBenchSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CBenchSQLCipher",
            pkgConfig: "sqlcipher",
            providers: [.apt(["libsqlcipher-dev"]), .brew(["sqlcipher"])]
        ),
        .systemLibrary(name: "CBenchMalloc"),
        .executableTarget(
            name: "PersistanceBench",
            dependencies: [
                .product(name: "Persistance", package: libraryPackage),
                .product(name: "PersistanceMacros", package: libraryPackage),
                .product(name: "PersistanceDAO", package: libraryPackage),
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["SystemSQLite"])),
                .target(name: "CBenchSQLite", condition: .when(traits: ["SystemSQLite"])),
                .target(name: "CBenchSQLCipher", condition: .when(traits: ["SQLCipher"])),
                "CBenchMalloc",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
