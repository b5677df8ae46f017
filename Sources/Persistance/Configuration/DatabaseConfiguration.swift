/// Everything needed to open one database file. (Contract stub: the configuration issue fills this in.)
public struct DatabaseConfiguration: Sendable {
    /// The absolute path of the database file, or `:memory:`.
    public var path: String
    /// Options for every connection.
    public var connectionOptions = Connection.Options()

    public init(path: String) {
        self.path = path
    }

    /// Whether this is an in-memory database.
    public var isInMemory: Bool { path == ":memory:" || path.isEmpty }

    /// Opens the writer connection: keys applied, WAL on for files, migrations run.
    public func openWriter() throws -> Connection {
        let connection = try Connection(path: path, options: connectionOptions)
        if !isInMemory {
            try connection.execute("PRAGMA journal_mode = WAL")
        }
        return connection
    }

    /// Opens a read-only reader connection (after the writer has opened the file).
    public func openReader() throws -> Connection {
        var options = connectionOptions
        options.mode = .readOnly
        return try Connection(path: path, options: options)
    }
}
