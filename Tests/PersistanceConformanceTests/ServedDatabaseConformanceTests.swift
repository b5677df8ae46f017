import Foundation
import Persistance
import Synchronization
import Testing

#if PostgreSQL
import PersistancePostgres
#endif

/// A database that `Database.openPortable` opens on the server its configuration target
/// answers, the same on every engine: the server's database comes back, the target's migrator
/// runs once however many instances open it at once, its declared tables are created and later
/// reconciled, and a failed migration closes the database. The server is PostgreSQL's
/// (`PostgresConfiguration`) on the PostgreSQL backend and a stand-in serving SQLite files on
/// the SQLite one. `PortableOpenTests` tests the SQLite files opened without a server.
@Suite struct ServedDatabaseConformanceTests {
    @Test(arguments: ConformanceBackend.allCases)
    func openingsThatRaceMigrateOnce(_ backend: ConformanceBackend) async throws {
        try await backend.withServer { server, name in try await checkRacingOpens(backend, server, name) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func declaredTablesAreCreatedThenReconciled(_ backend: ConformanceBackend) async throws {
        try await backend.withServer { server, name in try await checkDeclaredTables(server, name) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func aBrandNewDatabaseIsStampedAndGetsItsTables(_ backend: ConformanceBackend) async throws {
        try await backend.withServer { server, name in try await checkBrandNew(server, name) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func aFailedMigrationClosesTheDatabase(_ backend: ConformanceBackend) async throws {
        for step in ServedFixtures.failingSteps {
            try await backend.withServer { server, name in try await checkFailedMigration(server, name, step) }
        }
    }
}

private func checkRacingOpens(_ backend: ConformanceBackend, _ server: RecordingServer, _ name: String) async throws {
    let registry = try ServedFixtures.registry(server, migrator: ServedFixtures.migrator)
    let databases = try await withThrowingTaskGroup(of: (any PortableDatabase).self) { group in
        for _ in 0..<4 {
            group.addTask { try await Database.openPortable(name, registry: registry) }
        }
        return try await group.reduce(into: [any PortableDatabase]()) { $0.append($1) }
    }
    #expect(server.requestedNames == Array(repeating: name, count: 4))
    for db in databases {
        #expect(backend.isOwnDatabase(db))
        // Every step ran once: the log has one row, whichever instance ran it.
        #expect(try await ServedFixtures.storedVersion(db) == "3")
        #expect(try await ServedFixtures.logCount(db) == 1)
    }
    for db in databases {
        try await db.close()
    }
}

private func checkDeclaredTables(_ server: RecordingServer, _ name: String) async throws {
    let registry = try ServedFixtures.registry(server, tables: [ServedFixtures.notes])
    let db = try await Database.openPortable(name, registry: registry)
    #expect(try await ServedFixtures.columns(of: "served_note", in: db) == ["id", "body"])
    // Without a migrator no version is stored, as on a SQLite file.
    #expect(try await ServedFixtures.columns(of: "persistance_schema_version", in: db) == nil)
    var note = ServedNote(body: "kept")
    try await db.write { tx in try await ServedFixtures.notes.insert(&note, in: tx) }
    try await db.close()

    try registry.register(ServedTarget(server: server, tables: [ServedFixtures.notesWithTitle]), as: ServedFixtures.targetName)
    let reconciled = try await Database.openPortable(name, registry: registry)
    #expect(try await ServedFixtures.columns(of: "served_note", in: reconciled) == ["id", "body", "title"])
    let bodies = try await reconciled.read { tx in
        try await tx.fetchAll("SELECT body FROM served_note", []).map { try $0.value(at: 0, as: String.self) }
    }
    #expect(bodies == ["kept"])
    try await reconciled.close()
}

private func checkBrandNew(_ server: RecordingServer, _ name: String) async throws {
    let registry = try ServedFixtures.registry(server, migrator: ServedFixtures.migrator, tables: [ServedFixtures.notes])
    let db = try await Database.openPortable(name, registry: registry)
    // None of the declared tables existed: stamped with the latest version, no step run, the tables created.
    #expect(try await ServedFixtures.storedVersion(db) == "3")
    #expect(try await ServedFixtures.columns(of: "migration_log", in: db) == nil)
    #expect(try await ServedFixtures.columns(of: "served_note", in: db) == ["id", "body"])
    try await db.close()
}

private func checkFailedMigration(_ server: RecordingServer, _ name: String, _ step: MigrationStep) async throws {
    let registry = try ServedFixtures.registry(server, migrator: Migrator(initialVersion: "1", steps: [step]))
    let error = await thrownError { try await Database.openPortable(name, registry: registry) }
    let databaseError = try #require(error as? DatabaseError)
    #expect(databaseError.kind == .migrationFailed)
    #expect(databaseError.message.hasPrefix("migrating \(name): "))
    let served = try #require(server.openedDatabases.last)
    let closed = await thrownError { try await ServedFixtures.storedVersion(served) }
    #expect((closed as? DatabaseError)?.kind == .databaseClosed)
}

/// A record of the declared table.
struct ServedNote: Record, Codable, Sendable {
    var id: Int64?
    var body: String
}

/// A target whose answers are set by the test.
struct ServedTarget: ConfigurationTarget {
    var server: any DatabaseServer
    var migrator: Migrator?
    var tables: [any DeclaredTable] = []

    func server(for database: String) -> (any DatabaseServer)? { server }
    func migrator(for database: String) -> Migrator? { migrator }
    func tables(for database: String) -> [any DeclaredTable] { tables }
}

enum ServedFixtures {
    /// The target's name; the test's database names start with it.
    static let targetName = "served"

    static let notes = Table<ServedNote>("served_note", columns: [
        .integer("id", primaryKey: .autoincrement), .text("body", notNull: true),
    ])

    /// `notes` with one more column, nullable, which reconciling adds.
    static let notesWithTitle = Table<ServedNote>("served_note", columns: [
        .integer("id", primaryKey: .autoincrement), .text("body", notNull: true), .text("title"),
    ], ignoresUnknownProperties: true)

    /// Steps made from SQL: a log table, then one row in it.
    static let migrator = Migrator(initialVersion: "1", steps: [
        MigrationStep("2", sql: ["CREATE TABLE migration_log (version TEXT NOT NULL)"]),
        MigrationStep("3", sql: ["INSERT INTO migration_log (version) VALUES ('3')"]),
    ])

    /// A step whose SQL fails, and a step that needs a `Connection` (SQLite's synchronous API).
    static let failingSteps = [
        MigrationStep("2", sql: ["NOT SQL AT ALL"]),
        MigrationStep("2", up: { conn in try conn.execute("CREATE TABLE t(v)") }),
    ]

    /// A registry of its own with the target `served` answering `server`.
    static func registry(
        _ server: RecordingServer, migrator: Migrator? = nil, tables: [any DeclaredTable] = []
    ) throws -> TargetRegistry {
        let registry = TargetRegistry()
        try registry.register(ServedTarget(server: server, migrator: migrator, tables: tables), as: targetName)
        return registry
    }

    static func storedVersion(_ db: some AsyncDatabase) async throws -> String? {
        try await db.read { tx in try await migrator.storedVersion(in: tx) }
    }

    static func logCount(_ db: some AsyncDatabase) async throws -> Int {
        try await db.read { tx in
            try await tx.fetchAll("SELECT count(*) FROM migration_log", [])[0].value(at: 0, as: Int.self)
        }
    }

    /// The columns of the table `name`, or nil when there is none.
    static func columns(of name: String, in db: some AsyncDatabase) async throws -> [String]? {
        try await db.read { tx in try await tx.tableCatalog(name)?.columns }
    }
}

/// A server that passes every request to the engine's server and keeps what it opened.
final class RecordingServer: DatabaseServer {
    private let base: any DatabaseServer
    private let opened = Mutex<[(name: String, database: any PortableDatabase)]>([])

    init(_ base: any DatabaseServer) { self.base = base }

    /// The names the server was asked for, in order.
    var requestedNames: [String] { opened.withLock { $0.map(\.name) } }
    /// The databases the server opened, in order.
    var openedDatabases: [any PortableDatabase] { opened.withLock { $0.map(\.database) } }

    func openDatabase(named name: String) async throws -> any PortableDatabase {
        let database = try await base.openDatabase(named: name)
        opened.withLock { $0.append((name, database)) }
        return database
    }
}

/// The SQLite backend's server: a directory of database files.
struct SQLiteFileServer: DatabaseServer {
    let directory: URL

    func openDatabase(named name: String) async throws -> any PortableDatabase {
        var configuration = DatabaseConfiguration(path: directory.appendingPathComponent(name).path)
        #if SQLCipher
        configuration.secretKeys = ["conformance-key"]
        #endif
        return try await Database.open(configuration: configuration)
    }
}

extension ConformanceBackend {
    /// Runs `body` with a server of this engine and the name of a database on it that no other
    /// test uses (`served_<random>`): on PostgreSQL the server is `PERSISTANCE_POSTGRES_URL`'s
    /// without its database, and the database is created for the test and dropped after it;
    /// on SQLite, a temporary directory of files.
    func withServer(_ body: (RecordingServer, String) async throws -> Void) async throws {
        let name = "\(ServedFixtures.targetName)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased())"
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("persistance-served-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            try await body(RecordingServer(SQLiteFileServer(directory: directory)), name)
        #if PostgreSQL
        case .postgres:
            let admin = try ConformancePostgres.adminConfiguration()
            try await ConformancePostgres.runAdministrative("CREATE DATABASE \"\(name)\"", on: admin)
            var server = admin
            server.database = nil
            let result = await Result { try await body(RecordingServer(server), name) }
            try await ConformancePostgres.runAdministrative("DROP DATABASE IF EXISTS \"\(name)\" WITH (FORCE)", on: admin)
            try result.get()
        #endif
        }
    }

    /// Whether `db` is this engine's own database type.
    func isOwnDatabase(_ db: any PortableDatabase) -> Bool {
        switch self {
        case .sqlite: db is Database
        #if PostgreSQL
        case .postgres: db is PersistancePostgres.PostgresDatabase
        #endif
        }
    }
}
