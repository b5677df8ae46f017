import Foundation

#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// Collects the changes of the writer connection while observers are subscribed, from
/// SQLite's update, commit and rollback hooks, and holds them until the executor announces
/// them after the write block that made them.
///
/// Changes accumulate per transaction. A commit moves them to the batches awaiting
/// announcement; a rollback drops them; rolling back to a savepoint (through the library's
/// savepoint API or raw SQL: see `SavepointCommand`) drops the changes made since that
/// savepoint began, because SQLite's update hook has already reported them. It lives on the
/// writer's thread only.
final class ChangeRecorder {
    private var pending = CommittedChanges()
    /// The open savepoints, oldest first: each one's name (folded) and where `pending` stood
    /// when it began.
    private var savepointMarks: [(name: String, rows: Int, payloads: Int)] = []
    /// Committed transactions, oldest first, waiting to be announced.
    private var committed: [CommittedChanges] = []
    /// The tables read while `recordsReads` is on (lowercased).
    private(set) var tablesRead = Set<String>()
    private(set) var recordsReads = false
    /// The SQL of statements that ran and were finalized while reads were recorded, on
    /// engines whose reads are found in the bytecode (see `endRecordingReads(on:)`).
    private var finalizedWhileRecording: [String] = []
    /// Whether the commit hook ran and nothing happened since: a rollback now means that
    /// COMMIT failed (SQLite rolled back, or the executor did), so its batch is dropped.
    private var commitInFlight = false
    /// The last `PRAGMA data_version` seen, to notice other connections' commits.
    private var dataVersion: Int64?
    /// When a write block may next look for other connections' commits, on the monotonic
    /// clock in nanoseconds (see `ChangeTracker.writeDidEnd(on:)`).
    var nextExternalCheckAfterWrite: UInt64 = 0
    /// Told as a transaction commits, before other connections can see it.
    private let onCommit: () -> Void

    /// A recorder that calls `onCommit` as each transaction commits.
    init(onCommit: @escaping () -> Void = {}) {
        self.onCommit = onCommit
    }

    /// Installs the hooks on `connection` and makes this recorder its `changeRecorder`.
    func install(on connection: Connection) throws {
        let handle = try connection.sqliteHandle()
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(handle, changeRecorderUpdateHook, context)
        sqlite3_commit_hook(handle, changeRecorderCommitHook, context)
        sqlite3_rollback_hook(handle, changeRecorderRollbackHook, context)
        // Returning SQLITE_IGNORE for deletions turns SQLite's truncate optimisation off, so
        // `DELETE FROM t` reports every row. Setting an authorizer expires prepared statements:
        // they are prepared again, under it, on their next use.
        sqlite3_set_authorizer(handle, changeRecorderAuthorizer, context)
        connection.changeRecorder = self
        dataVersion = try Self.dataVersion(of: connection)
    }

    /// Removes the hooks from `connection`.
    static func uninstall(from connection: Connection) throws {
        let handle = try connection.sqliteHandle()
        sqlite3_update_hook(handle, nil, nil)
        sqlite3_commit_hook(handle, nil, nil)
        sqlite3_rollback_hook(handle, nil, nil)
        sqlite3_set_authorizer(handle, nil, nil)
        connection.changeRecorder = nil
    }

    /// The recorder of the tables read on `connection`, a reader, installed there the first
    /// time (it records no changes: a reader makes none).
    static func readRecorder(of connection: Connection) -> ChangeRecorder {
        if let recorder = connection.changeRecorder { return recorder }
        let recorder = ChangeRecorder()
        connection.changeRecorder = recorder
        return recorder
    }

    // MARK: Transactions

    /// Attaches `payload` to the current transaction: announced with it if it commits,
    /// dropped if it (or the enclosing savepoint) rolls back.
    func attach(_ payload: any Sendable) {
        pending.payloads.append(payload)
    }

    /// Follows a savepoint statement that ran on the connection, the library's or raw SQL's,
    /// as SQLite does: names match the most recent open savepoint of that name.
    func follow(_ command: SavepointCommand) {
        switch command {
        case .open(let name):
            savepointMarks.append((name, pending.rows.count, pending.payloads.count))
        case .release(let name):
            guard let index = savepointMarks.lastIndex(where: { $0.name == name }) else { return }
            savepointMarks.removeSubrange(index...)
        case .rollback(let name):
            guard let index = savepointMarks.lastIndex(where: { $0.name == name }) else { return }
            let mark = savepointMarks[index]
            savepointMarks.removeSubrange((index + 1)...)
            // The whole transaction may already have rolled back (the rollback hook emptied it).
            if pending.rows.count > mark.rows { pending.rows.removeSubrange(mark.rows...) }
            if pending.payloads.count > mark.payloads { pending.payloads.removeSubrange(mark.payloads...) }
        }
    }

    fileprivate func rowChanged(_ change: RowChange) {
        commitInFlight = false
        pending.rows.append(change)
    }

    fileprivate func transactionCommits() {
        onCommit()
        commitInFlight = !pending.isEmpty
        if commitInFlight { committed.append(pending) }
        pending = CommittedChanges()
        savepointMarks.removeAll()
    }

    fileprivate func transactionRolledBack() {
        if commitInFlight { _ = committed.popLast() }
        commitInFlight = false
        pending = CommittedChanges()
        savepointMarks.removeAll()
    }

    /// Takes the committed batches, oldest first, for announcement. Called when a write
    /// block has ended: a COMMIT that failed has been rolled back by then.
    func takeCommitted() -> [CommittedChanges] {
        commitInFlight = false
        defer { committed.removeAll() }
        return committed
    }

    // MARK: Reads

    /// Starts recording the tables that statements prepared from now on read. Every
    /// prepared statement of the connection is expired, so it is prepared (and authorized)
    /// again when it next runs.
    func beginRecordingReads(on connection: Connection) throws {
        tablesRead.removeAll()
        finalizedWhileRecording.removeAll()
        recordsReads = true
        let handle = try connection.sqliteHandle()
        sqlite3_set_authorizer(handle, changeRecorderAuthorizer, Unmanaged.passUnretained(self).toOpaque())
        if !SQLiteEngine.reportsReadsWithoutColumns {
            forEachStatement(of: handle) { _ = sqlite3_stmt_status($0, SQLITE_STMTSTATUS_VM_STEP, 1) }
        }
    }

    /// Stops recording and returns the tables read since `beginRecordingReads(on:)`, or nil
    /// (unknown: every table counts) when none was found.
    ///
    /// Older engines (SQLite 3.15 in the SQLCipher build) report no read of a table none of
    /// whose columns is used (`count(*)`, `SELECT 1 FROM t`); there the statements that ran
    /// while recording (their step counters were reset at the start) are read back from
    /// their bytecode too.
    func endRecordingReads(on connection: Connection) -> Set<String>? {
        recordsReads = false
        defer {
            tablesRead.removeAll()
            finalizedWhileRecording.removeAll()
        }
        if !SQLiteEngine.reportsReadsWithoutColumns {
            guard let handle = try? connection.sqliteHandle() else { return nil }
            var ran = finalizedWhileRecording
            forEachStatement(of: handle) { statement in
                if sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 0) > 0, let sql = sqlite3_sql(statement) {
                    ran.append(String(cString: sql))
                }
            }
            guard let tables = BytecodeReads.tables(readBy: ran, on: connection) else { return nil }
            tablesRead.formUnion(tables)
        }
        return tablesRead.isEmpty ? nil : tablesRead
    }

    /// Keeps the SQL of a statement finalized while reads are recorded, if it ran: the
    /// bytecode check at the end of the recording no longer finds it among the connection's.
    func statementWillFinalize(_ statement: OpaquePointer) {
        guard recordsReads, !SQLiteEngine.reportsReadsWithoutColumns,
              sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_VM_STEP, 0) > 0, let sql = sqlite3_sql(statement)
        else { return }
        finalizedWhileRecording.append(String(cString: sql))
    }

    private func forEachStatement(of handle: OpaquePointer, _ body: (OpaquePointer) -> Void) {
        var statement = sqlite3_next_stmt(handle, nil)
        while let current = statement {
            body(current)
            statement = sqlite3_next_stmt(handle, current)
        }
    }

    fileprivate func authorize(action: Int32, first: UnsafePointer<CChar>?) -> Int32 {
        switch action {
        case SQLITE_READ where recordsReads:
            if let first { tablesRead.insert(String(cString: first).lowercased()) }
        case SQLITE_DELETE:
            // Not for SQLite's own tables, which it may clear with the optimisation itself.
            if let first, strncmp(first, "sqlite_", 7) != 0 { return SQLITE_IGNORE }
        default:
            break
        }
        return SQLITE_OK
    }

    // MARK: Other connections

    /// Whether another connection or process committed since the last check.
    func externalCommitHappened(on connection: Connection) throws -> Bool {
        let version = try Self.dataVersion(of: connection)
        defer { dataVersion = version }
        return dataVersion.map { $0 != version } ?? false
    }

    private static func dataVersion(of connection: Connection) throws -> Int64 {
        try connection.fetchOne(Int64.self, "PRAGMA data_version") ?? 0
    }
}

private func recorder(_ context: UnsafeMutableRawPointer?) -> ChangeRecorder? {
    context.map { Unmanaged<ChangeRecorder>.fromOpaque($0).takeUnretainedValue() }
}

private let changeRecorderUpdateHook: @convention(c) (
    UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, sqlite3_int64
) -> Void = { context, operation, _, table, rowID in
    guard let recorder = recorder(context), let table else { return }
    let kind: RowChange.Kind
    switch operation {
    case SQLITE_INSERT: kind = .insert
    case SQLITE_DELETE: kind = .delete
    default: kind = .update
    }
    recorder.rowChanged(RowChange(table: String(cString: table), kind: kind, rowID: rowID))
}

private let changeRecorderCommitHook: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
    recorder(context)?.transactionCommits()
    return 0
}

private let changeRecorderRollbackHook: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    recorder(context)?.transactionRolledBack()
}

private let changeRecorderAuthorizer: @convention(c) (
    UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
    UnsafePointer<CChar>?
) -> Int32 = { context, action, first, _, _, _ in
    recorder(context)?.authorize(action: action, first: first) ?? SQLITE_OK
}
