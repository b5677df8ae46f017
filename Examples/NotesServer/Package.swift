// swift-tools-version:6.1
import PackageDescription

/// A notes service on Hummingbird that streams a value observation as server-sent events:
/// the README's server recipe, built and tested.
let package = Package(
    name: "NotesServer",
    platforms: [.macOS(.v15)],
    products: [.executable(name: "notes-server", targets: ["notes-server"])],
    dependencies: [
        .package(name: "Persistance", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .target(name: "NotesServer", dependencies: [
            .product(name: "Persistance", package: "Persistance"),
            .product(name: "PersistanceServiceLifecycle", package: "Persistance"),
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "notes-server", dependencies: [
            "NotesServer",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .testTarget(name: "NotesServerTests", dependencies: [
            "NotesServer",
            .product(name: "HummingbirdTesting", package: "hummingbird"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
