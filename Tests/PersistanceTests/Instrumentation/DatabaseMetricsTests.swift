import CoreMetrics
import Foundation
import MetricsTestKit
import Testing

@testable import Persistance

@Suite struct DatabaseMetricsTests {
    /// A database on a new file whose metrics go to `metrics`.
    private func open(_ directory: TemporaryDirectory, _ metrics: TestMetrics) async throws -> Database {
        var configuration = DatabaseConfiguration(path: directory.url.appendingPathComponent("measured.sqlite").path)
        configuration.metricsFactory = metrics
        return try await Database.open(configuration: configuration)
    }

    private func dimensions(_ access: String) -> [(String, String)] {
        [("database", "measured.sqlite"), ("access", access)]
    }

    @Test func blocksRecordTheirWaitAndRunTimesAndCommits() async throws {
        let directory = try TemporaryDirectory()
        let metrics = TestMetrics()
        let db = try await open(directory, metrics)
        try await db.write { try $0.execute("CREATE TABLE t(a)") }
        try db.writeSync { try $0.execute("INSERT INTO t VALUES (1)") }
        _ = try await db.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM t") }
        try await db.close()

        #expect(try metrics.expectTimer("persistance.block.wait", dimensions("write")).values.count == 2)
        #expect(try metrics.expectTimer("persistance.block.run", dimensions("write")).values.count == 2)
        #expect(try metrics.expectTimer("persistance.block.wait", dimensions("read")).values.count == 1)
        let runs = try metrics.expectTimer("persistance.block.run", dimensions("read")).values
        #expect(runs.count == 1 && runs.allSatisfy { $0 > 0 })
        #expect(try metrics.expectCounter("persistance.commits", [("database", "measured.sqlite")]).totalValue == 2)
        #expect(try metrics.expectCounter("persistance.rollbacks", [("database", "measured.sqlite")]).totalValue == 0)
    }

    @Test func failuresCountRollbacksAndErrorsByKind() async throws {
        let directory = try TemporaryDirectory()
        let metrics = TestMetrics()
        let db = try await open(directory, metrics)
        try await db.write { try $0.execute("CREATE TABLE t(a NOT NULL)") }
        await #expect(throws: DatabaseError.self) {
            try await db.write { try $0.execute("INSERT INTO t VALUES (NULL)") }
        }
        struct Refused: Error {}
        await #expect(throws: Refused.self) {
            try await db.write { _ in throw Refused() }
        }
        await #expect(throws: DatabaseError.self) {
            try await db.read { try $0.execute("SELECT * FROM missing") }
        }
        try await db.close()

        #expect(try metrics.expectCounter("persistance.commits", [("database", "measured.sqlite")]).totalValue == 1)
        #expect(try metrics.expectCounter("persistance.rollbacks", [("database", "measured.sqlite")]).totalValue == 2)
        let errors = metrics.counters(label: "persistance.errors")
        func count(_ access: String, _ kind: String) -> Int64 {
            errors.filter { counter in
                counter.dimensions.contains { $0 == ("access", access) } && counter.dimensions.contains { $0 == ("kind", kind) }
            }.reduce(0) { $0 + $1.totalValue }
        }
        #expect(count("write", "sqlite") == 1)
        #expect(count("write", "other") == 1)
        #expect(count("read", "sqlite") == 1)
    }

    @Test func nothingIsMeasuredWithoutABackend() {
        // The test process never bootstraps MetricsSystem.
        #expect(DatabaseMetrics(database: "x", factory: nil) == nil)
        #expect(DatabaseInstrumentation(configuration: DatabaseConfiguration(path: ":memory:")).submitted() == 0)
    }
}
