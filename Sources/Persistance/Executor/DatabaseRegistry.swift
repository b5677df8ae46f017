/// The databases open in this process, one per file.
///
/// A file is identified by its device and inode numbers, so every path that reaches it
/// (symbolic links, hard links, `..`, a folder that did not exist at the first open) finds
/// the same database. A missing file is created, empty, under the registry's lock before
/// its database is made, so two opens of a new file through different paths can't both
/// make one. Only a file that can't be created (its open then fails) or that must already
/// exist is keyed by its canonical path.
///
/// Entries hold their database weakly: when every user has dropped a database it closes,
/// and its entry goes away. Closing a database removes its entry at once, so a later open
/// of the same file makes a new executor.
final class DatabaseRegistry: Sendable {
    /// The registry of the process.
    static let shared = DatabaseRegistry()

    /// What identifies a file in the registry.
    enum Key: Hashable, Sendable {
        /// A file that exists.
        case file(DatabaseFileIdentity)
        /// The canonical path of a file that does not exist.
        case path(String)

        /// The key of the file at `path`, creating the file first when `createsFile` is set.
        init(path: String, createsFile: Bool) {
            let identity = createsFile ? DatabaseFileIdentity.creatingFile(at: path) : DatabaseFileIdentity(path: path)
            self = identity.map(Key.file) ?? .path(DatabasePath.canonical(path))
        }
    }

    private struct Entry: Sendable {
        let executorID: ExecutorID
        weak var database: Database?
    }

    private let entries = Guarded([Key: Entry]())

    /// The open database of the file at `path`, or the one `make` makes (and registers) for
    /// the file's key and canonical path if there is none.
    /// - Parameter createsFile: whether a missing file is created (opens that may create the file).
    func database(
        atPath path: String, createsFile: Bool, orMake make: (_ key: Key, _ canonicalPath: String) throws -> Database
    ) rethrows -> Database {
        try entries.withLock { entries in
            let key = Key(path: path, createsFile: createsFile)
            if let database = entries[key]?.database, Self.isLive(database, for: key) {
                return database
            }
            let database = try make(key, DatabasePath.canonical(path))
            entries[key] = Entry(executorID: database.executorID, database: database)
            return database
        }
    }

    /// Whether `database` still serves the file `key` names: it accepts work, and its own path
    /// still leads to that file. A database that is closing, or whose file was deleted (its
    /// inode may since be reused by a new file), does not.
    private static func isLive(_ database: Database, for key: Key) -> Bool {
        database.isAccepting.withLock { $0 } && Key(path: database.path, createsFile: false) == key
    }

    /// The open database of the file at `path`, if any.
    func database(atPath path: String) -> Database? {
        entries.withLock { $0[Key(path: path, createsFile: false)]?.database }
    }

    /// Removes the entry for `key` if it belongs to the executor `executorID`.
    func remove(_ key: Key, executorID: ExecutorID) {
        entries.withLock { entries in
            if entries[key]?.executorID == executorID {
                entries[key] = nil
            }
        }
    }
}
