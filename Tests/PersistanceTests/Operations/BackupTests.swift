import Foundation
import Testing

@testable import Persistance

@Suite struct BackupTests {
    /// Runs the backup of `db` to `destination` and returns every progress report.
    private func backUp(_ db: Database, to destination: String, pagesPerStep: Int = 1024) async throws -> [BackupProgress] {
        var reports = [BackupProgress]()
        for try await progress in db.backup(to: destination, pagesPerStep: pagesPerStep) {
            reports.append(progress)
        }
        return reports
    }

    private func rowCount(_ path: String, options: Connection.Options = Connection.Options()) throws -> Int {
        let conn = try Connection(path: path, options: options)
        defer { try? conn.close() }
        #expect(try conn.checkIntegrity() == .ok)
        return try conn.fetchOne(Int.self, "SELECT count(*) FROM t") ?? -1
    }

    @Test func copiesInStepsReportingProgress() async throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.sqlite")
        try makeDatabaseFile(at: source, rows: 2_000)
        let db = try await Database.open(configuration: DatabaseConfiguration(path: source))
        let copy = directory.path("copy.sqlite")
        let reports = try await backUp(db, to: copy, pagesPerStep: 10)
        try await db.close()

        let last = try #require(reports.last)
        #expect(last.isComplete && last.fractionCompleted == 1)
        #expect(reports.count == (last.totalPages + 9) / 10)
        #expect(reports.map(\.copiedPages) == reports.map(\.copiedPages).sorted())
        #expect(try rowCount(copy) == 2_000)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func writesGoOnDuringABackupAndTheCopyIsItsStartingSnapshot() async throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("busy.sqlite")
        try makeDatabaseFile(at: source, rows: 2_000)
        let db = try await Database.open(configuration: DatabaseConfiguration(path: source))
        let copy = directory.path("copy.sqlite")
        var writesDuringBackup = 0
        for try await progress in db.backup(to: copy, pagesPerStep: 5) where !progress.isComplete {
            // Each write commits while the backup holds its read transaction: it neither waits nor restarts it.
            try await db.write { try $0.execute("INSERT INTO t(body) VALUES ('during')") }
            writesDuringBackup += 1
        }
        #expect(writesDuringBackup > 0)
        #expect(try await db.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM t") } == 2_000 + writesDuringBackup)
        try await db.close()
        #expect(try rowCount(copy) == 2_000)
    }

    @Test func replacesAnExistingDestination() async throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.sqlite")
        try makeDatabaseFile(at: source, rows: 10)
        let copy = directory.path("copy.sqlite")
        try makeDatabaseFile(at: copy, rows: 99)
        let db = try await Database.open(configuration: DatabaseConfiguration(path: source))
        _ = try await backUp(db, to: copy)
        try await db.close()
        #expect(try rowCount(copy) == 10)
    }

    @Test func anInMemoryDatabaseBacksUpToAFile() async throws {
        let directory = try TemporaryDirectory()
        let db = try await Database.open(configuration: DatabaseConfiguration(path: ":memory:"))
        try await db.write { conn in
            try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, body TEXT)")
            try conn.execute("INSERT INTO t(body) VALUES ('a'), ('b')")
        }
        let copy = directory.path("memory-copy.sqlite")
        _ = try await backUp(db, to: copy)
        try await db.close()
        #expect(try rowCount(copy) == 2)
    }

    @Test func badRequestsFailWithTypedErrorsAndLeaveNothing() async throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.sqlite")
        try makeDatabaseFile(at: source, rows: 10)
        let db = try await Database.open(configuration: DatabaseConfiguration(path: source))
        let ontoItself = { try await self.backUp(db, to: source) }
        await #expect { try await ontoItself() } throws: { isDatabaseError($0, .unsafeDestination) }
        let noStep = { try await self.backUp(db, to: directory.path("x.sqlite"), pagesPerStep: 0) }
        await #expect { try await noStep() } throws: { isDatabaseError($0, .misuse) }
        let missingDirectory = { try await self.backUp(db, to: directory.path("missing/x.sqlite")) }
        await #expect { try await missingDirectory() } throws: { isDatabaseError($0, code: .cantOpen) }
        try await db.close()
        let closed = { try await self.backUp(db, to: directory.path("y.sqlite")) }
        await #expect { try await closed() } throws: { isDatabaseError($0, .databaseClosed) }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(names.filter { !$0.hasPrefix("source.sqlite") }.isEmpty, "left behind: \(names)")
        #expect(try rowCount(source) == 10)
    }

    @Test func endingTheIterationEarlyCancelsAndLeavesNothing() async throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("source.sqlite")
        try makeDatabaseFile(at: source, rows: 2_000)
        let db = try await Database.open(configuration: DatabaseConfiguration(path: source))
        let copy = directory.path("copy.sqlite")
        for try await _ in db.backup(to: copy, pagesPerStep: 1) { break }
        try await db.close()
        // The backup thread notices the cancellation at its next step (it may have finished
        // already: the sequence buffers). Either way nothing partial is left behind.
        func temporaries() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).filter { $0.hasSuffix(".tmp") }
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while try !temporaries().isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try temporaries().isEmpty)
        if FileManager.default.fileExists(atPath: copy) {
            #expect(try rowCount(copy) == 2_000)
        }
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher, "needs the SQLCipher trait"))
    func anEncryptedDatabaseBacksUpEncryptedWithItsKey() async throws {
        let directory = try TemporaryDirectory()
        let source = directory.path("secret.sqlite")
        var configuration = DatabaseConfiguration(path: source)
        configuration.secretKeys = ["old-key", "backup-K3y"]
        let db = try await Database.open(configuration: configuration)
        try await db.write { conn in
            try conn.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, body TEXT)")
            for index in 0..<500 { try conn.execute("INSERT INTO t(body) VALUES (?)", ["row \(index)"]) }
        }
        let copy = directory.path("secret-copy.sqlite")
        _ = try await backUp(db, to: copy, pagesPerStep: 3)
        try await db.close()

        let keyed = Connection.Options.keyed("backup-K3y")
        #expect(try rowCount(copy, options: keyed) == 500)
        #expect(throws: DatabaseError.self) { try Connection(path: copy) }
        #expect(throws: DatabaseError.self) { try Connection(path: copy, options: .keyed("old-key")) }
        #expect(try !fileBytes(copy).starts(with: Array("SQLite format 3".utf8)))
    }
}

extension Connection.Options {
    /// Options that key a connection with `key` (SQLCipher builds).
    fileprivate static func keyed(_ key: String) -> Connection.Options {
        SecretKeys.options(Connection.Options(), keyedWith: key)
    }
}
