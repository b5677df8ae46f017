import Foundation
import InMemoryTracing
import Persistance
import PersistanceTracing
import Testing
import Tracing

// The README's "Tracing" example, verbatim.
func openTraced(path: String, tracer: some Tracer) async throws -> Database {
    var configuration = DatabaseConfiguration(path: path)
    configuration.enableTracing(with: tracer)     // or enableTracing(): InstrumentationSystem's tracer
    return try await Database.open(configuration: configuration)
}

func playerNames(_ db: Database, tracer: some Tracer) async throws -> [String] {
    try await tracer.withSpan("GET /players") { _ in    // the read's span is a child of this one
        try await db.read { conn in try conn.fetchAll(String.self, "SELECT name FROM player") }
    }
}

@Suite struct ReadmeTracingExampleTests {
    @Test func theReadmeExampleTracesTheReadUnderTheRequest() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("readme-tracing-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tracer = InMemoryTracer()
        let db = try await openTraced(path: directory.appendingPathComponent("game.sqlite").path, tracer: tracer)
        try await db.write { conn in
            try conn.execute("CREATE TABLE player(name TEXT)")
            try conn.execute("INSERT INTO player(name) VALUES (?)", ["Ann"])
        }
        #expect(try await playerNames(db, tracer: tracer) == ["Ann"])
        try await db.close()

        let spans = tracer.finishedSpans
        let request = try #require(spans.first { $0.operationName == "GET /players" })
        let read = try #require(spans.first { $0.operationName == "read transaction" })
        let select = try #require(spans.first { $0.operationName == "SELECT player" })
        #expect(read.parentSpanID == request.spanID)
        #expect(select.parentSpanID == read.spanID)
    }
}
