/// Configures the databases whose names map to it: where the file lives, which tables it
/// declares, how its schema migrates, and which keys encrypt it.
///
/// A database name maps to a target name by taking its last path component and cutting it
/// at the first `_`, then at the first `.`: the target `game` configures `game.sqlite`,
/// `game_main.sqlite`, `game_2024` and `saves/game.v2.sqlite`. Every answer receives the full
/// database name, so one target can serve several files. Each answer is optional: the
/// defaults put the file in ``DatabaseDirectory/current``, with no migrator and no key.
///
/// A target can also move its databases to a server (PostgreSQL) by answering
/// ``server(for:)``: ``Database/openPortable(_:registry:readerCount:)`` then opens them there,
/// while `Database.open(_:)` stays SQLite's.
///
/// Register targets with ``TargetRegistry``:
///
/// ```swift
/// struct Target_game: ConfigurationTarget {
///     func secretKeys(for database: String) -> [String] { ["2024-key", "2025-key"] }
/// }
/// try TargetRegistry.shared.register(Target_game())   // serves "game…" databases
/// ```
public protocol ConfigurationTarget: Sendable {
    /// The absolute path of the database file, or nil for the default directory
    /// (`<directory>/<database name>`). Missing parent directories are created on open.
    func filePath(for database: String) -> String?

    /// The migrator that brings the database's schema up to date on open, or nil for none.
    func migrator(for database: String) -> Migrator?

    /// The encryption keys, oldest first and newest last, or an empty list for a plaintext
    /// database. A new file is encrypted with the newest key; a file that opens with an
    /// older key is re-keyed to the newest; a plaintext file is encrypted in place.
    /// Needs the `SQLCipher` trait: with plain SQLite a non-empty list fails to open with
    /// `encryptionUnavailable`.
    func secretKeys(for database: String) -> [String]

    /// The tables the database declares, or an empty list for none. Opening the database
    /// creates those missing and brings the others to their declaration (see
    /// ``DatabaseConfiguration/tables``).
    func tables(for database: String) -> [any DeclaredTable]

    /// The server that holds the database, or nil (the default) for a SQLite file.
    ///
    /// When it answers a server, ``Database/openPortable(_:registry:readerCount:)`` opens the
    /// database there and applies ``migrator(for:)`` and ``tables(for:)`` through the portable
    /// API; ``filePath(for:)`` is not asked; ``secretKeys(for:)`` must answer no key (SQLCipher
    /// keys encrypt files: a server's database is protected by TLS and the server's own
    /// storage, so a key would protect nothing and fails the open with `.configuration`).
    /// `Database.open(_:)`, which opens SQLite files only, refuses such a database with
    /// `.configuration` rather than open a local file in its place.
    func server(for database: String) -> (any DatabaseServer)?
}

extension ConfigurationTarget {
    /// The default: the file lives in the default directory.
    public func filePath(for database: String) -> String? { nil }

    /// The default: no migrator.
    public func migrator(for database: String) -> Migrator? { nil }

    /// The default: no encryption.
    public func secretKeys(for database: String) -> [String] { [] }

    /// The default: no declared table.
    public func tables(for database: String) -> [any DeclaredTable] { [] }

    /// The default: a SQLite file.
    public func server(for database: String) -> (any DatabaseServer)? { nil }
}
