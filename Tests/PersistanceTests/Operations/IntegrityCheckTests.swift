import Foundation
import Testing

@testable import Persistance

@Suite struct IntegrityCheckTests {
    @Test(arguments: [IntegrityReport.Depth.quick, .full])
    func aSoundDatabaseIsOK(depth: IntegrityReport.Depth) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("sound.sqlite")
        try makeDatabaseFile(at: path, rows: 200)
        let db = try await Database.open(configuration: DatabaseConfiguration(path: path))
        #expect(try await db.checkIntegrity(depth) == .ok)
        try await db.close()
    }

    @Test func anIndexOutOfStepWithItsTableIsListedByTheFullCheckOnly() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("index.sqlite")
        try makeDatabaseFile(at: path, rows: 50)
        let conn = try Connection(path: path)
        defer { try? conn.close() }
        try conn.execute("CREATE INDEX t_body ON t(body)")
        // Declare the index over another column: its entries (bodies) no longer match the table's ids.
        try conn.execute("PRAGMA writable_schema = ON")
        try conn.execute("UPDATE sqlite_master SET sql = 'CREATE INDEX t_body ON t(id)' WHERE name = 't_body'")
        try conn.execute("PRAGMA writable_schema = OFF")
        let reopened = try Connection(path: path)
        defer { try? reopened.close() }
        #expect(try reopened.checkIntegrity(.quick) == .ok)
        let report = try reopened.checkIntegrity(.full)
        guard case .problems(let problems) = report else {
            Issue.record("expected problems, got \(report)")
            return
        }
        #expect(!problems.isEmpty)
        #expect(!report.isOK)
    }

    @Test func anOverwrittenPageIsReportedNotThrown() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("overwritten.sqlite")
        try makeDatabaseFile(at: path, rows: 500)
        var bytes = try fileBytes(path)
        let pageSize = 4096
        try #require(bytes.count > pageSize * 10)
        for offset in 4 * pageSize..<5 * pageSize {  // page 5: a leaf of table t
            bytes[offset] = UInt8(truncatingIfNeeded: offset &* 167 ^ 0xA5)
        }
        try bytes.write(to: URL(fileURLWithPath: path))

        let db = try await Database.open(configuration: DatabaseConfiguration(path: path))
        for depth in [IntegrityReport.Depth.quick, .full] {
            let report = try await db.checkIntegrity(depth)
            guard case .problems(let problems) = report else {
                Issue.record("expected problems, got \(report)")
                continue
            }
            #expect(!problems.isEmpty)
        }
        try await db.close()
    }

    @Test func theListStopsAtTheMaximum() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("many.sqlite")
        try makeDatabaseFile(at: path, rows: 500)
        var bytes = try fileBytes(path)
        for offset in 4 * 4096..<12 * 4096 { bytes[offset] = 0xFF }
        try bytes.write(to: URL(fileURLWithPath: path))
        let conn = try Connection(path: path)
        defer { try? conn.close() }
        let report = try conn.checkIntegrity(.full, maximumProblems: 1)
        #expect(report.problemsOrEmpty.count == 1)
        #expect(throws: DatabaseError.self) { try conn.checkIntegrity(maximumProblems: 0) }
    }
}

extension IntegrityReport {
    /// The problems listed, or none when sound.
    fileprivate var problemsOrEmpty: [String] {
        if case .problems(let problems) = self { return problems }
        return []
    }
}
