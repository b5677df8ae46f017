#if PostgreSQL
import Synchronization

/// The tables a database's committed transactions found (see `TablesFound`): each transaction
/// starts with them and looks up only the others, sparing a round trip per transaction.
///
/// A schema change through ``PostgresTransaction/execute(_:_:)`` (other than adding a table or
/// an index) forgets them all; so does a statement that finds no such table (42P01) in a
/// transaction that started with some, which the database then runs again (another instance
/// may have dropped one).
final class FoundTables: Sendable {
    private let names = Mutex<Set<String>>([])

    /// The tables found so far.
    var current: Set<String> {
        names.withLock { $0 }
    }

    /// Adds the tables a committed transaction found.
    func add(_ found: Set<String>) {
        names.withLock { $0.formUnion(found) }
    }

    /// Forgets every table.
    func removeAll() {
        names.withLock { $0.removeAll() }
    }
}
#endif
