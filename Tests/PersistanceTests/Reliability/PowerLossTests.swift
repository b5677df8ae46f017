import Foundation
import Testing

@testable import Persistance

/// What survives a power loss: each test runs an operation through the test VFS, cuts the
/// power at each sampled write or sync call, drops every write not synced (or tears the last
/// one), and checks the file through the default VFS: it opens, passes
/// `PRAGMA integrity_check`, and holds what it must. Under `SQLCipher` the files are encrypted.
/// Each test prints one summary line of its counts.
@Suite(.timeLimit(.minutes(3))) struct PowerLossTests {
    let fixture: PowerLossFixture
    init() throws { fixture = try PowerLossFixture() }

    /// Commits per run of the commit workloads.
    static let commits: Int64 = 10
    private var path: String { fixture.path }
    private static var key: String? { PowerLossFixture.key }

    @Test(arguments: ["WAL", "DELETE"])
    func commitsSurviveUnderFullSync(journalMode: String) async throws {
        try fixture.makeItemTemplate(journalMode: journalMode)
        let sweep = PowerLossSweep(
            vfs: fixture.vfs, reset: fixture.reset,
            workload: { log in
                let conn: Connection
                if journalMode == "WAL" {
                    conn = try fixture.configuration(.full).openWriter()
                } else {
                    conn = try Connection(path: path, options: try fixture.toolOptions())
                    try conn.execute("PRAGMA synchronous = FULL")
                }
                try commitItems(on: conn, log)
            },
            check: { log in
                let missing = try missingItems(log)
                #expect(missing.isEmpty, "acknowledged commits lost under synchronous = FULL: \(missing.sorted())")
                return missing.count
            })
        let counts = try await sweep.run()
        #expect(counts.lostAcknowledged == 0 && counts.unsound == 0)
        print("power loss (FULL, \(journalMode)): \(counts)")
    }

    @Test func walNormalLosesOnlyCommitsSinceTheLastSync() async throws {
        try fixture.makeItemTemplate()
        var maximumLost = 0, lostAfterASync = 0
        let sweep = PowerLossSweep(
            vfs: fixture.vfs, reset: fixture.reset,
            workload: { log in
                try commitItems(on: fixture.configuration(.normal).openWriter(), log)
            },
            check: { log in
                let missing = try missingItems(log)
                // A commit followed by a successful sync (a checkpoint syncs the WAL first) stays.
                let synced = log.vfs.successfulSyncs
                let covered = missing.filter { (log.syncsAtAcknowledgement[$0] ?? 0) < synced }
                #expect(covered.isEmpty, "commits lost though a sync followed them: \(covered.sorted())")
                // What is lost is the last commits, never one before a commit that stayed.
                let kept = Set(log.acknowledged).subtracting(missing)
                let lostLast = (missing.min() ?? .max) > (kept.max() ?? 0)
                #expect(lostLast, "a commit lost before one kept: lost \(missing.sorted())")
                maximumLost = max(maximumLost, missing.count)
                lostAfterASync += covered.count
                return missing.count
            })
        let counts = try await sweep.run()
        #expect(counts.unsound == 0 && lostAfterASync == 0)
        print("power loss (NORMAL, WAL): \(counts); at most \(maximumLost) of \(Self.commits) commits lost per cut, "
            + "all after the last sync (wal_autocheckpoint = 8 pages)")
    }

    /// Commits items 1 through `commits` on `conn`, checkpointing every 8 pages, acknowledging
    /// each; closes `conn`.
    private func commitItems(on conn: Connection, _ log: PowerLossSweep.Log) throws {
        defer { try? conn.close() }
        try conn.execute("PRAGMA wal_autocheckpoint = 8")
        for id in 1...Self.commits {
            try ItemLog.commit(id, on: conn)
            log.acknowledge(id)
        }
    }

    /// The acknowledged items missing from the sound file after a power loss.
    private func missingItems(_ log: PowerLossSweep.Log) throws -> Set<Int64> {
        let conn = try openSound(path, key: Self.key)
        defer { try? conn.close() }
        return try ItemLog.missing(on: conn, acknowledged: log.acknowledged)
    }
}
