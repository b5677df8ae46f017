import Foundation
import Testing

@testable import Persistance

/// Tables, records, typed queries, schemas and migrations on `some DatabaseTransaction`,
/// the same test bodies (`PortableChecks`) on every engine.
@Suite struct RecordConformanceTests {
    @Test(arguments: ConformanceBackend.allCases)
    func insertGeneratesKeysAndKeepsExplicitOnes(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await PortableChecks.generatedAndExplicitKeys(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func tableRecordsRoundTripEveryKindOfValue(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await PortableChecks.tableRecordRoundTrip(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func codableRecordsRoundTripEveryKindOfValue(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await PortableChecks.codableRecordRoundTrip(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func updateAndDelete(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await PortableChecks.updateAndDelete(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func upsertByPrimaryAndUniqueKey(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await PortableChecks.upserts(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func nullInANonOptionalPropertyNamesTheColumn(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await PortableChecks.nullIntoNonOptional(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func aConstraintViolationLosesNothing(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await PortableChecks.constraintViolation(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func forEachReadsTenThousandRows(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await PortableChecks.forEachOverManyRows(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func typedQueries(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await PortableChecks.typedQueries(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func schemaGainsAColumnAndAnIndex(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await PortableChecks.schemaGainsColumnAndIndex(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func concurrentMigrationsApplyEachStepOnce(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await PortableChecks.concurrentMigrations(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func recordsReadTheDatesTheirRowsHold(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await PortableChecks.recordDatesAsRowsHoldThem(db) }
    }

    /// SQLite's transaction made to take one conflict target per statement, as PostgreSQL's.
    @Test func upsertFallsBackToLookUpWithOneConflictTarget() async throws {
        try await ConformanceBackend.sqlite.withSQLite { db in
            try await db.write { tx in try await PortableChecks.upsertFallback(OneConflictTargetTransaction(base: tx)) }
        }
    }

    @Test func aRecordThatCannotReadRowsSaysSo() async throws {
        try await ConformanceBackend.sqlite.withSQLite { db in
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
