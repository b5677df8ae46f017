/// The tables a transaction has found in the database: the portable table operations look a
/// table up (and create it when missing) once per transaction, not before every statement.
/// An engine whose catalog is a round trip away may start a transaction with the tables the
/// database's committed transactions found (PostgreSQL does, and runs the transaction again
/// when one of them turns out dropped).
///
/// Only tables the catalog showed are noted, never one the operation just created, so a
/// creation that a savepoint later rolls back is looked up again. A table dropped later in
/// the same transaction is the engine's "no such table" error.
public final class TablesFound {
    /// The tables found.
    public private(set) var names: Set<String>

    /// A record of `names`, found before; empty by default.
    public init(_ names: Set<String> = []) {
        self.names = names
    }

    /// Whether the table `name` was found.
    func contains(_ name: String) -> Bool { names.contains(name) }

    /// Notes that the table `name` exists.
    func insert(_ name: String) { names.insert(name) }
}
