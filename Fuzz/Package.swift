// swift-tools-version:6.1
import PackageDescription

/// libFuzzer targets for Persistance, kept out of the library's package so its users never
/// build them. Each target is an executable whose entry point is `LLVMFuzzerTestOneInput`
/// (libFuzzer supplies `main`). Build them with SwiftPM's fuzzer and address sanitizers,
/// which also compile the targets as libraries (see `README.md` in this folder):
///
///     swift build --package-path Fuzz --sanitize fuzzer --sanitize address
let package = Package(
    name: "PersistanceFuzz",
    dependencies: [.package(name: "Persistance", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Persistance", package: "Persistance")]),
        .executableTarget(
            name: "ValueFuzzer",
            dependencies: ["FuzzSupport", .product(name: "Persistance", package: "Persistance")]),
        .executableTarget(
            name: "RecordFuzzer",
            dependencies: ["FuzzSupport", .product(name: "Persistance", package: "Persistance")]),
        .executableTarget(
            name: "QueryFuzzer",
            dependencies: ["FuzzSupport", .product(name: "Persistance", package: "Persistance")]),
    ],
    swiftLanguageModes: [.v6]
)
