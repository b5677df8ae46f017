import Foundation
import InMemoryTracing
import Persistance
import PersistanceTracing
import Testing
import Tracing

@Suite struct DatabaseSpanTracerTests {
    @Test func eachBlockAndStatementIsASpanUnderTheCallersSpan() async throws {
        let traced = try await TracedDatabase()
        try await traced.tracer.withSpan("request") { _ in
            try await traced.database.write { conn in
                try conn.execute("CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)")
                try conn.execute("INSERT INTO player(name) VALUES (?)", ["Ann"])
            }
            _ = try await traced.database.read { try $0.fetchAll(String.self, "SELECT name FROM player") }
        }
        try await traced.close()

        let spans = traced.tracer.finishedSpans
        let request = try #require(spans.first { $0.operationName == "request" })
        let write = try #require(spans.first { $0.operationName == "write transaction" })
        let read = try #require(spans.first { $0.operationName == "read transaction" })
        #expect(write.parentSpanID == request.spanID)
        #expect(read.parentSpanID == request.spanID)
        #expect(write.traceID == request.traceID)
        #expect(write.attribute("db.system") == "sqlite")
        #expect(write.attribute("db.namespace") == "traced.sqlite")
        #expect(write.attribute("persistance.transaction") == "write")

        let insert = try #require(spans.first { $0.operationName == "INSERT player" })
        #expect(insert.parentSpanID == write.spanID)
        #expect(insert.kind == .client)
        #expect(insert.attribute("db.system") == "sqlite")
        #expect(insert.attribute("db.operation.name") == "INSERT")
        #expect(insert.attribute("db.collection.name") == "player")
        #expect(insert.attribute("db.query.text") == "INSERT INTO player(name) VALUES (?)")
        #expect(insert.attribute("db.namespace") == "traced.sqlite")
        #expect(insert.errors.isEmpty)
        #expect(insert.startInstant.nanosecondsSinceEpoch <= insert.endInstant.nanosecondsSinceEpoch)

        let select = try #require(spans.first { $0.operationName == "SELECT player" })
        #expect(select.parentSpanID == read.spanID)
        #expect(select.attribute("db.query.text") == "SELECT name FROM player")
        #expect(spans.contains { $0.operationName == "CREATE player" && $0.parentSpanID == write.spanID })
        // The transaction's own statements are spans of it too.
        #expect(spans.contains { $0.operationName == "COMMIT" && $0.parentSpanID == write.spanID })
    }

    @Test func noValueAppearsInAnyAttribute() async throws {
        let traced = try await TracedDatabase()
        try await traced.database.write { conn in
            try conn.execute("CREATE TABLE secret(value TEXT, amount REAL)")
            try conn.execute("INSERT INTO secret VALUES (?, ?)", ["bound-hunter2", 1234.5])
            try conn.execute("INSERT INTO secret VALUES ('literal-hunter2', 98765)")
            _ = try conn.fetchOne(String.self, "SELECT value FROM secret WHERE value = ?", ["bound-hunter2"])
        }
        try await traced.close()

        let values = traced.tracer.finishedSpans.flatMap(\.attributeValues)
        #expect(!values.isEmpty)
        #expect(!values.contains { $0.contains("hunter2") || $0.contains("1234") || $0.contains("98765") })
        #expect(values.contains("INSERT INTO secret VALUES (?, ?)"))
    }

    @Test func aFailingStatementRecordsItsError() async throws {
        let traced = try await TracedDatabase()
        try await traced.database.write { try $0.execute("CREATE TABLE t(a INTEGER NOT NULL)") }
        let failure = await #expect(throws: DatabaseError.self) {
            try await traced.database.write { conn in
                try conn.execute("INSERT INTO t(a) VALUES (1)")
                try conn.execute("INSERT INTO t(a) VALUES (NULL)")
            }
        }
        try await traced.close()

        let spans = traced.tracer.finishedSpans
        let inserts = spans.filter { $0.operationName == "INSERT t" }
        #expect(inserts.count == 2)
        let failed = try #require(inserts.first { !$0.errors.isEmpty })
        #expect(failed.status?.code == .error)
        #expect(failed.attribute("error.type") == "sqlite")
        #expect(failed.attribute("db.response.status_code") == "\(ResultCode.constraintNotNull.rawValue)")
        #expect((failed.errors.first?.error as? DatabaseError)?.extendedResultCode == failure?.extendedResultCode)
        #expect(inserts.filter { $0.errors.isEmpty }.count == 1)
        let transaction = try #require(spans.last { $0.operationName == "write transaction" })
        #expect(failed.parentSpanID == transaction.spanID)
        #expect(transaction.status?.code == .error)
        #expect(!transaction.errors.isEmpty)
        #expect(spans.contains { $0.operationName == "ROLLBACK" && $0.parentSpanID == transaction.spanID })
    }

    @Test func aBlockOutsideAnySpanStartsItsOwnTrace() async throws {
        let traced = try await TracedDatabase()
        _ = try await traced.database.read { try $0.fetchOne(Int.self, "SELECT 1") }
        try traced.database.writeSync { try $0.execute("CREATE TABLE t(a)") }
        try await traced.close()

        let spans = traced.tracer.finishedSpans
        let read = try #require(spans.first { $0.operationName == "read transaction" })
        let write = try #require(spans.first { $0.operationName == "write transaction" })
        #expect(read.parentSpanID == nil)
        #expect(write.parentSpanID == nil)
        #expect(read.traceID != write.traceID)
        #expect(spans.contains { $0.operationName == "SELECT" && $0.parentSpanID == read.spanID })
    }

    @Test func tracingIsOffByDefault() async throws {
        let configuration = DatabaseConfiguration(path: ":memory:")
        #expect(configuration.tracer == nil)
        var traced = configuration
        traced.enableTracing(with: InMemoryTracer())
        #expect(traced.tracer is DatabaseSpanTracer)
    }

    @Test func withoutATracerNothingIsTraced() {
        // Nothing bootstrapped in InstrumentationSystem: the tracer traces no block.
        #expect(DatabaseSpanTracer().transactionTracer(for: .read, database: "db") == nil)
        #expect(DatabaseSpanTracer(tracer: InMemoryTracer()).transactionTracer(for: .read, database: "db") != nil)
    }
}
