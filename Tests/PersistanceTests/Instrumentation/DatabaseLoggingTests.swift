import Foundation
import Logging
import Testing

@testable import Persistance

@Suite struct DatabaseLoggingTests {
    /// A configuration for a new file in `directory` that logs into `store` at `level`.
    private func configuration(
        _ directory: TemporaryDirectory, _ store: CapturingLogHandler.Store, level: Logger.Level
    ) -> DatabaseConfiguration {
        var configuration = DatabaseConfiguration(path: directory.url.appendingPathComponent("logged.sqlite").path)
        configuration.logger = CapturingLogHandler.logger(store, level: level)
        return configuration
    }

    @Test func anOpenLogsOneInfoLineAndLaterSchemaChangesAreInfo() async throws {
        let directory = try TemporaryDirectory()
        let store = CapturingLogHandler.Store()
        var configuration = configuration(directory, store, level: .debug)
        let path = configuration.path
        let plain = try Connection(path: path)
        try plain.execute("CREATE TABLE item(id INTEGER PRIMARY KEY)")
        try plain.close()
        configuration.migrator = Migrator(initialVersion: "1", steps: [
            MigrationStep("2") { try $0.execute("ALTER TABLE item ADD COLUMN name TEXT") }
        ])
        let db = try await Database.open(configuration: configuration)
        try await db.write { try $0.execute("CREATE INDEX item_name ON item(name)") }
        try await db.close()

        let info = store.entries(at: .info)
        #expect(info.map(\.message) == ["opened database", "schema statement"])
        let opened = try #require(info.first)
        #expect(opened.metadata["database"] == "logged.sqlite")
        #expect(opened.metadata["created"] == "false")
        #expect(opened.metadata["from_version"] == "1")
        #expect(opened.metadata["to_version"] == "2")
        #expect(Int(opened.metadata["schema_changes"] ?? "") ?? 0 >= 1)
        #expect(info.last?.metadata["sql"] == "CREATE INDEX item_name ON item(name)")
        let debug = store.entries(at: .debug).filter { $0.message == "schema statement" }.compactMap { $0.metadata["sql"] }
        #expect(debug.contains("ALTER TABLE item ADD COLUMN name TEXT"))
        #expect(store.entries(at: .trace).isEmpty)
    }

    @Test func schemaStatementsThatChangeNothingAreDebug() async throws {
        let directory = try TemporaryDirectory()
        var configuration = configuration(directory, CapturingLogHandler.Store(), level: .info)
        configuration.tables = [RecordFixtures.players]
        let created = try await Database.open(configuration: configuration)
        _ = try await created.collection("notes")
        try await created.close()

        let store = CapturingLogHandler.Store()
        configuration.logger = CapturingLogHandler.logger(store, level: .debug)
        let db = try await Database.open(configuration: configuration)
        for _ in 0..<3 { _ = try await db.collection("notes") }
        try await db.write { try $0.execute("CREATE TABLE IF NOT EXISTS player(a)") }
        try await db.close()

        let info = store.entries(at: .info)
        #expect(info.map(\.message) == ["opened database"])
        #expect(info.first?.metadata["created"] == "false")
        #expect(info.first?.metadata["schema_changes"] == "0")
        #expect(info.first?.metadata["from_version"] == nil)
        let debug = store.entries(at: .debug).filter { $0.message == "schema statement" }
        #expect(debug.filter { $0.metadata["sql"]?.contains("persistance_documents") == true }.count == 3)
        #expect(debug.contains { $0.metadata["sql"] == "CREATE TABLE IF NOT EXISTS player(a)" })
    }

    @Test func aNewFileIsLoggedAsCreatedInOneLine() async throws {
        let directory = try TemporaryDirectory()
        let store = CapturingLogHandler.Store()
        var configuration = configuration(directory, store, level: .info)
        configuration.tables = [RecordFixtures.players]
        configuration.migrator = Migrator(initialVersion: "1", steps: [MigrationStep("2") { _ in }])
        let db = try await Database.open(configuration: configuration)
        try await db.close()

        let info = store.entries(at: .info)
        #expect(info.map(\.message) == ["opened database"])
        #expect(info.first?.metadata["created"] == "true")
        #expect(info.first?.metadata["from_version"] == nil)
        #expect(Int(info.first?.metadata["schema_changes"] ?? "") ?? 0 >= 2)  // the table and its index
    }

    @Test func everyStatementIsTracedWithItsDurationAndWithoutValues() async throws {
        let directory = try TemporaryDirectory()
        let store = CapturingLogHandler.Store()
        let db = try await Database.open(configuration: configuration(directory, store, level: .trace))
        try await db.write { conn in
            try conn.execute("CREATE TABLE t(secret TEXT)")
            try conn.execute("INSERT INTO t VALUES (?)", ["hunter2"])
        }
        _ = try await db.read { try $0.fetchOne(String.self, "SELECT secret FROM t WHERE secret = ?", ["hunter2"]) }
        try await db.close()

        let traced = store.entries(at: .trace)
        let insert = try #require(traced.first { $0.metadata["sql"] == "INSERT INTO t VALUES (?)" })
        #expect(Double(insert.metadata["duration_ms"] ?? "") != nil)
        #expect(traced.contains { $0.metadata["sql"] == "SELECT secret FROM t WHERE secret = ?" })
        #expect(!store.entries.contains { $0.text.contains("hunter2") })
    }

    @Test func valuesAppearOnlyWhenAllowed() async throws {
        let directory = try TemporaryDirectory()
        let store = CapturingLogHandler.Store()
        var configuration = configuration(directory, store, level: .trace)
        configuration.logsStatementValues = true
        let db = try await Database.open(configuration: configuration)
        try await db.write { conn in
            try conn.execute("CREATE TABLE t(name TEXT)")
            try conn.execute("INSERT INTO t VALUES (?)", ["Ann"])
        }
        try await db.close()
        #expect(store.entries(at: .trace).contains { $0.metadata["sql"] == "INSERT INTO t VALUES ('Ann')" })
    }

    @Test func slowStatementsAreWarnings() async throws {
        let directory = try TemporaryDirectory()
        let store = CapturingLogHandler.Store()
        var configuration = configuration(directory, store, level: .warning)
        configuration.slowStatementThreshold = .zero  // every statement is slow
        let db = try await Database.open(configuration: configuration)
        try await db.write { try $0.execute("CREATE TABLE t(a)") }
        try await db.close()
        let warnings = store.entries(at: .warning)
        #expect(warnings.contains { $0.message == "slow statement" && $0.metadata["sql"] == "CREATE TABLE t(a)" })
        #expect(store.entries(at: .info).isEmpty)
    }

    @Test func noSlowStatementWarningWithoutThreshold() async throws {
        let directory = try TemporaryDirectory()
        let store = CapturingLogHandler.Store()
        var configuration = configuration(directory, store, level: .trace)
        configuration.slowStatementThreshold = nil
        let db = try await Database.open(configuration: configuration)
        try await db.write { try $0.execute("CREATE TABLE t(a)") }
        try await db.close()
        #expect(store.entries(at: .warning).isEmpty)
        #expect(!store.entries(at: .trace).isEmpty)
    }

    @Test func failuresAreLoggedAtErrorWithSQLiteCodes() async throws {
        let directory = try TemporaryDirectory()
        let store = CapturingLogHandler.Store()
        let db = try await Database.open(configuration: configuration(directory, store, level: .error))
        try await db.write { conn in
            try conn.execute("CREATE TABLE t(a UNIQUE)")
            try conn.execute("INSERT INTO t VALUES (1)")
        }
        await #expect(throws: DatabaseError.self) {
            try await db.write { try $0.execute("INSERT INTO t VALUES (?)", [1]) }
        }
        try await db.close()
        let failure = try #require(store.entries(at: .error).first)
        #expect(failure.message == "write failed")
        #expect(failure.metadata["sqlite_code"] == "\(ResultCode.constraint.rawValue)")
        #expect(failure.metadata["sqlite_extended_code"] == "\(ResultCode.constraintUnique.rawValue)")
        #expect(failure.metadata["sql"] == "INSERT INTO t VALUES (?)")
        #expect(failure.metadata["database"] == "logged.sqlite")
    }

    @Test func aFailedOpenIsLoggedAtError() throws {
        let directory = try TemporaryDirectory()
        let store = CapturingLogHandler.Store()
        let path = directory.url.appendingPathComponent("garbage.sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        var configuration = DatabaseConfiguration(path: path)
        configuration.logger = CapturingLogHandler.logger(store, level: .error)
        #expect(throws: DatabaseError.self) { try configuration.openWriter() }
        let failure = try #require(store.entries(at: .error).first)
        #expect(failure.message == "cannot open database")
        #expect(failure.metadata["sqlite_code"] == "\(ResultCode.notADatabase.rawValue)")
    }

    @Test func aSilentLoggerGetsNoStatementHook() throws {
        let directory = try TemporaryDirectory()
        let store = CapturingLogHandler.Store()
        let configuration = configuration(directory, store, level: .error)
        let conn = try configuration.openWriter()
        defer { try? conn.close() }
        #expect(conn.statementTracer == nil)
        try conn.execute("CREATE TABLE t(a)")
        #expect(store.entries.isEmpty)
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher, "needs the SQLCipher trait"))
    func keysNeverAppearInAnyLog() async throws {
        let directory = try TemporaryDirectory()
        let store = CapturingLogHandler.Store()
        let path = directory.url.appendingPathComponent("keys.sqlite").path
        let keys = ["first-K3y-ß", "second-K3y-密码", "third-K3y-!"]
        let plain = try Connection(path: path)
        try plain.execute("CREATE TABLE t(a TEXT)")
        try plain.close()

        func configuration(_ keys: [String]) -> DatabaseConfiguration {
            var configuration = DatabaseConfiguration(path: path)
            configuration.logger = CapturingLogHandler.logger(store, level: .trace)
            configuration.logsStatementValues = true
            configuration.slowStatementThreshold = .zero
            configuration.secretKeys = keys
            return configuration
        }
        var db = try await Database.open(configuration: configuration([keys[0]]))          // plaintext → encrypted
        try await db.close()
        db = try await Database.open(configuration: configuration([keys[0], keys[1]]))     // rotated to the second key
        try await db.write { try $0.execute("INSERT INTO t VALUES (?)", ["row"]) }
        _ = try await db.read { try $0.fetchAll("SELECT * FROM t") }
        try await db.close()
        let conn = try configuration([keys[1]]).openWriter()
        try conn.changeEncryptionKey(to: keys[2])                                         // through the C API
        try conn.exportPlaintext(to: directory.url.appendingPathComponent("plain.sqlite").path)  // ATTACH … KEY ?
        try conn.close()
        let wrongKey = configuration(["not-the-K3y"])
        #expect(throws: DatabaseError.self) { try wrongKey.openWriter() }

        let entries = store.entries
        #expect(entries.contains { $0.message == "encrypting plaintext database in place" })
        #expect(entries.contains { $0.message == "re-keying database to the newest key" })
        #expect(entries.contains { $0.metadata["sql"]?.contains("ATTACH") == true })
        for key in keys + ["not-the-K3y"] {
            #expect(!entries.contains { $0.text.contains(key) }, "a log entry shows the key \(key)")
        }
    }
}
