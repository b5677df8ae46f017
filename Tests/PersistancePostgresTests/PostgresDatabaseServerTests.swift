#if PostgreSQL
import Foundation
import Persistance
import PersistancePostgres
import Testing

/// `PostgresConfiguration` as the server a configuration target answers: which PostgreSQL
/// database a database name opens, and the errors of opening it by name. Migrations and
/// declared tables on a served database are tested on every engine in
/// PersistanceConformanceTests (`ServedDatabaseConformanceTests`).
@Suite struct PostgresDatabaseServerTests {
    /// The target `game`, answering `server` for every database.
    struct GameTarget: ConfigurationTarget {
        let server: PostgresConfiguration
        func server(for database: String) -> (any DatabaseServer)? { server }
    }

    private func registry(_ server: PostgresConfiguration) throws -> TargetRegistry {
        let registry = TargetRegistry()
        try registry.register(GameTarget(server: server), as: "game")
        return registry
    }

    @Test func theDatabaseIsTheNameUnlessTheConfigurationNamesOne() throws {
        var configuration = PostgresConfiguration(host: "db.internal", port: 6543, username: "app", password: "secret")
        configuration.maximumConnections = 3
        let named = try configuration.configuration(forDatabaseNamed: "game_main")
        #expect(named.database == "game_main")
        #expect(named.address == "db.internal:6543")
        #expect(named.username == "app")
        #expect(named.password == "secret")
        #expect(named.maximumConnections == 3)

        configuration.database = "shared"
        #expect(try configuration.configuration(forDatabaseNamed: "game_main").database == "shared")
    }

    @Test func aNameLongerThanPostgreSQLKeepsIsRefusedBeforeConnecting() async throws {
        let longest = "game_" + String(repeating: "x", count: 58)
        let tooLong = "game_" + String(repeating: "é", count: 30)  // 65 bytes in 35 characters
        var unreachable = PostgresConfiguration(host: "127.0.0.1", port: 1, username: "nobody")
        unreachable.tls = .disable
        #expect(try unreachable.configuration(forDatabaseNamed: longest).database == longest)
        let error = await #expect(throws: DatabaseError.self) {
            try await Database.openPortable(tooLong, registry: registry(unreachable))
        }
        #expect(error?.kind == .configuration)
        #expect(error?.message.contains("63 bytes") == true)
        // A configuration that names its database serves any name.
        unreachable.database = "shared"
        #expect(try unreachable.configuration(forDatabaseNamed: tooLong).database == "shared")
    }

    @Test func aConfigurationThatNamesItsDatabaseServesEveryName() async throws {
        let server = try TestServer.configuration()
        let database = try #require(server.database)
        let db = try await Database.openPortable("game_\(UUID().uuidString.prefix(8))", registry: registry(server))
        let postgres = try #require(db as? PostgresDatabase)
        let current = try await postgres.read { tx in try await tx.fetchOne("SELECT current_database()")?.value(at: 0, as: String.self) }
        #expect(current == database)
        try await db.close()
    }

    @Test func aMissingDatabaseIsTheServersErrorNamingItAndTheServer() async throws {
        var server = try TestServer.configuration()
        server.database = nil
        let name = "game_missing\(UUID().uuidString.prefix(8).lowercased())"
        let error = await #expect(throws: DatabaseError.self) { try await Database.openPortable(name, registry: registry(server)) }
        #expect(error?.kind == .postgres)
        #expect(error?.sqlState == "3D000")
        #expect(error?.message.hasPrefix("opening \(name): the PostgreSQL server at \(server.address) has no database \"\(name)\"") == true)
    }

    @Test func anUnreachableServerIsNamedByHostAndPort() async throws {
        // Port 1: nothing listens there.
        var server = PostgresConfiguration(host: "127.0.0.1", port: 1, username: "nobody", password: "hunter2-secret")
        server.tls = .disable
        let error = await #expect(throws: DatabaseError.self) { try await Database.openPortable("game_main", registry: registry(server)) }
        #expect(error?.kind == .serverUnreachable)
        #expect(error?.message.hasPrefix("opening game_main: ") == true)
        #expect(error?.message.contains("127.0.0.1:1") == true)
        #expect(error?.description.contains("hunter2-secret") == false)
    }
}
#endif
