import Foundation
import PersistanceMacros
import PersistancePostgres

// Persistance (`persistance`): an `@Table` record and the portable API on a `PostgresDatabase`
// pool of the same size as the others': `db.write` around `table.insert(&record, in:)` (the
// generated id set on the record), `db.read` around `table.findAll(in:)` and
// `table.find(primaryKey:in:)`. Its transactions are READ WRITE / READ ONLY, like raw's.

/// The Persistance contender's record.
@Table("bench_item")
struct PersistanceItem: Sendable {
    @Column(primaryKey: .plain) var id: Int64?
    var name: String
    var score: Double
    var created: Date
    var payload: Data
}

struct PersistanceContender: Contender {
    let name = "persistance"
    private let database: PostgresDatabase

    static func open(server: ServerAddress, connections: Int) async throws -> PersistanceContender {
        var configuration = try PostgresConfiguration(url: server.url)
        configuration.maximumConnections = connections
        return PersistanceContender(database: try await PostgresDatabase.open(configuration: configuration))
    }

    func records(_ items: [BenchItem]) -> [PersistanceItem] {
        items.map { PersistanceItem(id: nil, name: $0.name, score: $0.score, created: $0.created, payload: $0.payload) }
    }

    func insert(_ records: inout [PersistanceItem]) async throws {
        try await database.write { transaction in
            for index in records.indices {
                try await PersistanceItem.table.insert(&records[index], in: transaction)
            }
        }
    }

    func fetchAll() async throws -> [PersistanceItem] {
        try await database.read { transaction in
            try await PersistanceItem.table.findAll(in: transaction)
        }
    }

    func lookUp(_ keys: ArraySlice<Int64>) async throws -> [PersistanceItem] {
        try await database.read { transaction in
            var items: [PersistanceItem] = []
            items.reserveCapacity(keys.count)
            for key in keys {
                if let item = try await PersistanceItem.table.find(primaryKey: key, in: transaction) { items.append(item) }
            }
            return items
        }
    }

    func item(_ record: PersistanceItem) -> BenchItem {
        BenchItem(id: record.id ?? 0, name: record.name, score: record.score, created: record.created, payload: record.payload)
    }

    func close() async {
        await database.close()
    }
}
