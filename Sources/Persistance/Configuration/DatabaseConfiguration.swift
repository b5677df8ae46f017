import Foundation

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
    /// The absolute path of the database file, or `:memory:`.
    public var path: String
    /// Options for every connection.
    public var connectionOptions = Connection.Options()
    /// The encryption keys, oldest first and newest last; empty for a plaintext database.
    /// Needs the `SQLCipher` trait.
    public var secretKeys: [String] = []
    /// The migrator run when the writer opens, if any.
    public var migrator: Migrator?
    /// The tables the database declares. When the writer opens, those missing are created
    /// with their indexes, declared columns the file lacks are added where SQLite can, and
    /// the file is checked against each declaration, together with the migrator's steps in
    /// one transaction; a difference that cannot be fixed safely fails the open with
    /// `.schemaMismatch` and leaves the file unchanged. Reads of a declared table on a new
    /// file find it empty rather than missing.
    public var tables: [any DeclaredTable] = []

    /// A configuration for the file at `path` (or `:memory:`), without keys or migrator.
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
    /// - Throws: `.configuration` when the name is invalid (see ``TargetRegistry``), or the
    ///   path or directory is not absolute.
    public static func resolve(_ name: String, registry: TargetRegistry = .shared) throws -> DatabaseConfiguration {
        let target = try registry.target(forDatabase: name)
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

    /// Whether this is an in-memory database.
    public var isInMemory: Bool { path == ":memory:" || path.isEmpty }

    /// Opens the writer connection: creates missing directories, applies the keys (creating,
    /// re-keying or encrypting the file as needed), turns WAL on for files, runs the migrator
    /// and brings the declared ``tables`` up to date. Open one writer per file.
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
        let keys = try during("opening") { try SecretKeys(secretKeys) }
        if !isInMemory {
            try during("creating the directory of") { try createParentDirectory() }
        }
        let connection = try during("opening") {
            if let keys, !isInMemory {
                return try keys.openWriter(path: path, options: connectionOptions)
            }
            return try Connection(path: path, options: keyed(connectionOptions, keys))
        }
        do {
            if !isInMemory {
                try during("turning on WAL for") { try enableWAL(connection) }
            }
            if !tables.isEmpty {
                try during("migrating") { try SchemaReconciler(tables: tables, migrator: migrator).run(connection) }
            } else if let migrator {
                try during("migrating") { try migrator.migrate(connection) }
            }
        } catch {
            try? connection.close()
            throw error
        }
        return connection
    }

    /// Opens a read-only connection keyed with the newest key. It never migrates, so open the
    /// writer first.
    public func openReader() throws -> Connection {
        var options = connectionOptions
        options.mode = .readOnly
        return try during("opening a reader for") {
            try Connection(path: path, options: keyed(options, try SecretKeys(secretKeys)))
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
