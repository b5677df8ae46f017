#if PostgreSQL
import Foundation
import Persistance
import PersistancePostgres
import Synchronization
import Testing

/// The tables the database's committed transactions found: a transaction starts with them and
/// looks up only the others, and runs again when one of them turns out dropped.
@Suite struct PostgresTablesFoundTests {
    struct Note: Record, Codable, Equatable {
        var id: Int64?
        var text: String
    }

    /// A declared table of notes, under a name of its own.
    private func notes() -> Table<Note> {
        Table<Note>(uniqueTableName("notes"), columns: [.integer("id", primaryKey: .autoincrement), .text("text")])
    }

    /// How many times a block ran.
    final class Runs: Sendable {
        private let value = Mutex(0)
        var count: Int { value.withLock { $0 } }
        func add() { value.withLock { $0 += 1 } }
    }

    /// `db.write` around `body`, counting the runs of the block in `runs`.
    private func write(
        _ db: PostgresDatabase, runs: Runs, _ body: (PostgresTransaction) async throws -> Void
    ) async throws {
        try await db.write { tx in
            runs.add()
            try await body(tx)
        }
    }

    /// Runs `body` with a database whose committed transactions found a table of notes (holding
    /// one note, "found"), then drops the table.
    private func withFoundTable(_ body: (PostgresDatabase, Table<Note>) async throws -> Void) async throws {
        let db = try await TestServer.open()
        let table = notes()
        try await db.write { tx in try await table.create(in: tx) }
        // This transaction finds the table; the database keeps it found once it commits.
        try await db.write { tx in try await table.insert(Note(text: "found"), in: tx) }
        let outcome: Result<Void, any Error>
        do {
            try await body(db, table)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try await drop(table, in: db)
        await db.close()
        try outcome.get()
    }

    private func drop(_ table: Table<Note>, in db: some AsyncDatabase) async throws {
        try await db.write { tx in try await tx.execute("DROP TABLE IF EXISTS \(tx.dialect.quotedIdentifier(table.name))", []) }
    }

    private func texts(of table: Table<Note>, in db: PostgresDatabase) async throws -> [String] {
        try await db.read { tx in try await table.findAll(in: tx).map(\.text) }
    }

    @Test func aTableAnotherInstanceDroppedIsCreatedAgainByTheNextWrite() async throws {
        try await withFoundTable { db, table in
            let other = try await TestServer.open()
            try await drop(table, in: other)
            await other.close()
            let runs = Runs()
            try await write(db, runs: runs) { tx in try await table.insert(Note(text: "after the drop"), in: tx) }
            // The first run took the table as found (no look-up) and failed; the second looked it
            // up and created it.
            #expect(runs.count == 2)
            #expect(try await texts(of: table, in: db) == ["after the drop"])
        }
    }

    @Test func aMissingTableInTheBlocksOwnSQLFailsAfterOneMoreRun() async throws {
        try await withFoundTable { db, table in
            let runs = Runs()
            let missing = uniqueTableName("missing")
            let error = await failure {
                try await write(db, runs: runs) { tx in
                    try await table.insert(Note(text: "rolled back"), in: tx)
                    try await tx.execute("INSERT INTO \(missing) VALUES (1)")
                }
            }
            let state = (error as? DatabaseError)?.sqlState
            #expect(state == "42P01")
            #expect(runs.count == 2)
            let remaining = try await texts(of: table, in: db)
            #expect(remaining == ["found"])
        }
    }

    @Test func aSchemaChangeMakesTheNextTransactionsLookAgain() async throws {
        try await withFoundTable { db, table in
            // Dropped through this database: nothing is taken as found after it.
            try await drop(table, in: db)
            let runs = Runs()
            try await write(db, runs: runs) { tx in try await table.insert(Note(text: "after the drop"), in: tx) }
            #expect(runs.count == 1)
            #expect(try await texts(of: table, in: db) == ["after the drop"])
        }
    }
}
#endif
