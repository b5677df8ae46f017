import Foundation
import Persistance
import PersistanceDAO

// Persistance's DAO (`PersistanceDAO`) on the `dao` workload: a module method that selects
// one row by primary key (`result="{}"`), called through the untyped API
// (`persistance-dao`: `dao.call("playerByID", ["id": …])`) and through a `@DAOInterface`
// protocol (`persistance-dao-typed`), against the same SQL run through the core's cached
// statements (`persistance-cached`: `db.read { conn.cachedStatement(sql) … Row(statement:) }`),
// the baseline of the DAO's target. A DAO call is one transaction (a select runs in a read
// transaction of its own, awaited), so every contender of this family runs one awaited
// `read` per lookup, and every one returns the row as a `Row`.

/// The module of the workload: one select by key.
let daoBenchModule = """
    <module name="Bench" tableName="\(Schema.table)">
      <select id="playerByID" arguments="$id" result="{}">SELECT id, name, score, age, payload FROM ${T} WHERE id = #{id}</select>
    </module>
    """

/// The SQL the module method renders (`${T}` as written, `#{id}` bound): what the baseline runs.
let daoBenchSQL = "SELECT id, name, score, age, payload FROM \(Schema.table) WHERE id = ?"

/// The typed interface of the module, implemented by the macro (`BenchPlayersDAO`).
@DAOInterface
protocol BenchPlayers {
    func playerByID(id: Int64) async throws -> Row?
}

struct PersistanceDAOContender: Contender {
    /// How a lookup reaches the database.
    enum Style {
        /// The baseline: the same SQL through `Connection.cachedStatement`, in `db.read`.
        case cachedStatement
        /// `DAO.call`, the untyped API.
        case call
        /// The `@DAOInterface`-generated method.
        case typed
    }

    let style: Style
    let settings: ContenderSettings

    var name: String {
        switch style {
        case .cachedStatement: "persistance-cached"
        case .call: "persistance-dao"
        case .typed: "persistance-dao-typed"
        }
    }

    func supports(_ workload: Workload) -> Bool { workload == .dao }

    func synchronous(path: String) throws -> Synchronous {
        let db = try Database.openSync(configuration: DatabaseConfiguration(path: path))
        defer { try? db.closeSync() }
        return try db.writeSync { conn in try Synchronous(readBack: conn.fetchOne(Int.self, "PRAGMA synchronous") ?? -1) }
    }

    func daoLookups(_ ids: [Int64], path: String) throws -> (Duration, Checksum) {
        let db = try Database.openSync(configuration: settings.persistanceConfiguration(path: path))
        defer { try? db.closeSync() }
        let dao = DAO(module: try DAOModule(xml: daoBenchModule), database: db)
        let players = BenchPlayersDAO(dao: dao)
        let lookUp: @Sendable (Int64) async throws -> Row? =
            switch style {
            case .cachedStatement: { id in try await db.read { conn in try Self.row(id, conn) } }
            case .call: { id in
                guard case .row(let row) = try await dao.call("playerByID", ["id": .integer(id)]) else {
                    throw BenchError("playerByID did not return a row result")
                }
                return row
            }
            case .typed: { id in try await players.playerByID(id: id) }
            }
        // Open the reader, prepare the statement and the DAO's table before the clock starts.
        _ = try runBlocking { try await lookUp(ids[0]) }
        let found = Locked<[Row]>([])
        let elapsed = try measure {
            try runBlocking {
                var rows: [Row] = []
                rows.reserveCapacity(ids.count)
                for id in ids {
                    if let row = try await lookUp(id) { rows.append(row) }
                }
                found.withLock { [rows] in $0 = rows }
            }
        }
        return (elapsed, Checksum(try found.value.map(BenchRow.init(row:))))
    }

    /// The baseline's lookup: the cached statement, bound, stepped once, reset.
    private static func row(_ id: Int64, _ conn: Connection) throws -> Row? {
        let statement = try conn.cachedStatement(daoBenchSQL)
        defer { statement.reset() }
        try statement.bind(.integer(id), at: 1)
        guard try statement.step() else { return nil }
        return Row(statement: statement)
    }
}

extension BenchRow {
    /// The row a lookup returned, columns in `Schema` order.
    init(row: Row) throws {
        guard row.count == 5, case .integer(let id) = row[0], case .text(let name) = row[1], case .real(let score) = row[2] else {
            throw BenchError("not a player row: \(row)")
        }
        let age: Int64?
        switch row[3] {
        case .integer(let value): age = value
        case .null: age = nil
        default: throw BenchError("not a player age: \(row[3])")
        }
        let payload: Data?
        switch row[4] {
        case .blob(let value): payload = value
        case .null: payload = nil
        default: throw BenchError("not a player payload: \(row[4])")
        }
        self.init(id: id, name: name, score: score, age: age, payload: payload)
    }
}

/// The DAO family of the contender registry: the baseline, then the DAO's two APIs.
func persistanceDAOContenders(_ settings: ContenderSettings) -> [any Contender] {
    [
        PersistanceDAOContender(style: .cachedStatement, settings: settings),
        PersistanceDAOContender(style: .call, settings: settings),
        PersistanceDAOContender(style: .typed, settings: settings),
    ]
}
