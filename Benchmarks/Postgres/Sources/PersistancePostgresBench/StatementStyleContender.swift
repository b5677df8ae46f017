import Foundation
import Logging
import PostgresNIO
import Synchronization

// Two experimental contenders, not in the default set, that measure what a library with
// dynamic SQL (Persistance) pays or could save per statement against raw's named prepared
// statements: the same SQL, plain structs and transactions as `raw`, only the way each
// statement is sent differs.
// - `raw-unnamed`: `connection.query(PostgresQuery)`, the unnamed statement, parsed and
//   described by the server each time (Parse/Describe/Bind/Execute/Sync per statement), its
//   rows read from the async sequence as `raw` reads its own.
// - `raw-unnamed-future`: the same unnamed statement through the `EventLoopFuture` overload of
//   `query`, whose rows arrive collected on the event loop: one resumption per statement.
// - `raw-prepare-query`: `PostgresConnection.prepare(query:)` once per connection and SQL (a
//   `PreparedQuery` under a generated name, kept in a cache per connection), then
//   `PreparedQuery.execute(_:)` (Bind/Execute/Sync): what a per-connection statement cache for
//   dynamic SQL would send.

/// How `StatementStyleContender` sends each statement.
enum StatementStyle: String, CaseIterable {
    case unnamed = "raw-unnamed"
    case unnamedFuture = "raw-unnamed-future"
    case preparedQuery = "raw-prepare-query"
}

/// The prepared queries of each pooled connection, by SQL.
final class PreparedQueryCache: Sendable {
    private let queries = Mutex<[PostgresConnection.ID: [String: PreparedQuery]]>([:])

    /// The query `sql` prepared on `connection`, prepared now if it was not.
    func query(_ sql: String, on connection: PostgresConnection) async throws -> PreparedQuery {
        if let query = queries.withLock({ $0[connection.id]?[sql] }) { return query }
        let query = try await connection.prepare(query: sql).get()
        queries.withLock { $0[connection.id, default: [:]][sql] = query }
        return query
    }
}

struct StatementStyleContender: Contender {
    let style: StatementStyle
    var name: String { style.rawValue }
    private let client: PostgresClient
    private let runTask: Task<Void, Never>
    private let cache = PreparedQueryCache()
    private let logger = Logger(label: "bench.style") { _ in SwiftLogNoOpLogHandler() }

    init(style: StatementStyle, server: ServerAddress, connections: Int) {
        self.style = style
        client = PostgresClient(configuration: server.clientConfiguration(connections: connections))
        let client = client
        runTask = Task { await client.run() }
    }

    func records(_ items: [BenchItem]) -> [RawItem] {
        RawPostgresContender.records(items)
    }

    func insert(_ records: inout [RawItem]) async throws {
        try await RawPostgresContender.transaction(on: client, readOnly: false, logger: logger) { connection in
            for index in records.indices {
                let item = records[index]
                let rows = try await run(
                    InsertRawItem.sql, on: connection,
                    bindings: try InsertRawItem(item: item).makeBindings(),
                    data: [PostgresData(string: item.name), PostgresData(double: item.score),
                           PostgresData(date: item.created), PostgresData(bytes: item.payload)])
                records[index].id = try decodeID(rows[0])
            }
        }
    }

    func fetchAll() async throws -> [RawItem] {
        try await RawPostgresContender.transaction(on: client, readOnly: true, logger: logger) { connection in
            try await run(FetchAllRawItems.sql, on: connection, bindings: PostgresBindings(), data: []).map(decodeItem)
        }
    }

    func lookUp(_ keys: ArraySlice<Int64>) async throws -> [RawItem] {
        try await RawPostgresContender.transaction(on: client, readOnly: true, logger: logger) { connection in
            var items: [RawItem] = []
            items.reserveCapacity(keys.count)
            for key in keys {
                let rows = try await run(
                    FindRawItem.sql, on: connection,
                    bindings: try FindRawItem(id: key).makeBindings(), data: [PostgresData(int64: key)])
                items += try rows.map(decodeItem)
            }
            return items
        }
    }

    func item(_ record: RawItem) -> BenchItem { RawPostgresContender.item(record) }

    func close() async {
        runTask.cancel()
        await runTask.value
    }

    /// The rows of `sql`, sent in this contender's style: with `bindings` as an unnamed
    /// statement, or with `data` (the same values) as a prepared query; only the one used is made.
    private func run(
        _ sql: String, on connection: PostgresConnection,
        bindings: @autoclosure () throws -> PostgresBindings, data: @autoclosure () -> [PostgresData]
    ) async throws -> [PostgresRow] {
        switch style {
        case .unnamed:
            var rows: [PostgresRow] = []
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: try bindings()), logger: logger) {
                rows.append(row)
            }
            return rows
        case .unnamedFuture:
            return try await connection.query(PostgresQuery(unsafeSQL: sql, binds: try bindings()), logger: logger).get().rows
        case .preparedQuery:
            return try await cache.query(sql, on: connection).execute(data()).get()
        }
    }

    /// The rows of a `PreparedQuery` say their columns are text (the statement's description)
    /// while the server sent them binary, as postgres-nio's Bind asked: their cells are decoded as binary.
    private func decodeItem(_ row: PostgresRow) throws -> RawItem {
        guard style == .preparedQuery else { return try RawItem(row) }
        let cells = row.makeRandomAccess()
        return RawItem(
            id: try binary(cells[0]), name: try binary(cells[1]), score: try binary(cells[2]),
            created: try binary(cells[3]), payload: try binary(cells[4]))
    }

    private func decodeID(_ row: PostgresRow) throws -> Int64 {
        style == .preparedQuery ? try binary(row.makeRandomAccess()[0]) : try row.decode(Int64.self)
    }

    private func binary<Value: PostgresDecodable>(_ cell: PostgresCell) throws -> Value {
        guard var bytes = cell.bytes else { throw BenchError("NULL in \(cell.columnName)") }
        return try Value(from: &bytes, type: cell.dataType, format: .binary, context: .default)
    }
}
