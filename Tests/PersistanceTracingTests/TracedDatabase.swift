import Foundation
import InMemoryTracing
import Persistance
import PersistanceTracing
import Tracing

/// A database in a new temporary directory whose spans go to an in-memory tracer.
struct TracedDatabase {
    let tracer = InMemoryTracer()
    let database: Database
    let directory: URL

    init(name: String = "traced.sqlite") async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tracing-\(UUID().uuidString)")
        var configuration = DatabaseConfiguration(path: directory.appendingPathComponent(name).path)
        configuration.enableTracing(with: tracer)
        database = try await Database.open(configuration: configuration)
    }

    /// Closes the database and removes its directory.
    func close() async throws {
        try await database.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

extension FinishedInMemorySpan {
    /// The attribute `key` as text, whatever its kind; nil when absent.
    func attribute(_ key: String) -> String? {
        attributes.get(key).map(Self.text(of:))
    }

    /// Every attribute's value as text.
    var attributeValues: [String] {
        var values = [String]()
        attributes.forEach { _, value in values.append(Self.text(of: value)) }
        return values
    }

    /// A string attribute's text, or another kind's description.
    private static func text(of value: SpanAttribute) -> String {
        if case .string(let text) = value { return text }
        return "\(value)"
    }
}
