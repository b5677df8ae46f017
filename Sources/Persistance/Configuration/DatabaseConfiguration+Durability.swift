extension DatabaseConfiguration {
    /// What a committed transaction survives: SQLite's `synchronous` setting, applied to
    /// every connection of a file database (writer and readers) when it opens. File
    /// databases run in WAL mode, where both settings keep the file consistent after any
    /// crash; they differ in which crashes can lose the last commits.
    public enum Durability: Sendable {
        /// `synchronous = NORMAL`, the default. Every committed transaction survives a crash
        /// of the process (its commit is in the WAL file before `commit` returns); an
        /// operating-system crash or a power loss can lose the last transactions committed
        /// before it, never corrupt the file. Commits do not wait for the disk, so small
        /// write transactions are several times faster.
        case normal
        /// `synchronous = FULL`. Every committed transaction also survives an
        /// operating-system crash or a power loss: each commit waits until the WAL file is
        /// synced to the disk.
        case full

        /// The value of `PRAGMA synchronous` for this durability (NORMAL is 1, FULL is 2).
        var synchronousPragmaValue: Int {
            switch self {
            case .normal: 1
            case .full: 2
            }
        }

        /// Sets `connection`'s `synchronous` pragma to this durability.
        func apply(to connection: Connection) throws {
            try connection.execute("PRAGMA synchronous = \(synchronousPragmaValue)")
        }
    }
}
