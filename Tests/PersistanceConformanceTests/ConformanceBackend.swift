import Foundation
import Persistance
import PersistancePostgres
import Testing

#if PostgreSQL
import Logging
import PostgresNIO
#endif

/// The conformance harness: one set of behaviour tests, written against `some AsyncDatabase`,
/// run against every engine of the build.
///
/// - `sqlite`: always; a temporary database file (encrypted with a key under the `SQLCipher`
///   trait, which links SQLCipher instead of SQLite), deleted after the test.
/// - `postgres`: with the `PostgreSQL` trait; a fresh database `conf_<random>` created on the
///   server that `PERSISTANCE_POSTGRES_URL` names (`scripts/postgres-cluster.sh start` prints
///   one), dropped after the test. A missing or unreachable server FAILS the test: these tests
///   never skip.
///
/// How to write a conformance test (any file of this target):
///
/// ```swift
/// @Test(arguments: ConformanceBackend.allCases)
/// func insertsAndReads(_ backend: ConformanceBackend) async throws {
///     try await backend.withDatabase { db in try await checkInsertsAndReads(db) }
/// }
///
/// private func checkInsertsAndReads(_ db: some AsyncDatabase) async throws {
///     try await db.write { tx in
///         try await tx.execute(tx.createTableSQL("item", "name TEXT NOT NULL"), [])
///         try await tx.execute("INSERT INTO item(name) VALUES (\(tx.placeholder(1)))", ["a"])
///     }
///     let rows = try await db.read { tx in try await tx.fetchAll("SELECT name FROM item", []) }
///     #expect(rows.map { $0.values } == [["a"]])
/// }
/// ```
///
/// `withDatabase` hands the block an `any AsyncDatabase`; passing it to a function that takes
/// `some AsyncDatabase` opens it, so the check is generic code, exactly like an app's. Engine
/// differences the tests must allow for are rare and named: `backend.isSQLite`,
/// `backend.isPostgreSQL`. SQL differences go through the transaction's dialect
/// (`tx.placeholder(n)`, `tx.dialect.columnType(…)`, `tx.createTableSQL(…)`, `tx.quoted(…)`).
/// Helpers: `thrownError(of:)` returns the error an operation throws (recording an issue when
/// it does not); `uniqueName(_:)` makes a table name of its own.
enum ConformanceBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    #if PostgreSQL
    case postgres
    #endif

    var testDescription: String {
        switch self {
        case .sqlite:
            #if SQLCipher
            "SQLCipher"
            #else
            "SQLite"
            #endif
        #if PostgreSQL
        case .postgres: "PostgreSQL"
        #endif
        }
    }

    var isSQLite: Bool { self == .sqlite }

    var isPostgreSQL: Bool {
        #if PostgreSQL
        self == .postgres
        #else
        false
        #endif
    }

    /// Opens a new, empty database of this engine, runs `body` with it, then closes and
    /// deletes it (also when `body` throws).
    func withDatabase(_ body: (any AsyncDatabase) async throws -> Void) async throws {
        switch self {
        case .sqlite:
            try await Self.withSQLiteDatabase(body)
        #if PostgreSQL
        case .postgres:
            try await ConformancePostgres.withDatabase(body)
        #endif
        }
    }

    /// Like `withDatabase`, with the engine's own type: for checks that need it (closing it,
    /// opening a second handle). Most tests need `withDatabase` only.
    func withSQLite(_ body: (Database) async throws -> Void) async throws {
        try await Self.withSQLiteDatabase(body)
    }

    private static func withSQLiteDatabase(_ body: (Database) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("persistance-conformance-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = DatabaseConfiguration(path: directory.appendingPathComponent("conformance.sqlite").path)
        #if SQLCipher
        configuration.secretKeys = ["conformance-key"]
        #endif
        let db = try await Database.open(configuration: configuration)
        let result = await Result { try await body(db) }
        try await db.close()
        try result.get()
    }
}

#if PostgreSQL
/// The PostgreSQL side of the harness: a database per test, created and dropped through the
/// administrative URL (`PERSISTANCE_POSTGRES_URL`).
enum ConformancePostgres {
    /// The server URL; a missing one fails the test (never a skip).
    static func adminURL() throws -> String {
        try #require(
            ProcessInfo.processInfo.environment["PERSISTANCE_POSTGRES_URL"],
            "set PERSISTANCE_POSTGRES_URL (scripts/postgres-cluster.sh start prints one)")
    }

    static func adminConfiguration() throws -> PersistancePostgres.PostgresConfiguration {
        var configuration = try PersistancePostgres.PostgresConfiguration(url: adminURL())
        configuration.tls = .disable
        return configuration
    }

    static func withDatabase(_ body: (PersistancePostgres.PostgresDatabase) async throws -> Void) async throws {
        let admin = try adminConfiguration()
        let name = "conf_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased())"
        try await runAdministrative("CREATE DATABASE \"\(name)\"", on: admin)
        let result: Result<Void, any Error>
        do {
            var configuration = admin
            configuration.database = name
            let db = try await PersistancePostgres.PostgresDatabase.open(configuration: configuration)
            result = await Result { try await body(db) }
            await db.close()
        } catch {
            result = .failure(error)
        }
        // WITH (FORCE): a connection the test left behind must not keep the database alive.
        try await runAdministrative("DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)", on: admin)
        try result.get()
    }

    /// Runs a statement that cannot run inside a transaction (`CREATE DATABASE`) on a
    /// connection of its own.
    static func runAdministrative(_ sql: String, on admin: PersistancePostgres.PostgresConfiguration) async throws {
        let configuration = PostgresConnection.Configuration(
            host: admin.host, port: admin.port, username: admin.username, password: admin.password,
            database: admin.database, tls: .disable)
        let logger = Logger(label: "persistance.conformance")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        let result = await Result { try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger) }
        try? await connection.close()
        _ = try result.get()
    }
}
#endif

extension Result where Failure == any Error {
    /// The outcome of an asynchronous operation.
    init(_ operation: () async throws -> Success) async {
        do {
            self = .success(try await operation())
        } catch {
            self = .failure(error)
        }
    }
}

extension DatabaseTransaction {
    /// The `position`th placeholder (from 1) of this engine: `?1` on SQLite, `$1` on PostgreSQL.
    func placeholder(_ position: Int) -> String {
        dialect.numberedPlaceholder(position)
    }

    /// `identifier` quoted for this engine.
    func quoted(_ identifier: String) throws -> String {
        try dialect.quotedIdentifier(identifier)
    }

    /// `CREATE TABLE name (id <autoincrement integer key>, columns…)`: a table whose `id` the
    /// engine generates, in each engine's own spelling.
    func createTableSQL(_ name: String, _ columns: String...) -> String {
        let key = "id " + dialect.columnType(.integer, primaryKey: .autoincrement)
        return "CREATE TABLE \(name) (\(([key] + columns).joined(separator: ", ")))"
    }

    /// The integer column type of this engine (64-bit on every engine).
    var integerType: String { dialect.columnType(.integer, primaryKey: nil) }
}

/// The error `operation` throws, or nil (recorded as an issue) when it does not throw.
func thrownError<T>(
    of operation: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation
) async -> (any Error)? {
    do {
        _ = try await operation()
        Issue.record("expected an error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// A table name no other test uses.
func uniqueName(_ prefix: String = "t") -> String {
    "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
}
