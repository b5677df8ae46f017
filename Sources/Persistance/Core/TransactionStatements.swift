/// The statements that begin and end a connection's top-level transactions and take a read
/// snapshot, prepared on first use and kept by the connection outside its statement cache:
/// wrapping a block in a transaction hashes no SQL text.
struct TransactionStatements {
    /// One of the kept statements.
    enum Kind: Int, CaseIterable {
        case beginDeferred, beginImmediate, beginExclusive, commit, rollback
        /// Opens the schema table and reads no row: in a deferred transaction, it takes the
        /// read snapshot the transaction keeps until it ends, and it checks the schema cookie,
        /// so the connection reloads a schema another connection changed. (SQLite 3.15's
        /// `PRAGMA schema_version` skipped that check, and a later `PRAGMA table_info` then
        /// answered from the stale schema.) It also costs fewer instructions than the pragma.
        case snapshot

        var sql: String {
            switch self {
            case .beginDeferred: "BEGIN DEFERRED TRANSACTION"
            case .beginImmediate: "BEGIN IMMEDIATE TRANSACTION"
            case .beginExclusive: "BEGIN EXCLUSIVE TRANSACTION"
            case .commit: "COMMIT TRANSACTION"
            case .rollback: "ROLLBACK TRANSACTION"
            case .snapshot: "SELECT 1 FROM sqlite_master LIMIT 0"
            }
        }

        /// The statement that begins a transaction of `kind`.
        init(beginning kind: TransactionKind) {
            switch kind {
            case .deferred: self = .beginDeferred
            case .immediate: self = .beginImmediate
            case .exclusive: self = .beginExclusive
            }
        }
    }

    private var statements = [Statement?](repeating: nil, count: Kind.allCases.count)

    /// The statement of `kind`, prepared on `connection` on first use.
    mutating func statement(_ kind: Kind, on connection: Connection) throws -> Statement {
        if let statement = statements[kind.rawValue] { return statement }
        let statement = try connection.prepare(kind.sql)
        statements[kind.rawValue] = statement
        return statement
    }
}
