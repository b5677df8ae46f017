import Foundation
import PostgresNIO

/// The server and database the benchmark runs on, from a `postgres://user[:password]@host[:port]/database`
/// URL. Every contender connects without TLS (a local server), with the same pool size.
struct ServerAddress: Sendable {
    var host: String
    var port: Int
    var username: String
    var password: String?
    var database: String

    init(url: String) throws {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme),
              let host = components.host, let username = components.user
        else { throw BenchError("not a postgres:// URL with a user and a host: \(url)") }
        self.host = host
        self.port = components.port ?? 5432
        self.username = username
        self.password = components.password
        let path = components.path.drop { $0 == "/" }
        self.database = path.isEmpty ? username : String(path)
    }

    /// The same server, another database.
    func database(_ name: String) -> ServerAddress {
        var address = self
        address.database = name
        return address
    }

    /// The URL of this address, without TLS (`sslmode=disable`).
    var url: String {
        var components = URLComponents()
        components.scheme = "postgres"
        components.user = username
        components.password = password
        components.host = host
        components.port = port
        components.path = "/" + database
        components.queryItems = [URLQueryItem(name: "sslmode", value: "disable")]
        return components.string!
    }

    func clientConfiguration(connections: Int) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: .disable)
        configuration.options.maximumConnections = connections
        configuration.options.minimumConnections = 0
        return configuration
    }

    var connectionConfiguration: PostgresConnection.Configuration {
        PostgresConnection.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: .disable)
    }
}

/// A failure of the harness: a bad argument, or a contender returning wrong results.
struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
