/// The databases open in this process, one per file, keyed by the file's canonical path.
///
/// Entries hold their database weakly: when every user has dropped a database it closes,
/// and its entry goes away. Closing a database removes its entry at once, so a later open
/// of the same file makes a new executor.
final class DatabaseRegistry: Sendable {
    /// The registry of the process.
    static let shared = DatabaseRegistry()

    private struct Entry: Sendable {
        let executorID: ExecutorID
        weak var database: Database?
    }

    private let entries = Guarded([String: Entry]())

    /// The open database for `key`, or the one `make` makes (and registers) if there is none.
    func database(for key: String, orMake make: () throws -> Database) rethrows -> Database {
        try entries.withLock { entries in
            if let database = entries[key]?.database {
                return database
            }
            let database = try make()
            entries[key] = Entry(executorID: database.executorID, database: database)
            return database
        }
    }

    /// The open database for `key`, if any.
    func database(for key: String) -> Database? {
        entries.withLock { $0[key]?.database }
    }

    /// Removes the entry for `key` if it belongs to the executor `executorID`.
    func remove(_ key: String, executorID: ExecutorID) {
        entries.withLock { entries in
            if entries[key]?.executorID == executorID {
                entries[key] = nil
            }
        }
    }
}
