/// The tables a transaction has found in the database: the portable table operations look a
/// table up (and create it when missing) once per transaction, not before every statement.
///
/// Only tables the catalog showed are noted, never one the operation just created, so a
/// creation that a savepoint later rolls back is looked up again. A table dropped later in
/// the same transaction is the engine's "no such table" error.
public final class TablesFound {
    private var names: Set<String> = []

    /// An empty record.
    public init() {}

    /// Whether the table `name` was found.
    func contains(_ name: String) -> Bool { names.contains(name) }

    /// Notes that the table `name` exists.
    func insert(_ name: String) { names.insert(name) }
}
