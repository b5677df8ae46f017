import Foundation
import Testing

@testable import Persistance

/// The test VFS's own model, which the power-loss and I/O-error suites rely on: a power loss
/// drops what was not synced and keeps what was, a torn write keeps part of itself, a cut
/// stops every later call, and an injected fault fails with its extended code, once or until
/// cleared.
@Suite struct TestVFSTests {
    let fixture: PowerLossFixture
    init() throws {
        fixture = try PowerLossFixture()
        try fixture.makeItemTemplate(items: 3, journalMode: "DELETE")
        try fixture.reset()
    }

    private var path: String { fixture.path }

    /// Commits item `id` through the test VFS with `PRAGMA synchronous = synchronous`.
    private func commit(_ id: Int64, synchronous: String) throws {
        let conn = try Connection(path: path, options: try fixture.toolOptions())
        try conn.execute("PRAGMA synchronous = \(synchronous)")
        try ItemLog.commit(id, on: conn)
        try conn.close()
    }

    @Test func aPowerLossDropsUnsyncedWritesAndKeepsSyncedOnes() throws {
        let before = try fileBytes(path)
        try commit(4, synchronous: "OFF")
        #expect(try fileBytes(path) != before)
        try fixture.vfs.applyPowerLoss(torn: false)
        #expect(try fileBytes(path) == before, "an unsynced commit survived the power loss")

        try commit(5, synchronous: "FULL")
        try fixture.vfs.applyPowerLoss(torn: false)
        let conn = try openSound(path, key: PowerLossFixture.key)
        #expect(try conn.fetchAll(Int64.self, "SELECT id FROM item ORDER BY id") == [1, 2, 3, 5])
        try conn.close()
    }

    @Test func aTornWriteKeepsPartOfTheLastUnsyncedWrite() throws {
        let before = try fileBytes(path)
        let conn = try Connection(path: path, options: try fixture.toolOptions())
        let pageSize = try #require(try conn.fetchOne(Int.self, "PRAGMA page_size"))
        try conn.execute("PRAGMA synchronous = OFF")
        // New pages at the end of the file: the last one written is the highest.
        try conn.execute("CREATE TABLE blob(b); INSERT INTO blob VALUES (randomblob(20000))")
        try conn.close()
        try fixture.vfs.applyPowerLoss(torn: true)
        let after = try fileBytes(path)
        // Every write undone, then the first 512 bytes of the last page written put back.
        #expect(after.prefix(before.count) == before)
        #expect(after.count > before.count && (after.count - 512) % pageSize == 0, "\(before.count) → \(after.count) bytes")
    }

    @Test func aPowerCutFailsTheCallAndEveryLaterOne() throws {
        let conn = try Connection(path: path, options: try fixture.toolOptions())
        fixture.vfs.schedulePowerCut(atCall: 1)
        #expect { try ItemLog.commit(4, on: conn) } throws: { isDatabaseError($0, code: .ioError) }
        #expect(fixture.vfs.powerIsCut)
        #expect { try conn.fetchAll(Int64.self, "SELECT id FROM item") } throws: { isDatabaseError($0, code: .ioError) }
        try? conn.close()
        try fixture.vfs.applyPowerLoss(torn: false)
        #expect(!fixture.vfs.powerIsCut)
        let reopened = try openSound(path, key: PowerLossFixture.key)
        #expect(try reopened.fetchAll(Int64.self, "SELECT id FROM item ORDER BY id") == [1, 2, 3])
        try reopened.close()
    }

    @Test func anInjectedFaultFailsWithItsCodeOnceOrUntilCleared() throws {
        let conn = try Connection(path: path, options: try fixture.toolOptions())
        defer { try? conn.close() }
        fixture.vfs.injectFault(.write, atCall: 1)
        #expect { try ItemLog.commit(4, on: conn) } throws: { isDatabaseError($0, code: ResultCode(rawValue: 778)) }
        #expect(fixture.vfs.faultsInjected == 1)
        try ItemLog.commit(5, on: conn)

        fixture.vfs.injectFault(.sync, atCall: 1, persistent: true)
        for id: Int64 in 6...7 {
            #expect { try ItemLog.commit(id, on: conn) } throws: { isDatabaseError($0, code: ResultCode(rawValue: 1034)) }
        }
        #expect(fixture.vfs.faultsInjected >= 2)
        fixture.vfs.clearFault()
        try ItemLog.commit(8, on: conn)
        #expect(try conn.fetchAll(Int64.self, "SELECT id FROM item ORDER BY id") == [1, 2, 3, 5, 8])
    }
}
