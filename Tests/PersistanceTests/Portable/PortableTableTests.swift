import Foundation
import Testing

@testable import Persistance

/// Runs `body` with a fresh SQLite database in its own temporary directory, through the
/// portable API. (The conformance target runs the same bodies on every engine.)
nonisolated(nonsending) func withPortableDatabase(_ body: nonisolated(nonsending) (Database) async throws -> Void) async throws {
    let directory = try TemporaryDirectory()
    let db = try await Database.open(configuration: DatabaseConfiguration(path: directory.path("portable.sqlite")))
    do {
        try await body(db)
    } catch {
        try? await db.close()
        throw error
    }
    try await db.close()
}

/// Tables, records and typed queries on `some DatabaseTransaction`.
@Suite struct PortableTableTests {
    @Test func insertGeneratesKeysAndKeepsExplicitOnes() async throws {
        try await withPortableDatabase { db in try await PortableChecks.generatedAndExplicitKeys(db) }
    }

    @Test func tableRecordsRoundTripEveryKindOfValue() async throws {
        try await withPortableDatabase { db in try await PortableChecks.tableRecordRoundTrip(db) }
    }

    @Test func codableRecordsRoundTripEveryKindOfValue() async throws {
        try await withPortableDatabase { db in try await PortableChecks.codableRecordRoundTrip(db) }
    }

    @Test func updateAndDelete() async throws {
        try await withPortableDatabase { db in try await PortableChecks.updateAndDelete(db) }
    }

    @Test func upsertByPrimaryAndUniqueKey() async throws {
        try await withPortableDatabase { db in try await PortableChecks.upserts(db) }
    }

    @Test func nullInANonOptionalPropertyNamesTheColumn() async throws {
        try await withPortableDatabase { db in try await PortableChecks.nullIntoNonOptional(db) }
    }

    @Test func aConstraintViolationLosesNothing() async throws {
        try await withPortableDatabase { db in try await PortableChecks.constraintViolation(db) }
    }

    @Test func forEachReadsTenThousandRows() async throws {
        try await withPortableDatabase { db in try await PortableChecks.forEachOverManyRows(db) }
    }

    @Test func typedQueries() async throws {
        try await withPortableDatabase { db in try await PortableChecks.typedQueries(db) }
    }

    @Test func schemaGainsAColumnAndAnIndex() async throws {
        try await withPortableDatabase { db in try await PortableChecks.schemaGainsColumnAndIndex(db) }
    }

    @Test func concurrentMigrationsApplyEachStepOnce() async throws {
        try await withPortableDatabase { db in try await PortableChecks.concurrentMigrations(db) }
    }

    @Test func upsertFallsBackToLookUpWithOneConflictTarget() async throws {
        try await withPortableDatabase { db in
            try await db.write { tx in try await PortableChecks.upsertFallback(OneConflictTargetTransaction(base: tx)) }
        }
    }

    @Test func aRecordThatCannotReadRowsSaysSo() async throws {
        try await withPortableDatabase { db in
            let kind = try await db.write { tx -> DatabaseError.Kind? in
                let table = Table<Opaque>("portable_opaque", columns: [.integer("id")])
                try await table.create(in: tx)
                try await tx.execute("INSERT INTO portable_opaque (id) VALUES (1)", [])
                do {
                    _ = try await table.findAll(in: tx)
                    return nil
                } catch let error as DatabaseError {
                    return error.kind
                }
            }
            #expect(kind == .decoding)
        }
    }
}

/// A record that is neither Codable nor `@Table`.
struct Opaque: Record {
    static func rowDecoder(for statement: Statement) throws -> RecordDecodingFunction<Opaque> {
        RecordDecodingFunction { _ in Opaque() }
    }
}

/// SQLite's transaction, with a dialect that takes one conflict target per upsert, as
/// PostgreSQL's: the upsert that falls back to the primary key then looks rows up.
struct OneConflictTargetTransaction: DatabaseTransaction {
    struct Dialect: SQLDialect {
        let base = SQLiteDialect()
        func appendQuotedIdentifier(_ identifier: String, to sql: inout [UInt8]) throws {
            try base.appendQuotedIdentifier(identifier, to: &sql)
        }
        func appendPlaceholder(_ position: Int, to sql: inout [UInt8]) { base.appendPlaceholder(position, to: &sql) }
        func literal(_ value: Bool) -> String { base.literal(value) }
        var requiresLimitWithOffset: Bool { true }
        var supportsReturning: Bool { base.supportsReturning }
        var supportsUpsert: Bool { base.supportsUpsert }
        var supportsSeveralConflictTargets: Bool { false }
        func numberedPlaceholder(_ position: Int) -> String { base.numberedPlaceholder(position) }
        func columnType(_ affinity: ColumnDefinition.Affinity, primaryKey: ColumnDefinition.PrimaryKey?) -> String {
            base.columnType(affinity, primaryKey: primaryKey)
        }
        func literal(_ value: DatabaseValue) -> String { base.literal(value) }
        var rowIDColumn: String { base.rowIDColumn }
    }

    let base: SQLiteTransaction
    var dialect: Dialect { Dialect() }

    nonisolated(nonsending) func execute(_ sql: String, _ arguments: [DatabaseValue]) async throws -> Int {
        try await base.execute(sql, arguments)
    }
    nonisolated(nonsending) func insert(_ sql: String, _ arguments: [DatabaseValue], returningKey keyColumn: String?) async throws -> Int64? {
        try await base.insert(sql, arguments, returningKey: keyColumn)
    }
    nonisolated(nonsending) func fetchAll(_ sql: String, _ arguments: [DatabaseValue]) async throws -> [Row] {
        try await base.fetchAll(sql, arguments)
    }
    nonisolated(nonsending) func forEachRow(
        _ sql: String, _ arguments: [DatabaseValue], _ body: nonisolated(nonsending) (Row) async throws -> Void
    ) async throws {
        try await base.forEachRow(sql, arguments, body)
    }
    nonisolated(nonsending) func savepoint<T>(
        _ body: nonisolated(nonsending) (OneConflictTargetTransaction) async throws -> T
    ) async throws -> T {
        try await base.savepoint { _ in try await body(self) }
    }
    nonisolated(nonsending) func tableCatalog(_ name: String) async throws -> TableCatalog? { try await base.tableCatalog(name) }
    nonisolated(nonsending) func serializeSchemaChanges() async throws { try await base.serializeSchemaChanges() }
}
