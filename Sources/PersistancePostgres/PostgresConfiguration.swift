#if PostgreSQL
import Foundation
import Persistance

/// Where a PostgreSQL server is, who connects, and how the database's transactions behave.
///
/// Its description never shows the password:
/// `postgres://app:***@db.internal:5432/game`.
public struct PostgresConfiguration: Sendable, CustomStringConvertible {
    /// Whether connections use TLS.
    public enum TLSMode: String, Sendable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, plain TCP otherwise (libpq's default).
        case prefer
        /// TLS, or no connection.
        case require
    }

    /// The server's host name or address.
    public var host: String
    /// The server's TCP port.
    public var port: Int
    /// The role to connect as.
    public var username: String
    /// The role's password, if the server asks for one. Never logged nor shown in an error.
    public var password: String?
    /// The database to connect to; the server's default (the role's name) when nil.
    public var database: String?
    /// Whether connections use TLS. `.prefer` by default.
    public var tls: TLSMode = .prefer
    /// The most connections the database keeps open at once. 10 by default.
    public var maximumConnections: Int = 10
    /// How long opening a connection may take before the server counts as unreachable. 10 s by default.
    public var connectTimeout: Duration = .seconds(10)
    /// The longest a statement may run before the server cancels it with
    /// `DatabaseError.Kind.statementTimeout`; no limit when nil (the default).
    public var statementTimeout: Duration?
    /// The isolation level of transactions that do not name one. `.readCommitted` by default,
    /// PostgreSQL's own default.
    public var isolationLevel: PostgresIsolationLevel = .readCommitted
    /// How many times a transaction block that failed with a serialization failure or a deadlock
    /// (SQLSTATE 40001 or 40P01) is run again before the error is thrown. 3 by default; 0 never
    /// retries. A retried block runs again from its start, so it must be safe to re-run.
    public var transactionRetries: Int = 3

    /// A configuration for a server at `host`.
    public init(host: String, port: Int = 5432, username: String, password: String? = nil, database: String? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
    }

    /// A configuration from a URL: `postgres://user:password@host:port/database?sslmode=disable`.
    ///
    /// The scheme is `postgres` or `postgresql`; the user, password and database are
    /// percent-decoded; the port defaults to 5432; `sslmode` is `disable`, `prefer` (the
    /// default) or `require`.
    /// - Throws: `DatabaseError.Kind.configuration` when the URL is not of that form. The error
    ///   never repeats the URL, which may hold a password.
    public init(url: String) throws {
        func invalid(_ reason: String) -> DatabaseError {
            DatabaseError(
                kind: .configuration,
                message: "not a PostgreSQL URL (postgres://user:password@host:port/database): \(reason)")
        }
        guard let components = URLComponents(string: url) else { throw invalid("it does not parse as a URL") }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw invalid("the scheme must be postgres or postgresql")
        }
        guard let host = components.host, !host.isEmpty else { throw invalid("it names no host") }
        guard let username = components.percentEncodedUser?.removingPercentEncoding, !username.isEmpty else {
            throw invalid("it names no user")
        }
        if let port = components.port, !(1...65_535).contains(port) { throw invalid("the port is out of range") }
        let path = components.percentEncodedPath.drop { $0 == "/" }
        self.init(
            host: host,
            port: components.port ?? 5432,
            username: username,
            password: components.percentEncodedPassword?.removingPercentEncoding,
            database: path.isEmpty ? nil : String(path).removingPercentEncoding)
        for item in components.queryItems ?? [] where item.name == "sslmode" {
            guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                throw invalid("sslmode must be disable, prefer or require")
            }
            tls = mode
        }
    }

    /// The server's address, as errors name it: `host:port`.
    public var address: String { "\(host):\(port)" }

    /// The configuration as a URL, with the password masked.
    public var description: String {
        let credentials = password == nil ? username : "\(username):***"
        return "postgres://\(credentials)@\(address)/\(database ?? "")"
    }
}
#endif
