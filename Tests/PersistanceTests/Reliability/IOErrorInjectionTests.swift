import Foundation
import Testing

@testable import Persistance

/// I/O errors injected through the test VFS at each read, write, sync, lock, truncate,
/// file-size and access call in turn (sampled: every call of the first ones, then a fixed
/// stride), once or from that call on, during a write workload, an open and a re-key. Each
/// failure is a typed `DatabaseError` (never a crash or a hang); once the fault clears the
/// database works again, its file is sound and nothing acknowledged is lost. Each test prints
/// one summary line of its counts.
@Suite(.timeLimit(.minutes(3))) struct IOErrorInjectionTests {
    let fixture: PowerLossFixture
    init() throws { fixture = try PowerLossFixture() }

    private var path: String { fixture.path }
    private static var key: String? { PowerLossFixture.key }
    static let items: Int64 = 6

    /// The counts a test reports.
    struct Counts: CustomStringConvertible {
        var callsPerKind: [String: Int] = [:]
        var injections = 0, typedErrors = 0, otherErrors = 0, failedButPresent = 0
        var lostAcknowledged = 0, unsound = 0, reopened = 0
        var codes: Set<String> = []
        var description: String {
            "\(injections) injections (calls per kind \(callsPerKind.sorted { $0.key < $1.key })), "
                + "\(typedErrors) typed errors \(codes.sorted()), \(otherErrors) other errors, "
                + "\(lostAcknowledged) acknowledged lost, \(failedButPresent) failed commits found committed, "
                + "\(unsound) unsound files, \(reopened) connections reopened to recover"
        }

        /// Counts `error`: a `DatabaseError` (with its code) or another error, which is an issue.
        mutating func record(_ error: any Error, _ sourceLocation: SourceLocation = #_sourceLocation) {
            if let error = error as? DatabaseError {
                typedErrors += 1
                codes.insert(error.extendedResultCode.map { "\($0)" } ?? "\(error.kind)")
            } else {
                otherErrors += 1
                Issue.record("not a DatabaseError: \(error)", sourceLocation: sourceLocation)
            }
        }
    }

    /// Runs `trial` for every sampled call of each kind: the clean run of `measure` counts the
    /// calls, then each trial gets a fresh file, the kind, the call and whether the fault persists
    /// (on every other call).
    private func sweep(
        measure: () async throws -> Void,
        _ trial: (TestVFS.Kinds, Int, Bool, inout Counts) async throws -> Void
    ) async throws -> Counts {
        var counts = Counts()
        for kind in TestVFS.Kinds.each {
            try fixture.reset()
            fixture.vfs.resetCounts()
            try await measure()
            let calls = fixture.vfs.callCount(kind)
            counts.callsPerKind["\(kind)"] = calls
            for call in PowerLossSweep.cutPoints(total: calls, dense: 8, limit: 14) {
                try fixture.reset()
                try await trial(kind, call, call.isMultiple(of: 2), &counts)
                try fixture.vfs.forgetFiles()
                counts.injections += 1
            }
        }
        return counts
    }

    /// Opens `path` through the test VFS for the write workload: the configuration's writer
    /// (WAL, synchronous FULL), or a connection in rollback-journal mode.
    private func openWriter(journalMode: String) throws -> Connection {
        if journalMode == "WAL" { return try fixture.configuration(.full).openWriter() }
        let conn = try Connection(path: path, options: try fixture.toolOptions())
        try conn.execute("PRAGMA journal_mode = \(journalMode)")
        return conn
    }

    /// Commits items `1...items` on `conn`, reading the count back after each; acknowledges
    /// each commit that returned, records each failure.
    private func writeItems(on conn: Connection, acknowledged: inout [Int64], counts: inout Counts) {
        for id in 1...Self.items {
            do {
                try ItemLog.commit(id, on: conn)
                acknowledged.append(id)
                _ = try conn.fetchOne(Int.self, "SELECT count(*) FROM item")
            } catch {
                counts.record(error)
            }
        }
    }

    @Test(arguments: ["WAL", "DELETE"])
    func writeWorkloadGivesTypedErrorsAndLosesNothing(journalMode: String) async throws {
        try fixture.makeItemTemplate(journalMode: journalMode)
        let counts = try await sweep(
            measure: {
                let conn = try openWriter(journalMode: journalMode)
                fixture.vfs.resetCounts()
                var acknowledged: [Int64] = [], counts = Counts()
                writeItems(on: conn, acknowledged: &acknowledged, counts: &counts)
                try conn.close()
                #expect(acknowledged.count == Int(Self.items) && counts.typedErrors == 0)
            },
            { kind, call, persistent, counts in
                let conn = try openWriter(journalMode: journalMode)
                fixture.vfs.injectFault(kind, atCall: call, persistent: persistent)
                var acknowledged: [Int64] = []
                writeItems(on: conn, acknowledged: &acknowledged, counts: &counts)
                fixture.vfs.clearFault()
                // The fault cleared: the same connection commits again, or else a new one does.
                var recovery = conn
                do {
                    try ItemLog.commit(100, on: recovery)
                } catch {
                    try? recovery.close()
                    counts.reopened += 1
                    recovery = try openWriter(journalMode: journalMode)
                    try ItemLog.commit(100, on: recovery)
                }
                acknowledged.append(100)
                try recovery.close()
                try? conn.close()
                try checkItems(acknowledged: acknowledged, counts: &counts, "\(kind) call \(call)")
            })
        #expect(counts.otherErrors == 0 && counts.lostAcknowledged == 0 && counts.unsound == 0)
        print("I/O errors (write workload, \(journalMode)): \(counts)")
    }

    @Test func openGivesTypedErrorsAndLeavesTheFileWhole() async throws {
        try fixture.makeItemTemplate(items: Self.items)
        let counts = try await sweep(
            measure: { try fixture.configuration(.full).openWriter().close() },
            { kind, call, persistent, counts in
                fixture.vfs.injectFault(kind, atCall: call, persistent: persistent)
                do {
                    try fixture.configuration(.full).openWriter().close()
                } catch {
                    counts.record(error)
                }
                fixture.vfs.clearFault()
                let conn = try fixture.configuration(.full).openWriter()
                try ItemLog.commit(100, on: conn)
                try conn.close()
                try checkItems(acknowledged: Array(1...Self.items) + [100], counts: &counts, "\(kind) call \(call)")
            })
        #expect(counts.otherErrors == 0 && counts.lostAcknowledged == 0 && counts.unsound == 0)
        print("I/O errors (open): \(counts)")
    }

    @Test(.enabled(if: SQLiteEngine.isSQLCipher, "re-keying needs SQLCipher"))
    func rekeyGivesTypedErrorsAndLeavesOneKeyAndEveryRow() async throws {
        let keys = ["ioerr-key-old", "ioerr-key-new"]
        try fixture.makeItemTemplate(items: Self.items, keys: [keys[0]])
        var keyed: [String: Int] = [:]
        var result = try await sweep(
            measure: {
                let conn = try Connection(path: path, options: try fixture.toolOptions(key: keys[0]))
                fixture.vfs.resetCounts()
                try conn.changeEncryptionKey(to: keys[1])
                try conn.close()
            },
            { kind, call, persistent, counts in
                let conn = try Connection(path: path, options: try fixture.toolOptions(key: keys[0]))
                fixture.vfs.injectFault(kind, atCall: call, persistent: persistent)
                var changed = false
                do {
                    try conn.changeEncryptionKey(to: keys[1])
                    changed = true
                } catch {
                    counts.record(error)
                }
                fixture.vfs.clearFault()
                try? conn.close()
                guard let key = try fixture.keyOpening(keys) else {
                    counts.unsound += 1
                    return
                }
                keyed[key, default: 0] += 1
                #expect(!changed || key == keys[1], "\(kind) call \(call): the re-key returned, then was lost")
                let again = try Connection(path: path, options: try fixture.toolOptions(key: key))
                try ItemLog.commit(100, on: again)
                try again.close()
                try checkItems(key: key, acknowledged: Array(1...Self.items) + [100], counts: &counts, "\(kind) call \(call)")
            })
        result.codes.insert("keys \(keyed.sorted { $0.key < $1.key })")
        #expect(result.otherErrors == 0 && result.lostAcknowledged == 0 && result.unsound == 0)
        print("I/O errors (rekey): \(result)")
    }

    /// Checks the item log through the default VFS: the file is sound and holds every
    /// acknowledged item; counts failed commits that turn out committed.
    private func checkItems(key: String? = PowerLossFixture.key, acknowledged: [Int64], counts: inout Counts, _ trial: String) throws {
        let conn: Connection
        do {
            conn = try openSound(path, key: key)
        } catch {
            counts.unsound += 1
            Issue.record("\(trial): the file is not sound: \(error)")
            return
        }
        defer { try? conn.close() }
        let attempted = Set(1...Self.items)
        let missing = try ItemLog.missing(on: conn, acknowledged: acknowledged, unacknowledged: attempted)
        #expect(missing.isEmpty, "\(trial): acknowledged items lost: \(missing.sorted())")
        counts.lostAcknowledged += missing.count
        let present = Set(try conn.fetchAll(Int64.self, "SELECT id FROM item"))
        counts.failedButPresent += present.subtracting(acknowledged).count
    }
}
