import CoreMetrics
import Foundation
import Logging

/// Everything needed to open one database: its file, connection options, encryption keys,
/// migrator and declared tables.
///
/// Usually resolved from a database name and the targets of a ``TargetRegistry``:
///
/// ```swift
/// let configuration = try DatabaseConfiguration.resolve("game_main.sqlite")
/// let writer = try configuration.openWriter()    // keys applied, WAL on, migrated
/// ```
///
/// It can also be built by hand for a path, e.g. by tools.
public struct DatabaseConfiguration: Sendable {
    /// The database name it was resolved from (the file name when built from a path).
    /// Used in error messages.
    public var name: String
    /// The absolute path of the database file, or `:memory:` for an in-memory database.
    /// An empty path is a configuration error when the database opens.
    public var path: String
    /// Options for every connection.
    public var connectionOptions = Connection.Options()
    /// The encryption keys, oldest first and newest last; empty for a plaintext database.
    /// Needs the `SQLCipher` trait.
    public var secretKeys: [String] = []
    /// The migrator run when the writer opens, if any.
    public var migrator: Migrator?
    /// Where the database logs: each open in one line at `info` (created or opened, versions
    /// migrated, schema changes), key rotation, plaintext conversion and schema statements
    /// run later at `info` (those that change nothing, and those of the open, at `debug`);
    /// failures at `error` with SQLite's codes; statements slower than
    /// `slowStatementThreshold` at `warning`; every statement at `trace` with its duration.
    /// Keys are never logged. By default ``DatabaseConfiguration/defaultLogger``: silent unless the
    /// `PERSISTANCE_LOG_LEVEL` environment variable is set.
    public var logger = DatabaseConfiguration.defaultLogger
    /// Whether statements logged at `trace` and `warning` show their bound values. Off by
    /// default: the SQL is logged with its placeholders. Statements that could carry a key
    /// never show their values.
    public var logsStatementValues = false
    /// Statements that run at least this long are logged at `warning`; nil logs none.
    public var slowStatementThreshold: Duration? = .seconds(1)
    /// Where the database's metrics go (see the Operations article); nil uses the factory
    /// bootstrapped in `MetricsSystem`, and nothing is measured when none was.
    public var metricsFactory: (any MetricsFactory)?
    /// Receives a span for each read or write block and each statement it runs (the
    /// `PersistanceTracing` product provides one for swift-distributed-tracing); nil, the
    /// default, traces nothing and costs nothing.
    public var tracer: (any DatabaseTracer)?
    /// What a committed transaction survives, on a file database: `.normal` (the default)
    /// survives a crash of the process, `.full` also an operating-system crash or a power
    /// loss. Applied to every connection after `connectionOptions.prepare`.
    public var durability = Durability.normal
    /// The tables the database declares. When the writer opens, those missing are created
    /// with their indexes, declared columns the file lacks are added where SQLite can, and
    /// the file is checked against each declaration, together with the migrator's steps in
    /// one transaction; a difference that cannot be fixed safely fails the open with
    /// `.schemaMismatch` and leaves the file unchanged. Reads of a declared table on a new
    /// file find it empty rather than missing.
    public var tables: [any DeclaredTable] = []
    /// How long a thread of the executor that expects an event within microseconds polls for
    /// it before it sleeps: a caller whose block an awake, idle pool thread started at once
    /// (awaiting or synchronous), and a pool thread that has just finished a block and
    /// expects the next. Polling yields the processor between looks and ends after 64 looks
    /// or this long, whichever comes first. With it, a small block's value arrives without
    /// waking a sleeping thread or resuming a suspended task, each of which takes tens of
    /// microseconds on a busy or virtual machine. 50 µs by default, one second at most; `.zero`
    /// (or less) never polls: no processor time spent waiting, that much more per small call.
    ///
    /// Polling pays only while the awaited thread runs on another processor meanwhile, so it
    /// adapts: while the machine has more runnable threads than processors (the kernel's
    /// count in `/proc/loadavg`, read at most every 50 ms, the process's own polling threads
    /// left out) no thread polls, each sleeps at once and is woken, which the scheduler
    /// serves promptly where a polling thread would lose its time slice; and a caller stops
    /// polling after two polls in a row that saw nothing, trying again every sixteenth call.
    /// The longest limit, one second, polls whatever the load: for tools that run the code
    /// many times slower, such as valgrind counting instructions.
    public var spinWait: Duration = .microseconds(50)

    /// A configuration for the file at `path` (or `:memory:`, the only way to ask for an
    /// in-memory database), without keys or migrator.
    public init(path: String) {
        self.path = path
        self.name = path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The configuration of the database `name`, from the target it maps to in `registry`.
    ///
    /// The file is the target's answer to `filePath(for:)`, or `<directory>/<name>` where the
    /// directory is the registry's (``DatabaseDirectory/current`` unless set); the keys and
    /// migrator are the target's answers. A name with no registered target gets the defaults.
    /// Nothing is opened or created here.
    ///
    /// - Throws: `.configuration` when the name is invalid (see ``TargetRegistry``), the
    ///   path or directory is not absolute, or the target answers a server
    ///   (``ConfigurationTarget/server(for:)``: open it with
    ///   ``Database/openPortable(_:registry:readerCount:)``, not as a file).
    public static func resolve(_ name: String, registry: TargetRegistry = .shared) throws -> DatabaseConfiguration {
        let target = try registry.target(forDatabase: name)
        if target?.server(for: name) != nil {
            throw DatabaseError.configuration(
                "the target of \"\(name)\" answers a database server; open it with Database.openPortable(_:), "
                    + "which opens it there, rather than as a SQLite file")
        }
        let path: String
        if let answered = target?.filePath(for: name) {
            guard answered == ":memory:" || answered.hasPrefix("/"), !answered.utf8.contains(0) else {
                throw DatabaseError.configuration(
                    "the target of \"\(name)\" answered the path \"\(answered)\", which is not absolute")
            }
            path = answered
        } else {
            let directory = registry.directory
            guard directory.hasPrefix("/") else {
                throw DatabaseError.configuration(
                    "the default directory \"\(directory)\" is not absolute; set DatabaseDirectory.override "
                        + "or \(DatabaseDirectory.environmentVariable)")
            }
            path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        }
        var configuration = DatabaseConfiguration(path: path)
        configuration.name = name
        configuration.secretKeys = target?.secretKeys(for: name) ?? []
        configuration.migrator = target?.migrator(for: name)
        configuration.tables = target?.tables(for: name) ?? []
        return configuration
    }

    /// Whether this is an in-memory database (its path is `:memory:`).
    public var isInMemory: Bool { path == ":memory:" }

    /// Opens the writer connection: creates missing directories, applies the keys (creating,
    /// re-keying or encrypting the file as needed), turns WAL on and sets the durability for
    /// files, runs the migrator and brings the declared ``tables`` up to date. Open one writer
    /// per file.
    ///
    /// Without declared tables, each migration step commits on its own. With declared tables,
    /// the pending steps run first (on the file as it was), then missing tables, indexes and
    /// columns are added and the file is checked, all in one `IMMEDIATE` transaction: any
    /// failure leaves the file as it was before the open.
    ///
    /// - Throws: a `DatabaseError` whose message says which step failed: `.encryptionUnavailable`
    ///   (keys without SQLCipher), `.wrongKey`, `.migrationFailed`, `.unknownSchemaVersion`,
    ///   `.schemaMismatch`, `.invalidTable`, `.configuration`, `.fileSystem` or SQLite's own errors.
    public func openWriter() throws -> Connection {
        do {
            let (connection, changes) = try openWriterConnection()
            logger.info("opened database", metadata: changes.merging([
                "database": "\(name)", "path": "\(path)", "engine": "\(SQLiteEngine.version)",
                "encrypted": "\(!secretKeys.isEmpty)",
            ]) { $1 })
            return connection
        } catch let error as DatabaseError {
            logger.error("cannot open database", metadata: DatabaseInstrumentation.metadata(of: error)
                .merging(["database": "\(name)"]) { $1 })
            throw error
        }
    }

    /// Opens the writer, and returns it with what the open did, as log metadata: whether it
    /// created the database (the file had no page yet), the versions migrated from and to,
    /// and the number of schema statements that changed the schema (known when the logger
    /// logs at `info`).
    private func openWriterConnection() throws -> (Connection, Logger.Metadata) {
        try during("opening") { try checkPath() }
        let keys = try during("opening") { try SecretKeys(secretKeys) }
        if !isInMemory {
            try during("creating the directory of") { try createParentDirectory() }
        }
        let connection = try during("opening") {
            if let keys, !isInMemory {
                return try keys.openWriter(path: path, options: connectionOptions, logger: databaseLogger)
            }
            if !isInMemory { TemporaryDatabaseFile.removeLeftovers(besides: path) }  // of a killed backup to this path
            return try Connection(path: path, options: keyed(connectionOptions, keys))
        }
        var changes = Logger.Metadata()
        do {
            try StatementTracer.install(on: connection, for: self)
            connection.statementTracer?.isOpening = true
            defer { connection.statementTracer?.isOpening = false }
            let creates = try during("opening") { try connection.fetchOne(Int.self, "PRAGMA page_count") == 0 }
            changes["created"] = "\(creates)"
            let from = try during("migrating") { try migrator?.storedVersion(in: connection) }
            if !isInMemory {
                try during("turning on WAL for") { try enableWAL(connection) }
                try during("setting the durability of") { try durability.apply(to: connection) }
            }
            if !tables.isEmpty {
                try during("migrating") { try SchemaReconciler(tables: tables, migrator: migrator).run(connection) }
            } else if let migrator {
                try during("migrating") { try migrator.migrate(connection) }
            }
            if let migrator, !creates {
                let to = try migrator.storedVersion(in: connection)
                if to != from {
                    changes["from_version"] = "\(from ?? migrator.initialVersion)"
                    changes["to_version"] = "\(to ?? "")"
                }
            }
            if let tracer = connection.statementTracer, logger.logLevel <= .info {
                changes["schema_changes"] = "\(tracer.schemaChanges)"
            }
        } catch {
            try? connection.close()
            throw error
        }
        return (connection, changes)
    }

    /// The logger with this database's name in its metadata.
    var databaseLogger: Logger {
        var logger = logger
        logger[metadataKey: "database"] = "\(name)"
        return logger
    }

    /// Opens a read-only connection keyed with the newest key. It never migrates, so open the
    /// writer first.
    public func openReader() throws -> Connection {
        var options = connectionOptions
        options.mode = .readOnly
        return try during("opening a reader for") {
            try checkPath()
            let keys = try SecretKeys(secretKeys)
            do {
                let connection = try Connection(path: path, options: keyed(options, keys))
                try StatementTracer.install(on: connection, for: self)
                if !isInMemory {
                    try durability.apply(to: connection)
                }
                return connection
            } catch ResultCode.notADatabase where keys != nil {
                throw DatabaseError(
                    kind: .wrongKey, extendedResultCode: .notADatabase,
                    message: "the newest configured key does not open \(path) (or it is not a database)")
            }
        }
    }

    /// Throws `.configuration` for an empty path, which SQLite would silently open as a
    /// private temporary database.
    private func checkPath() throws {
        guard !path.isEmpty else {
            throw DatabaseError.configuration("the database path is empty; use \":memory:\" for an in-memory database")
        }
    }

    /// `options` keyed with the newest key, if there are keys.
    private func keyed(_ options: Connection.Options, _ keys: SecretKeys?) -> Connection.Options {
        guard let keys else { return options }
        return SecretKeys.options(options, keyedWith: keys.newest)
    }

    private func createParentDirectory() throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw DatabaseError.fileSystem("cannot create the directory \(directory.path): \(error.localizedDescription)")
        }
    }

    private func enableWAL(_ connection: Connection) throws {
        let mode = try connection.fetchOne(String.self, "PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else {
            throw DatabaseError.fileSystem("the journal mode stayed \(mode ?? "unknown") instead of WAL")
        }
    }

    /// Runs `body`, prefixing the message of a `DatabaseError` it throws with the step and the database name.
    @discardableResult
    private func during<T>(_ step: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw error.during("\(step) \(name)")
        }
    }
}
