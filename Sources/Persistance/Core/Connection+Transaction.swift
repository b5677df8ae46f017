#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// How a top-level transaction takes its locks (`BEGIN DEFERRED | IMMEDIATE | EXCLUSIVE`).
public enum TransactionKind: String, Sendable {
    /// Locks are taken when the database is first read or written.
    case deferred = "DEFERRED"
    /// The write lock is taken at once.
    case immediate = "IMMEDIATE"
    /// The write lock is taken at once; in rollback-journal mode readers are kept out too.
    case exclusive = "EXCLUSIVE"
}

/// What a transaction body asks for when it returns.
public enum TransactionCompletion: Sendable {
    case commit
    case rollback
}

extension Connection {
    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool {
        guard let handle = try? sqliteHandle() else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// Runs `body` in a transaction: commits when it returns, rolls back when it throws
    /// (and rethrows). Inside another transaction it runs in a savepoint instead, so an
    /// inner failure undoes only the inner work and never ends the outer transaction.
    @discardableResult
    public func transaction<T>(_ kind: TransactionKind = .deferred, _ body: () throws -> T) throws -> T {
        try withTransaction(kind) { (try body(), .commit) }
    }

    /// Runs `body` in a transaction (or a savepoint, when nested) and commits or rolls back
    /// as it answers; rolls back when it throws.
    public func inTransaction(_ kind: TransactionKind = .deferred, _ body: () throws -> TransactionCompletion) throws {
        try withTransaction(kind) { ((), try body()) }
    }

    /// Runs `body` in a savepoint: released when it returns, rolled back when it throws.
    /// Works inside or outside a transaction.
    @discardableResult
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try withSavepoint { (try body(), .commit) }
    }

    private func withTransaction<T>(_ kind: TransactionKind, _ body: () throws -> (T, TransactionCompletion)) throws -> T {
        if isInTransaction {
            return try withSavepoint(body)
        }
        try run(TransactionStatements.Kind(beginning: kind))
        transactionSerial &+= 1
        defer { transactionSerial &+= 1 }
        let result: T
        let completion: TransactionCompletion
        do {
            (result, completion) = try body()
        } catch {
            rollbackIfActive { try run(.rollback) }
            throw error
        }
        switch completion {
        case .commit:
            do {
                try run(.commit)
            } catch {
                rollbackIfActive { try run(.rollback) }
                throw error
            }
        case .rollback:
            try run(.rollback)
        }
        return result
    }

    private func withSavepoint<T>(_ body: () throws -> (T, TransactionCompletion)) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "\"persistance_savepoint_\(savepointDepth)\""
        try execute("SAVEPOINT \(name)")
        let result: T
        let completion: TransactionCompletion
        do {
            (result, completion) = try body()
        } catch {
            rollbackToSavepoint(name)
            throw error
        }
        switch completion {
        case .commit:
            do {
                try execute("RELEASE SAVEPOINT \(name)")
            } catch {
                rollbackToSavepoint(name)
                throw error
            }
        case .rollback:
            try execute("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)")
        }
        return result
    }

    /// Rolls the savepoint `name` back after a failure (the change recorder follows it, so the
    /// changes made since the savepoint began are never announced).
    private func rollbackToSavepoint(_ name: String) {
        rollbackIfActive { try execute("ROLLBACK TO SAVEPOINT \(name); RELEASE SAVEPOINT \(name)") }
    }

    /// Rolls back after a failure. SQLite may already have rolled back by itself (a full
    /// disk, an interrupt); the original error is the one that matters, so this one is dropped.
    private func rollbackIfActive(_ rollback: () throws -> Void) {
        guard isInTransaction else { return }
        try? rollback()
    }

    /// Takes the read snapshot of the open deferred transaction now (a deferred transaction
    /// otherwise takes it at its first read), so the rest of the transaction sees the
    /// database as it is at this call.
    func takeSnapshot() throws {
        try run(.snapshot)
    }

    /// Runs one of the connection's kept transaction statements to its end.
    private func run(_ kind: TransactionStatements.Kind) throws {
        let statement = try transactionStatements.statement(kind, on: self)
        defer { statement.reset() }
        while try statement.step() {}
    }
}
