import Foundation

/// A database file and its executor: one writer connection whose writes run one at a time,
/// in submission order, and a pool of read-only reader connections whose reads run
/// concurrently with each other and with the write.
///
/// Every process has at most one `Database` per file: opening a file that is already open
/// returns the same instance (the registry matches files by device and inode, so relative
/// paths, symbolic and hard links find it too), and the first open's configuration applies.
/// An in-memory database has one connection that runs reads and writes one at a time.
///
/// ```swift
/// let db = try await Database.open(configuration: DatabaseConfiguration(path: path))
/// try await db.write { conn in
///     try conn.execute("INSERT INTO player(name) VALUES (?)", ["Ann"])
/// }
/// let count = try await db.read { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM player") }
/// ```
///
/// Blocks run on the database's own threads, never on the Swift concurrency cooperative
/// pool: `read` and `write` suspend the calling task until their block has run, and
/// `readSync` and `writeSync` block the calling thread. The connection handed to a block
/// is only valid inside it. The database closes with `close()`, or when the last reference
/// to it is released.
public final class Database: Sendable {
    /// The canonical path of the database file (`:memory:` for an in-memory database).
    public let path: String
    /// The configuration the database was opened with.
    public let configuration: DatabaseConfiguration
    /// The most reader connections the database opens (0 for an in-memory database, whose
    /// reads run on its single connection).
    public let maximumReaderCount: Int

    let executorID = ExecutorID.next()
    let writer: ConnectionPool
    /// Nil for an in-memory database: reads then run on the writer.
    let readers: ConnectionPool?
    /// Whether the writer connection opened; set once.
    let opening = OneShot<Result<Void, any Error>>()
    /// Whether the database is still accepting work.
    let isAccepting = Guarded(true)
    /// Set when every connection has closed, with the first failure to close one.
    let closing = OneShot<Result<Void, any Error>>()
    /// The database's key in the open-database registry; nil for an in-memory database, which is not registered.
    let registryKey: DatabaseRegistry.Key?
    /// Metrics and error logs of the blocks the database runs.
    let instrumentation: DatabaseInstrumentation
    /// Announces committed changes to observers; told after every write block.
    let changeTracker: ChangeTracker

    /// The default number of reader connections for this machine: one per active processor, at least 2.
    public static var defaultReaderCount: Int {
        max(2, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Opens the database described by `configuration`, or returns the instance already open
    /// for the same file, blocking the calling thread until its writer connection has opened.
    /// From async code, `try await Database.open(configuration:)` suspends instead.
    ///
    /// The synchronous variant has its own name, like `readSync` and `writeSync`: Swift
    /// resolves `try await Database.open(…)` in top-level code (`main.swift`) as if it were
    /// synchronous, so an overload of the same name would be chosen there and the `await`
    /// would warn.
    ///
    /// The writer connection opens first, with `configuration.openWriter()`, on the
    /// database's writer thread; then the first reader connection opens on its own thread,
    /// with `configuration.openReader()`, while the call returns; the other readers open
    /// when concurrent reads need them.
    /// - Parameters:
    ///   - configuration: the file, keys, migrator, logger and options of the database.
    ///   - readerCount: the most reader connections to open; by default
    ///     `defaultReaderCount`. Ignored for an in-memory database, and when the file is
    ///     already open.
    /// - Throws: the error that prevented the writer connection from opening; a misuse
    ///   error when `readerCount` is below 1; `reentrantAccess` when called from inside a
    ///   block of the same database while it is still opening.
    public static func openSync(configuration: DatabaseConfiguration, readerCount: Int? = nil) throws -> Database {
        let database = try registeredDatabase(configuration: configuration, readerCount: readerCount)
        if database.opening.current == nil, database.executorID.ownsCurrentThread {
            throw DatabaseError.reentrantAccess("opening", path: database.path)
        }
        try database.opening.wait().get()
        return database
    }

    /// Opens the database described by `configuration`, or returns the instance already open
    /// for the same file, suspending the calling task (rather than blocking its thread) while
    /// the writer connection opens, its encryption key is checked and its migrations run.
    ///
    /// The writer connection opens first, with `configuration.openWriter()`, on the
    /// database's writer thread; reader connections open later, with
    /// `configuration.openReader()`, when reads need them. Code that cannot await uses
    /// `openSync(configuration:readerCount:)`.
    /// - Parameters:
    ///   - configuration: the file, keys, migrator, logger and options of the database.
    ///   - readerCount: the most reader connections to open; by default
    ///     `defaultReaderCount`. Ignored for an in-memory database, and when the file is
    ///     already open.
    /// - Throws: the error that prevented the writer connection from opening; a misuse
    ///   error when `readerCount` is below 1.
    public static func open(configuration: DatabaseConfiguration, readerCount: Int? = nil) async throws -> Database {
        let database = try registeredDatabase(configuration: configuration, readerCount: readerCount)
        try await database.opening.value.get()
        return database
    }

    private static func registeredDatabase(configuration: DatabaseConfiguration, readerCount: Int?) throws -> Database {
        let readerCount = readerCount ?? defaultReaderCount
        guard readerCount >= 1 else {
            throw DatabaseError.misuse("a database needs at least 1 reader connection, \(readerCount) requested")
        }
        if configuration.isInMemory {
            return Database(configuration: configuration, path: ":memory:", readerCount: 0, registryKey: nil)
        }
        try configuration.checkBeforeCreatingFile()  // a failed open leaves no file behind
        return DatabaseRegistry.shared.database(
            atPath: configuration.path, createsFile: configuration.connectionOptions.mode == .readWriteCreate
        ) { key, path in
            Database(configuration: configuration, path: path, readerCount: readerCount, registryKey: key)
        }
    }

    /// Makes the executor and starts opening its writer connection, on the writer thread.
    private init(configuration: DatabaseConfiguration, path: String, readerCount: Int, registryKey: DatabaseRegistry.Key?) {
        self.path = path
        self.configuration = configuration
        self.maximumReaderCount = readerCount
        self.registryKey = registryKey
        instrumentation = DatabaseInstrumentation(configuration: configuration)
        let name = URL(fileURLWithPath: path).lastPathComponent
        // The file the writer opened (after any conversion replaced it); readers open only that one.
        let writerFile = Guarded<DatabaseFileIdentity?>(nil)
        writer = ConnectionPool(
            capacity: 1, opensOnDemand: false, threadName: "writer \(name)", executorID: executorID,
            spinWait: configuration.spinWait,
            openConnection: {
                let connection = try configuration.openWriter()
                writerFile.withLock { $0 = DatabaseFileIdentity(path: configuration.path) }
                return connection
            })
        readers = readerCount == 0 ? nil : ConnectionPool(
            capacity: readerCount, opensOnDemand: true, threadName: "reader \(name)", executorID: executorID,
            spinWait: configuration.spinWait,
            openConnection: { try Connection.openReader(configuration, ofFile: writerFile.withLock { $0 }) })
        changeTracker = ChangeTracker(writer: writer, pollsExternalChanges: readerCount != 0)
        let opening = self.opening
        let executorID = self.executorID
        let readers = self.readers
        writer.start { result in
            switch result {
            case .success:
                // The first reader opens now, off the caller's path: the first read then
                // finds it ready (with SQLCipher, its key already derived).
                readers?.start { _ in }
            case .failure:
                if let registryKey {
                    DatabaseRegistry.shared.remove(registryKey, executorID: executorID)
                }
            }
            opening.fulfill(result)
        }
    }

    deinit {
        beginClosing()
    }
}
