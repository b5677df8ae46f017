// swift-tools-version:6.1
import CompilerPluginSupport
import PackageDescription

/// Persistance: a Swift persistence layer over SQLite or SQLCipher.
///
/// Exactly one backend is linked into any build, chosen by package trait:
/// `SystemSQLite` (the default, links libsqlite3) or `SQLCipher` (links libsqlcipher).
/// Linking both into one binary makes one library's symbols shadow the other's, so
/// enabling both is a compile-time error.
let package = Package(
    name: "Persistance",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Persistance", targets: ["Persistance"]),
        .library(name: "PersistanceMacros", targets: ["PersistanceMacros"]),
        .library(name: "PersistanceDAO", targets: ["PersistanceDAO"]),
        .executable(name: "persistance-demo", targets: ["PersistanceDemo"]),
        .executable(name: "persistance-crash-writer", targets: ["PersistanceCrashWriter"]),
    ],
    traits: [
        .trait(name: "SystemSQLite", description: "Link the system SQLite library (libsqlite3)."),
        .trait(name: "SQLCipher", description: "Link SQLCipher (libsqlcipher) for encrypted databases."),
        .default(enabledTraits: ["SystemSQLite"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
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
            dependencies: [
                "Persistance",
                "PersistanceMacroPlugin",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .executableTarget(name: "PersistanceDemo", dependencies: ["Persistance", "PersistanceDAO"]),
        // Changes a database in a loop for the crash-safety tests, which kill it (see its main.swift).
        .executableTarget(name: "PersistanceCrashWriter", dependencies: ["Persistance"]),
        .testTarget(name: "PersistanceTests", dependencies: ["Persistance"]),
        .testTarget(name: "PersistanceDAOTests", dependencies: ["PersistanceDAO"]),
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
    ],
    swiftLanguageModes: [.v6]
)
