/// A server that holds databases (PostgreSQL's, for one): what a ``ConfigurationTarget``
/// answers from ``ConfigurationTarget/server(for:)`` to move its databases off SQLite files.
///
/// ``Database/openPortable(_:registry:readerCount:)`` asks the server to open the database,
/// then applies the target's migrator and declared tables to it through the portable API. The
/// core names no engine: `PersistancePostgres`'s `PostgresConfiguration` conforms.
///
/// ```swift
/// struct Target_game: ConfigurationTarget {
///     let server: PostgresConfiguration?     // nil: SQLite files
///     func server(for database: String) -> (any DatabaseServer)? { server }
///     func migrator(for database: String) -> Migrator? { gameMigrator }
/// }
/// let url = ProcessInfo.processInfo.environment["GAME_POSTGRES_URL"]  // postgres://app@db.internal:5432
/// try TargetRegistry.shared.register(Target_game(server: url.map { try PostgresConfiguration(url: $0) }))
/// let db = try await Database.openPortable("game_main")   // the PostgreSQL database "game_main"
/// ```
public protocol DatabaseServer: Sendable {
    /// Opens the database `name` (the full database name, `"game_main"`) on this server, as
    /// it is: migrating it is the caller's part.
    ///
    /// - Throws: the engine's errors for a server it cannot reach, credentials it refuses, or
    ///   a database it does not hold.
    func openDatabase(named name: String) async throws -> any PortableDatabase
}
