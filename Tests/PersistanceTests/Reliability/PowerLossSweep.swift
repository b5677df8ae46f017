import Foundation
import Testing

@testable import Persistance

/// Runs a workload through a `TestVFS` once per sampled power-cut point and checks what the
/// files hold after each power loss.
///
/// A first run without a cut counts the workload's write and sync calls; then each sampled
/// call becomes the cut point of one run: the files are reset from their template, the
/// workload runs until the power goes, the power loss is applied (a torn last write on every
/// other cut point) and `check` looks at the files through the default VFS.
struct PowerLossSweep {
    /// What one run of the workload reported done: the ids it acknowledged, with the number of
    /// successful syncs at each acknowledgement, and any other progress mark.
    final class Log: @unchecked Sendable {
        var acknowledged: [Int64] = []
        var syncsAtAcknowledgement: [Int64: Int] = [:]
        /// Set by workloads whose one operation finished (a migration, a backup, a re-key).
        var finished = false
        let vfs: TestVFS
        init(vfs: TestVFS) { self.vfs = vfs }

        /// Records that `id` is acknowledged (its transaction committed).
        func acknowledge(_ id: Int64) {
            acknowledged.append(id)
            syncsAtAcknowledgement[id] = vfs.successfulSyncs
        }
    }

    /// The counts a sweep reports.
    struct Counts: CustomStringConvertible {
        var cutPoints = 0, torn = 0, operations = 0, acknowledged = 0, finished = 0, lostAcknowledged = 0, unsound = 0
        var description: String {
            "\(cutPoints) cut points (\(torn) torn) of \(operations) writes+syncs, \(acknowledged) commits acknowledged, "
                + "operation returned before the cut in \(finished), \(lostAcknowledged) acknowledged lost, \(unsound) unsound files"
        }
    }

    /// The cut points tried among `total` write and sync calls: every one of the first `dense`,
    /// then a fixed stride so that at most `limit` run, always including the last.
    static func cutPoints(total: Int, dense: Int = 20, limit: Int = 40) -> [Int] {
        guard total > dense else { return Array(stride(from: 1, through: total, by: 1)) }
        let stride = max(1, (total - dense + (limit - dense) - 1) / max(1, limit - dense))
        var points = Array(1...dense) + Array(Swift.stride(from: dense + stride, through: total, by: stride))
        if points.last != total { points.append(total) }
        return points
    }

    let vfs: TestVFS
    /// Puts the files back as the workload expects to find them (they are then taken as durable).
    let reset: () throws -> Void
    /// The workload: opens through `log.vfs`, acknowledges what it completes, closes every
    /// connection before it returns or throws.
    let workload: (Log) async throws -> Void
    /// Checks the files after one run (with the run's log); returns the number of
    /// acknowledged changes lost. Records issues for unsound files.
    let check: (Log) throws -> Int

    /// Runs the sweep; returns its counts. `dense` and `limit` choose the cut points.
    func run(dense: Int = 20, limit: Int = 40, _ sourceLocation: SourceLocation = #_sourceLocation) async throws -> Counts {
        try reset()
        vfs.markDurable()
        vfs.resetCounts()
        let clean = Log(vfs: vfs)
        try await workload(clean)
        let total = vfs.callCount([.write, .sync])
        #expect(try check(clean) == 0, "the run without a power cut lost acknowledged changes", sourceLocation: sourceLocation)
        try vfs.applyPowerLoss(torn: false)  // forgets the clean run's files

        var counts = Counts(operations: total)
        for (index, point) in Self.cutPoints(total: total, dense: dense, limit: limit).enumerated() {
            try reset()
            vfs.markDurable()
            vfs.resetCounts()
            vfs.schedulePowerCut(atCall: point)
            let log = Log(vfs: vfs)
            do {
                try await workload(log)
            } catch let error as DatabaseError {
                _ = error  // the power cut: every I/O call fails from there on
            } catch {
                Issue.record("cut point \(point): not a DatabaseError: \(error)", sourceLocation: sourceLocation)
            }
            let torn = index.isMultiple(of: 2)
            try vfs.applyPowerLoss(torn: torn)
            counts.cutPoints += 1
            counts.torn += torn ? 1 : 0
            counts.acknowledged += log.acknowledged.count
            counts.finished += log.finished ? 1 : 0
            do {
                counts.lostAcknowledged += try check(log)
            } catch {
                counts.unsound += 1
                Issue.record("cut point \(point)\(torn ? " (torn)" : ""): the file does not open: \(error)", sourceLocation: sourceLocation)
            }
        }
        return counts
    }
}

/// Copies the closed database file at `template` to `path`, removing what a previous run left
/// beside `path` (its journal, WAL and shared memory, backups' temporary files).
func resetDatabaseFile(from template: String, to path: String) throws {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
    let name = URL(fileURLWithPath: path).lastPathComponent
    for leftover in try FileManager.default.contentsOfDirectory(atPath: directory.path) where leftover.contains(name) {
        try FileManager.default.removeItem(at: directory.appendingPathComponent(leftover))
    }
    try FileManager.default.copyItem(atPath: template, toPath: path)
}

/// Opens the file at `path` through the default VFS, keyed with `key` when given, and
/// requires `PRAGMA integrity_check` to pass.
func openSound(_ path: String, key: String?, _ sourceLocation: SourceLocation = #_sourceLocation) throws -> Connection {
    var options = Connection.Options()
    options.mode = .readWrite
    if let key { options = try options.keyed(with: key) }
    let conn = try Connection(path: path, options: options)
    let integrity = try conn.fetchAll(String.self, "PRAGMA integrity_check")
    guard integrity == ["ok"] else {
        try? conn.close()
        throw DatabaseError(kind: .sqlite, extendedResultCode: .corrupt, message: "integrity_check: \(integrity)")
    }
    return conn
}

/// The item log the commit workloads write: each transaction inserts an item with its parts
/// and counts it in a tally, so a torn transaction shows.
enum ItemLog {
    static let schema = """
        CREATE TABLE item(id INTEGER PRIMARY KEY, parts INTEGER NOT NULL, bytes INTEGER NOT NULL);
        CREATE TABLE part(item INTEGER NOT NULL, body TEXT NOT NULL);
        CREATE TABLE tally(total INTEGER NOT NULL);
        INSERT INTO tally VALUES (0);
        """

    /// Commits item `id` (three parts of ~300 bytes) on `conn`.
    static func commit(_ id: Int64, on conn: Connection) throws {
        try conn.transaction(.immediate) {
            let body = String(repeating: "item \(id) ", count: 30)
            for _ in 1...3 {
                try conn.execute("INSERT INTO part(item, body) VALUES (?, ?)", [id, body])
            }
            try conn.execute("INSERT INTO item(id, parts, bytes) VALUES (?, 3, ?)", [id, 3 * body.utf8.count])
            try conn.execute("UPDATE tally SET total = total + 1")
        }
    }

    /// Checks the log on `conn`: no torn transaction, no item beyond those acknowledged but
    /// the ones `unacknowledged` (by default the one in flight), a matching tally. Returns the
    /// acknowledged ids missing.
    static func missing(
        on conn: Connection, acknowledged: [Int64], unacknowledged: Set<Int64>? = nil,
        _ sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Set<Int64> {
        let present = Set(try conn.fetchAll(Int64.self, "SELECT id FROM item"))
        let expected = Set(acknowledged)
        let inFlight = unacknowledged ?? [(acknowledged.max() ?? 0) + 1]
        #expect(present.subtracting(expected).isSubset(of: inFlight), "items never committed: \(present.subtracting(expected))",
            sourceLocation: sourceLocation)
        let torn = try conn.fetchOne(Int.self, """
            SELECT count(*) FROM item
            WHERE parts != (SELECT count(*) FROM part WHERE part.item = item.id)
               OR bytes != (SELECT coalesce(sum(length(body)), 0) FROM part WHERE part.item = item.id)
            """)
        #expect(torn == 0, "items whose parts are incomplete", sourceLocation: sourceLocation)
        #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM part WHERE item NOT IN (SELECT id FROM item)") == 0,
            sourceLocation: sourceLocation)
        #expect(try conn.fetchOne(Int.self, "SELECT total FROM tally") == present.count, sourceLocation: sourceLocation)
        return expected.subtracting(present)
    }
}

/// A database file and its template in a temporary directory of their own, with a test VFS:
/// what each power-loss test starts from.
struct PowerLossFixture {
    /// The key of the files: encrypted under the `SQLCipher` trait.
    static let key: String? = SQLiteEngine.isSQLCipher ? "power-loss-key" : nil
    static var keys: [String] { key.map { [$0] } ?? [] }

    let directory: TemporaryDirectory
    let vfs: TestVFS
    init() throws {
        directory = try TemporaryDirectory()
        vfs = try TestVFS()
    }

    var path: String { directory.path("db.sqlite") }
    var template: String { directory.path("template.sqlite") }

    /// Writes a closed template database at `template`, keyed with `keys`, in
    /// `journalMode`, running `body` on it.
    func makeTemplate(
        keys: [String] = Self.keys, journalMode: String = "WAL", _ body: (Connection) throws -> Void
    ) throws {
        var configuration = DatabaseConfiguration(path: template)
        configuration.secretKeys = keys
        let conn = try configuration.openWriter()
        try conn.execute("PRAGMA journal_mode = \(journalMode)")
        try body(conn)
        try conn.close()
    }

    /// A template holding the item log with items 1 through `items`.
    func makeItemTemplate(items: Int64 = 0, keys: [String] = Self.keys, journalMode: String = "WAL") throws {
        try makeTemplate(keys: keys, journalMode: journalMode) { conn in
            try conn.execute(ItemLog.schema)
            for id in Swift.stride(from: 1, through: items, by: 1) { try ItemLog.commit(id, on: conn) }
        }
    }

    /// Resets `path` from the template.
    func reset() throws {
        try resetDatabaseFile(from: template, to: path)
    }

    /// The configuration of `path` through the test VFS, with `keys`.
    func configuration(
        _ durability: DatabaseConfiguration.Durability = .full, keys: [String] = Self.keys
    ) -> DatabaseConfiguration {
        var configuration = vfs.configuring(DatabaseConfiguration(path: path))
        configuration.secretKeys = keys
        configuration.durability = durability
        return configuration
    }

    /// Options opening `path` through the test VFS the way the `persistance` tool does (read
    /// and write, keyed with `key`, nothing converted).
    func toolOptions(key: String? = Self.key) throws -> Connection.Options {
        var options = vfs.options
        options.mode = .readWrite
        return try key.map(options.keyed(with:)) ?? options
    }

    /// The key among `keys` that opens `path` soundly; nil (with an issue) when none or
    /// several do.
    func keyOpening(_ keys: [String]) throws -> String? {
        var opening: [String] = []
        for key in keys {
            do {
                try openSound(path, key: key).close()
                opening.append(key)
            } catch ResultCode.notADatabase {
                continue
            }
        }
        #expect(opening.count == 1, "keys that open the file: \(opening)")
        return opening.count == 1 ? opening[0] : nil
    }
}
