import Foundation
import Logging
import PostgresNIO

// Raw postgres-nio (`raw`): a `PostgresClient` pool and one `PostgresPreparedStatement` type per
// statement, each prepared once per connection (named), then only bound and executed; rows
// decoded into a plain struct by position.

/// The raw contender's record: a plain struct.
struct RawItem: Sendable {
    var id: Int64
    var name: String
    var score: Double
    var created: Date
    var payload: Data
}

/// `INSERT … RETURNING id`: the generated key read back.
struct InsertRawItem: PostgresPreparedStatement {
    static let sql = "INSERT INTO bench_item (name, score, created, payload) VALUES ($1, $2, $3, $4) RETURNING id"
    typealias Row = Int64
    var item: RawItem

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 4)
        bindings.append(item.name)
        bindings.append(item.score)
        bindings.append(item.created)
        try bindings.append(item.payload)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> Int64 { try row.decode(Int64.self) }
}

/// Every row of the table.
struct FetchAllRawItems: PostgresPreparedStatement {
    static let sql = "SELECT id, name, score, created, payload FROM bench_item"
    typealias Row = RawItem

    func makeBindings() throws -> PostgresBindings { PostgresBindings() }

    func decodeRow(_ row: PostgresRow) throws -> RawItem { try RawItem(row) }
}

/// One row by primary key.
struct FindRawItem: PostgresPreparedStatement {
    static let sql = "SELECT id, name, score, created, payload FROM bench_item WHERE id = $1"
    typealias Row = RawItem
    var id: Int64

    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(id)
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> RawItem { try RawItem(row) }
}

extension RawItem {
    init(_ row: PostgresRow) throws {
        let (id, name, score, created, payload) = try row.decode((Int64, String, Double, Date, Data).self)
        self.init(id: id, name: name, score: score, created: created, payload: payload)
    }
}

struct RawPostgresContender: Contender {
    let name = "raw"
    let client: PostgresClient
    private let runTask: Task<Void, Never>
    private let logger = Logger(label: "bench.raw") { _ in SwiftLogNoOpLogHandler() }

    init(server: ServerAddress, connections: Int) {
        client = PostgresClient(configuration: server.clientConfiguration(connections: connections))
        let client = client
        runTask = Task { await client.run() }
    }

    func records(_ items: [BenchItem]) -> [RawItem] { Self.records(items) }

    static func records(_ items: [BenchItem]) -> [RawItem] {
        items.map { RawItem(id: $0.id, name: $0.name, score: $0.score, created: $0.created, payload: $0.payload) }
    }

    func insert(_ records: inout [RawItem]) async throws {
        try await Self.transaction(on: client, readOnly: false, logger: logger) { connection in
            for index in records.indices {
                for try await id in try await connection.execute(InsertRawItem(item: records[index]), logger: logger) {
                    records[index].id = id
                }
            }
        }
    }

    func fetchAll() async throws -> [RawItem] {
        try await Self.transaction(on: client, readOnly: true, logger: logger) { connection in
            var items: [RawItem] = []
            for try await item in try await connection.execute(FetchAllRawItems(), logger: logger) {
                items.append(item)
            }
            return items
        }
    }

    func lookUp(_ keys: ArraySlice<Int64>) async throws -> [RawItem] {
        try await Self.transaction(on: client, readOnly: true, logger: logger) { connection in
            var items: [RawItem] = []
            items.reserveCapacity(keys.count)
            for key in keys {
                for try await item in try await connection.execute(FindRawItem(id: key), logger: logger) {
                    items.append(item)
                }
            }
            return items
        }
    }

    func item(_ record: RawItem) -> BenchItem { Self.item(record) }

    static func item(_ record: RawItem) -> BenchItem {
        BenchItem(id: record.id, name: record.name, score: record.score, created: record.created, payload: record.payload)
    }

    func close() async {
        runTask.cancel()
        await runTask.value
    }

    /// Runs `body` between BEGIN and COMMIT on one connection of `client` (ROLLBACK when it
    /// throws): the statements Persistance sends around a block (`db.read`: one snapshot,
    /// REPEATABLE READ; `db.write`: the configuration's level, READ COMMITTED by default).
    static func transaction<T: Sendable>(
        on client: PostgresClient, readOnly: Bool, logger: Logger, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await client.withConnection { connection in
            try await connection.query(
                readOnly
                    ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN ISOLATION LEVEL READ COMMITTED READ WRITE",
                logger: logger)
            do {
                let value = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }
}
