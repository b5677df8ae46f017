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
}

extension DatabaseError {
    static func databaseClosed(_ path: String, queued: Bool = false) -> DatabaseError {
        let message = queued
            ? "the database \(path) was closed before this work started"
            : "the database \(path) is closed"
        return DatabaseError(kind: .databaseClosed, message: message)
    }

    static func reentrantAccess(_ operation: String, path: String) -> DatabaseError {
        DatabaseError(
            kind: .reentrantAccess,
            message: "\(operation) of \(path) requested from inside one of its own blocks, where it would deadlock; "
                + "use the block's connection instead")
    }
}
