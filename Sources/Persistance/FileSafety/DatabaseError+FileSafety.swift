extension DatabaseError.Kind {
    /// A copy of a database (a backup, a decrypted copy) was asked to be written onto the
    /// database itself, or onto its journal, write-ahead log or shared-memory file, through
    /// any path (relative, `..`, a symbolic or hard link): that would destroy the database.
    /// Nothing was written.
    public static let unsafeDestination = DatabaseError.Kind(rawValue: "unsafeDestination")
    /// The path names something other than a regular file: a FIFO, a socket, a device or a
    /// directory, which SQLite could block on forever or misread. Nothing was opened. Its
    /// result code is `SQLITE_CANTOPEN`.
    public static let notARegularFile = DatabaseError.Kind(rawValue: "notARegularFile")
}
