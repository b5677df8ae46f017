#if PostgreSQL
import Persistance

/// A PostgreSQL server as a configuration target answers it: the configuration names the
/// server (host, port, role, TLS, pool and transaction settings), and each database name the
/// target serves opens the PostgreSQL database of that name, unless the configuration names
/// one.
///
/// ```swift
/// struct Target_game: ConfigurationTarget {
///     let server: PostgresConfiguration
///     func server(for database: String) -> (any DatabaseServer)? { server }
/// }
/// let server = try PostgresConfiguration(url: "postgres://app@db.internal:5432?sslmode=require")
/// try TargetRegistry.shared.register(Target_game(server: server))
/// let db = try await Database.openPortable("game_main")   // the PostgreSQL database "game_main"
/// ```
extension PostgresConfiguration: DatabaseServer {
    /// Opens the database `name` on this server, with ``PostgresDatabase/open(configuration:logger:)``
    /// and the configuration of ``PostgresConfiguration/configuration(forDatabaseNamed:)``; the database must exist
    /// (create it with `CREATE DATABASE` first).
    /// - Throws: `DatabaseError.Kind.configuration` for a name PostgreSQL cannot hold;
    ///   `DatabaseError.Kind.postgres` with SQLSTATE `3D000` when the server has no such
    ///   database, its message naming the database and the server; otherwise as
    ///   ``PostgresDatabase/open(configuration:logger:)``.
    public func openDatabase(named name: String) async throws -> any PortableDatabase {
        let configuration = try configuration(forDatabaseNamed: name)
        do {
            return try await PostgresDatabase.open(configuration: configuration)
        } catch var error as DatabaseError where error.sqlState == "3D000" {
            error.message = "the PostgreSQL server at \(address) has no database \"\(configuration.database ?? name)\" "
                + "(create it first): \(error.message)"
            throw error
        }
    }

    /// The configuration of the database `name`: this one, its ``PostgresConfiguration/database`` set to `name`
    /// unless it names one already (then every database name served opens that one database).
    /// - Throws: `DatabaseError.Kind.configuration` when `name` is used and is longer than
    ///   PostgreSQL's 63-byte names (the server would silently cut it and open another database).
    public func configuration(forDatabaseNamed name: String) throws -> PostgresConfiguration {
        var configuration = self
        if configuration.database == nil {
            guard name.utf8.count <= Self.maximumNameLength else {
                throw DatabaseError(
                    kind: .configuration,
                    message: "the database name \"\(name)\" is longer than PostgreSQL's \(Self.maximumNameLength) bytes")
            }
            configuration.database = name
        }
        return configuration
    }

    /// The longest name PostgreSQL keeps whole (NAMEDATALEN - 1), in UTF-8 bytes.
    private static let maximumNameLength = 63
}

/// A PostgreSQL database is a `PortableDatabase`: what
/// `Database.openPortable(_:registry:readerCount:)` returns for a target that answers a
/// ``PostgresConfiguration``.
extension PostgresDatabase: PortableDatabase {}
#endif
