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

    @Test func aTableAnotherInstanceDroppedIsCreatedAgainByTheNextWrite() async throws {
        let db = try await TestServer.open()
        let table = notes()
        try await db.write { tx in try await table.insert(Note(text: "creates the table"), in: tx) }
        // This transaction finds the table; the database keeps it found once it commits.
        try await db.write { tx in try await table.insert(Note(text: "finds the table"), in: tx) }
        let other = try await TestServer.open()
        try await other.write { tx in try await tx.execute("DROP TABLE \(tx.dialect.quotedIdentifier(table.name))") }
        await other.close()
        let runs = Runs()
        try await write(db, runs: runs) { tx in try await table.insert(Note(text: "after the drop"), in: tx) }
        // The first run took the table as found (no look-up) and failed; the second looked it up
        // and created it.
        #expect(runs.count == 2)
        let texts = try await db.read { tx in try await table.findAll(in: tx).map(\.text) }
        #expect(texts == ["after the drop"])
        try await db.write { tx in try await tx.execute("DROP TABLE \(tx.dialect.quotedIdentifier(table.name))") }
        await db.close()
    }

    @Test func aMissingTableInTheBlocksOwnSQLFailsAfterOneMoreRun() async throws {
        let db = try await TestServer.open()
        let table = notes()
        try await db.write { tx in try await table.create(in: tx) }
        try await db.write { tx in try await table.insert(Note(text: "found"), in: tx) }
        let runs = Runs()
        let missing = uniqueTableName("missing")
        let error = await failure {
            try await write(db, runs: runs) { tx in
                try await table.insert(Note(text: "rolled back"), in: tx)
                try await tx.execute("INSERT INTO \(missing) VALUES (1)")
            }
        }
        #expect((error as? DatabaseError)?.sqlState == "42P01")
        #expect(runs.count == 2)
        let texts = try await db.read { tx in try await table.findAll(in: tx).map(\.text) }
        #expect(texts == ["found"])
        try await db.write { tx in try await tx.execute("DROP TABLE \(tx.dialect.quotedIdentifier(table.name))") }
        await db.close()
    }

    @Test func aSchemaChangeMakesTheNextTransactionsLookAgain() async throws {
        let db = try await TestServer.open()
        let table = notes()
        try await db.write { tx in try await table.insert(Note(text: "creates the table"), in: tx) }
        try await db.write { tx in try await table.insert(Note(text: "finds the table"), in: tx) }
        // Dropped through this database: nothing is taken as found after it.
        try await db.write { tx in try await tx.execute("DROP TABLE \(tx.dialect.quotedIdentifier(table.name))") }
        let runs = Runs()
        try await write(db, runs: runs) { tx in try await table.insert(Note(text: "after the drop"), in: tx) }
        #expect(runs.count == 1)
        let texts = try await db.read { tx in try await table.findAll(in: tx).map(\.text) }
        #expect(texts == ["after the drop"])
        try await db.write { tx in try await tx.execute("DROP TABLE \(tx.dialect.quotedIdentifier(table.name))") }
        await db.close()
    }
}
#endif
