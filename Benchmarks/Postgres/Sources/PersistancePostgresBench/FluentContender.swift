import FluentKit
import FluentPostgresDriver
import Foundation
import Logging
import PostgresNIO

// Fluent (`fluent`): fluent-kit with fluent-postgres-driver over a `PostgresClient` pool of the
// same size as the others' (the driver's `.postgres(client:)` configuration), a `Model` with
// `@ID(custom:)` and `@Field`s, `Database.transaction`, `Model.create(on:)`,
// `query(on:).all()` and `find(_:on:)` as Fluent documents them. Fluent's BEGIN is a plain
// `BEGIN` (it has no read-only transaction); its statements are unnamed, parsed each time.

/// The Fluent contender's record.
final class FluentItem: Model, @unchecked Sendable {
    static let schema = "bench_item"

    @ID(custom: "id", generatedBy: .database) var id: Int64?
    @Field(key: "name") var name: String
    @Field(key: "score") var score: Double
    @Field(key: "created") var created: Date
    @Field(key: "payload") var payload: Data

    init() {}

    init(name: String, score: Double, created: Date, payload: Data) {
        self.name = name
        self.score = score
        self.created = created
        self.payload = payload
    }
}

struct FluentContender: Contender {
    let name = "fluent"
    private let client: PostgresClient
    private let runTask: Task<Void, Never>
    private let databases: Databases
    private let database: any Database

    init(server: ServerAddress, connections: Int) {
        let logger = Logger(label: "bench.fluent") { _ in SwiftLogNoOpLogHandler() }
        client = PostgresClient(configuration: server.clientConfiguration(connections: connections))
        let client = client
        runTask = Task { await client.run() }
        let eventLoops = MultiThreadedEventLoopGroup.singleton
        databases = Databases(threadPool: .singleton, on: eventLoops)
        databases.use(.postgres(client: client, logger: logger), as: .psql)
        database = databases.database(.psql, logger: logger, on: eventLoops.any())!
    }

    func records(_ items: [BenchItem]) -> [FluentItem] {
        items.map { FluentItem(name: $0.name, score: $0.score, created: $0.created, payload: $0.payload) }
    }

    func insert(_ records: inout [FluentItem]) async throws {
        let models = records
        try await database.transaction { transaction in
            for model in models {
                try await model.create(on: transaction)
            }
        }
    }

    func fetchAll() async throws -> [FluentItem] {
        try await database.transaction { transaction in
            try await FluentItem.query(on: transaction).all()
        }
    }

    func lookUp(_ keys: ArraySlice<Int64>) async throws -> [FluentItem] {
        try await database.transaction { transaction in
            var items: [FluentItem] = []
            items.reserveCapacity(keys.count)
            for key in keys {
                if let item = try await FluentItem.find(key, on: transaction) { items.append(item) }
            }
            return items
        }
    }

    func item(_ record: FluentItem) -> BenchItem {
        BenchItem(id: record.id ?? 0, name: record.name, score: record.score, created: record.created, payload: record.payload)
    }

    func close() async {
        await databases.shutdownAsync()
        runTask.cancel()
        await runTask.value
    }
}
