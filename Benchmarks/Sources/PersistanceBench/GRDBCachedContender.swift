#if SystemSQLite
import GRDB

/// GRDB through its cached statements (`grdb-cached`): every operation reuses the
/// connection's prepared statement for its SQL (`Database.cachedStatement(sql:)`), binds
/// with `setUncheckedArguments` and reads rows by column index — GRDB's fastest documented
/// path, the counterpart of Persistance's and raw C's statement reuse.
struct GRDBCachedContender: GRDBContender {
    typealias Record = GRDBIndexedPlayer
    let name = "grdb-cached"
    let settings: ContenderSettings

    static func fetchAll(_ db: Database) throws -> [Record] {
        try Record.fetchAll(db.cachedStatement(sql: Schema.selectAll))
    }

    static func fetchCursor(_ db: Database) throws -> RecordCursor<Record> {
        try Record.fetchCursor(db.cachedStatement(sql: Schema.selectAll))
    }

    static func fetchOne(_ db: Database, id: Int64) throws -> Record? {
        let statement = try db.cachedStatement(sql: Schema.selectByID)
        statement.setUncheckedArguments([id])
        return try Record.fetchOne(statement)
    }

    static func query(_ db: Database, below threshold: Double) throws -> [Record] {
        let statement = try db.cachedStatement(sql: Schema.query)
        statement.setUncheckedArguments([threshold])
        return try Record.fetchAll(statement)
    }

    private static let insertPlayer = Schema.insert(into: Schema.table)
    private static let insertLog = Schema.insert(into: Schema.writerTable)

    static func insert(_ record: Record, into table: String, _ db: Database) throws {
        try write(record, sql: table == Schema.table ? insertPlayer : insertLog, db)
    }

    static func upsert(_ record: Record, _ db: Database) throws {
        try write(record, sql: Schema.upsert, db)
    }

    private static func write(_ record: Record, sql: String, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: sql)
        statement.setUncheckedArguments([record.id, record.name, record.score, record.age, record.payload])
        try statement.execute()
    }
}
#endif
