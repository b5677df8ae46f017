import Foundation
import Testing

@testable import Persistance

@Suite struct ConnectionTests {
    @Test func opensFileAndExecutes() throws {
        try withTemporaryConnection { conn, _ in
            try conn.execute("CREATE TABLE t(a INTEGER, b TEXT)")
            try conn.execute("INSERT INTO t VALUES (?, ?)", [1, "one"])
            #expect(conn.lastInsertRowID == 1)
            #expect(conn.changes == 1)
            try conn.execute("INSERT INTO t VALUES (2, 'two'); INSERT INTO t VALUES (3, 'three')")
            #expect(conn.totalChanges == 3)
            #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 3)
        }
    }

    @Test func inMemoryDatabasesArePrivate() throws {
        let first = try Connection.inMemory()
        let second = try Connection.inMemory()
        try first.execute("CREATE TABLE t(a)")
        #expect(try second.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master") == 0)
        #expect(try first.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master") == 1)
    }

    @Test func setsBusyTimeoutAndForeignKeys() throws {
        var options = Connection.Options()
        options.busyTimeout = .milliseconds(1500)
        try withTemporaryConnection(options: options) { conn, _ in
            #expect(try conn.fetchOne(Int.self, "PRAGMA busy_timeout") == 1500)
            #expect(try conn.fetchOne(Int.self, "PRAGMA foreign_keys") == 1)
            try conn.execute("CREATE TABLE parent(id INTEGER PRIMARY KEY)")
            try conn.execute("CREATE TABLE child(parent INTEGER REFERENCES parent(id))")
            #expect { try conn.execute("INSERT INTO child VALUES (42)") } throws: {
                isDatabaseError($0, code: .constraintForeignKey)
            }
        }
    }

    @Test func foreignKeysCanBeLeftOff() throws {
        var options = Connection.Options()
        options.foreignKeys = false
        let conn = try Connection.inMemory(options: options)
        #expect(try conn.fetchOne(Int.self, "PRAGMA foreign_keys") == 0)
    }

    @Test func openingInAMissingDirectoryFails() throws {
        let directory = try TemporaryDirectory()
        #expect { try Connection(path: directory.path("missing/sub/db.sqlite")) } throws: {
            isDatabaseError($0, code: .cantOpen)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path("missing")))
    }

    @Test func openingADirectoryFails() throws {
        let directory = try TemporaryDirectory()
        #expect { try Connection(path: directory.url.path) } throws: {
            isDatabaseError($0, .notARegularFile) && isDatabaseError($0, code: .cantOpen)
        }
    }

    @Test func openingAFileThatIsNotADatabaseFailsAndLeavesItAlone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("notes.sqlite")
        let bytes = Data(String(repeating: "these are not the pages you are looking for. ", count: 100).utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect { try Connection(path: path) } throws: { isDatabaseError($0, code: .notADatabase) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test func readOnlyModeRefusesWritesAndMissingFiles() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("ro.sqlite")
        var readOnly = Connection.Options()
        readOnly.mode = .readOnly
        #expect { try Connection(path: path, options: readOnly) } throws: { isDatabaseError($0, code: .cantOpen) }
        #expect(!FileManager.default.fileExists(atPath: path))

        try Connection(path: path).execute("CREATE TABLE t(a)")
        let conn = try Connection(path: path, options: readOnly)
        #expect { try conn.execute("INSERT INTO t VALUES (1)") } throws: { isDatabaseError($0, code: .readOnly) }
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 0)
    }

    @Test func readWriteModeDoesNotCreate() throws {
        let directory = try TemporaryDirectory()
        var options = Connection.Options()
        options.mode = .readWrite
        #expect { try Connection(path: directory.path("absent.sqlite"), options: options) } throws: {
            isDatabaseError($0, code: .cantOpen)
        }
    }

    @Test func closeFinalizesStatementsAndLaterUseThrows() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(a)")
        let statement = try conn.prepare("SELECT a FROM t")
        _ = try conn.cachedStatement("SELECT count(*) FROM t")
        try conn.close()
        #expect(conn.isClosed)
        try conn.close()  // closing twice is harmless
        #expect { try statement.step() } throws: { isDatabaseError($0, .misuse) }
        #expect { try conn.execute("SELECT 1") } throws: { isDatabaseError($0, .misuse) }
        #expect { try conn.fetchAll("SELECT 1") } throws: { isDatabaseError($0, .misuse) }
    }

    @Test func prepareTakesExactlyOneStatement() throws {
        let conn = try Connection.inMemory()
        #expect { try conn.prepare("SELECT 1; SELECT 2") } throws: { isDatabaseError($0, .misuse) }
        #expect { try conn.prepare("  -- only a comment") } throws: { isDatabaseError($0, .misuse) }
        #expect(try conn.prepare("SELECT 1;  ").columnCount == 1)
        #expect(try conn.prepare("SELECT 1; -- a note\n /* and a block */ ;").columnCount == 1)
        #expect(try conn.prepare("SELECT 1; /* unterminated, as SQLite allows").columnCount == 1)
        #expect { try conn.prepare("SELECT 1; -- note\n SELECT 2") } throws: { isDatabaseError($0, .misuse) }
        try conn.execute("CREATE TABLE t(a); -- trailing comment")
        try conn.execute("/* leading */ INSERT INTO t VALUES (1); /* between */ INSERT INTO t VALUES (2) -- end")
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM t") == 2)
    }

    @Test func syntaxErrorCarriesCodeMessageAndSQL() throws {
        let conn = try Connection.inMemory()
        do {
            try conn.execute("SELEC 1")
            Issue.record("expected a syntax error")
        } catch let error as DatabaseError {
            #expect(error.kind == .sqlite)
            #expect(error.resultCode == .error)
            #expect(error.message.contains("syntax error"))
            #expect(error.sql == "SELEC 1")
            #expect(error.description.contains("SELEC 1"))
        }
    }

    @Test func executeRunsSeveralStatementsWithArguments() throws {
        let conn = try Connection.inMemory()
        try conn.execute("CREATE TABLE t(a, b); CREATE TABLE u(c)")
        try conn.execute("INSERT INTO t VALUES (?, ?); INSERT INTO u VALUES (?)", [1, "x", 2])
        try conn.execute("INSERT INTO t VALUES (:a, :b); INSERT INTO u VALUES (:a)", ["a": 3, "b": "y"])
        #expect(try conn.fetchAll(Int.self, "SELECT a FROM t ORDER BY a") == [1, 3])
        #expect(try conn.fetchAll(Int.self, "SELECT c FROM u ORDER BY c") == [2, 3])
        #expect { try conn.execute("INSERT INTO u VALUES (?); INSERT INTO u VALUES (?)", [1]) } throws: {
            isDatabaseError($0, .invalidArguments)
        }
        #expect { try conn.execute("INSERT INTO u VALUES (?); SELECT 1", [7, 8]) } throws: {
            isDatabaseError($0, .invalidArguments)
        }
        #expect { try conn.execute("SELECT :a; SELECT :b", ["a": 1, "b": 2, "c": 3]) } throws: {
            isDatabaseError($0, .invalidArguments)
        }
    }

    @Test func interruptStopsALongQueryFromAnotherThread() async throws {
        let conn = try Connection.inMemory()
        let handle = conn.interruptHandle
        let interrupter = Task.detached {
            try await Task.sleep(for: .milliseconds(100))
            handle.interrupt()
        }
        let longQuery = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        #expect { try conn.fetchOne(Int.self, longQuery) } throws: { isDatabaseError($0, code: .interrupt) }
        try await interrupter.value
        // No sticky error state: the connection keeps working.
        #expect(try conn.fetchOne(Int.self, "SELECT 41 + 1") == 42)
    }

    @Test func interruptHandleOfAClosedConnectionDoesNothing() throws {
        let conn = try Connection.inMemory()
        let handle = conn.interruptHandle
        try conn.close()
        handle.interrupt()
    }

    @Test func nonASCIISQLAndText() throws {
        try withTemporaryConnection("données-数据.sqlite") { conn, _ in
            try conn.execute(#"CREATE TABLE "玩家" ("名字" TEXT, "émoji" TEXT)"#)
            try conn.execute(#"INSERT INTO "玩家" VALUES ('张三', '🎲'), (?, ?)"#, ["Zoë", "🇫🇷"])
            let rows = try conn.fetchAll(#"SELECT * FROM "玩家" ORDER BY rowid"#)
            let names = rows.map { $0["名字"] }
            #expect(names == [.text("张三"), .text("Zoë")])
            // Like SQLite, names compare case-insensitively for ASCII letters only.
            #expect(try rows[1].value(named: "éMOJI", as: String.self) == "🇫🇷")
            #expect { try rows[1].value(named: "ÉMOJI", as: String.self) } throws: { isDatabaseError($0, .columnNotFound) }
            #expect(try rows[1].value(named: "émoji", as: String.self) == "🇫🇷")
        }
    }

    @Test func engineReportsVersionAndFeatures() {
        #expect(SQLiteEngine.version.hasPrefix("3."))
        #expect(SQLiteEngine.versionNumber > 3_015_000)
        #expect(SQLiteEngine.supportsUpsert == (SQLiteEngine.versionNumber >= 3_024_000))
        if SQLiteEngine.isSQLCipher {
            #expect(SQLiteEngine.sqlcipherVersion != nil)
        } else {
            #expect(SQLiteEngine.sqlcipherVersion == nil)
            #expect(SQLiteEngine.supportsJSON)
        }
    }
}
