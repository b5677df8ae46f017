import Foundation
import Testing

@testable import Persistance

@Suite(.timeLimit(.minutes(3))) struct DatabaseEncryptionTests {
    @Test(.enabled(if: SQLiteEngine.isSQLCipher, "needs the SQLCipher trait"))
    func everyConnectionUsesTheKey() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("test.sqlite")
        let db = try await openTestDatabase(directory, readerCount: 2)
        try await db.write { conn in try conn.execute("INSERT INTO t(value) VALUES (1)") }
        // Two overlapping reads, so two keyed reader connections open.
        async let a = db.read { conn in try rowCount(conn) }
        async let b = db.read { conn in try rowCount(conn) }
        let counts = try await [a, b]
        #expect(counts == [1, 1])
        try await closeWithinTimeout(db)
        #expect { try Connection(path: path) } throws: { isDatabaseError($0, code: .notADatabase) }
    }
}
