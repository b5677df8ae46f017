// A compile-level check, built with every `swift build` of this package (warnings as errors in
// scripts/test.sh): from top-level code, `try await Database.open(…)` must pick the async
// overloads. If a synchronous overload named `open` came back, Swift would choose it here and
// warn "no 'async' operations occur within 'await' expression", failing the build.
import Foundation
import Persistance

let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("persistance-top-level-\(ProcessInfo.processInfo.processIdentifier)").path
defer { try? FileManager.default.removeItem(atPath: directory) }

let registry = TargetRegistry(defaultDirectory: directory)
let byName = try await Database.open("top_level.sqlite", registry: registry)
let byConfiguration = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
let counts = try await byName.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master") }
try await byName.close()
try await byConfiguration.close()
print("opened from top-level code; \(counts ?? 0) schema objects")
