extension DatabaseError.Kind {
    /// The database is closed: the work was submitted after `close()`, or was still
    /// queued when the database closed (it never started).
    public static let databaseClosed = DatabaseError.Kind(rawValue: "databaseClosed")
    /// A synchronous call (`readSync`, `writeSync`, `closeSync`, opening) was made from
    /// inside a read or write block of the same database, where waiting would deadlock.
    /// Use the connection the block was given instead.
    public static let reentrantAccess = DatabaseError.Kind(rawValue: "reentrantAccess")
    /// A connection lent to a read or write block was used outside that block (it escaped
    /// the closure, or was handed to another thread).
    public static let connectionEscaped = DatabaseError.Kind(rawValue: "connectionEscaped")
    /// The database file was deleted, renamed or replaced by another file while the database
    /// was open. A write transaction that finds it so before committing rolls back and
    /// throws this, rather than commit into a file nobody will open again; a reader that
    /// would open the file now at the path throws it too. Close the database and open the
    /// file again.
    public static let databaseFileMoved = DatabaseError.Kind(rawValue: "databaseFileMoved")
    /// A synchronous call (`readSync`, `writeSync`) made from inside a block of one database
    /// on another would wait forever: the other database is itself blocked, directly or
    /// through further databases, waiting for the caller's. The call throws instead of
    /// blocking; the block that made it decides what to do (rethrowing rolls a write back,
    /// which lets the other side go on).
    public static let deadlock = DatabaseError.Kind(rawValue: "deadlock")
}

extension DatabaseError {
    static func databaseClosed(_ path: String, queued: Bool = false) -> DatabaseError {
        let message = queued
            ? "the database \(path) was closed before this work started"
            : "the database \(path) is closed"
        return DatabaseError(kind: .databaseClosed, message: message)
    }

    static func deadlock(waiter: String, target: String) -> DatabaseError {
        DatabaseError(
            kind: .deadlock,
            message: "a synchronous call from a block on \"\(waiter)\" to \"\(target)\" would wait forever: "
                + "\"\(target)\" is waiting for \"\(waiter)\" (a cycle of synchronous calls between databases)")
    }

    static func reentrantAccess(_ operation: String, path: String) -> DatabaseError {
        DatabaseError(
            kind: .reentrantAccess,
            message: "\(operation) of \(path) requested from inside one of its own blocks, where it would deadlock; "
                + "use the block's connection instead")
    }
}
