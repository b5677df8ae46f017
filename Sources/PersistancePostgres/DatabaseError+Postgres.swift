#if PostgreSQL
import Persistance
import PostgresNIO

extension DatabaseError.Kind {
    /// The PostgreSQL server reported a failure; see `sqlState` and `condition`.
    public static let postgres = DatabaseError.Kind(rawValue: "postgres")
    /// No connection to the server could be made; the message names its host and port.
    public static let serverUnreachable = DatabaseError.Kind(rawValue: "serverUnreachable")
    /// The server refused the role's credentials (or asked for a password none was given for).
    public static let authenticationFailed = DatabaseError.Kind(rawValue: "authenticationFailed")
    /// The connection broke while in use; a transaction it ran was rolled back by the server
    /// (when it broke during COMMIT, the commit may or may not have happened).
    public static let connectionLost = DatabaseError.Kind(rawValue: "connectionLost")
    /// The server cancelled a statement that ran longer than its statement timeout (SQLSTATE
    /// 57014 without the task being cancelled, which also covers a cancel request from another session).
    public static let statementTimeout = DatabaseError.Kind(rawValue: "statementTimeout")
}

extension DatabaseError {
    /// The library's error for a failure of postgres-nio.
    ///
    /// Built only from the error's code and the server's message and SQLSTATE: never from the
    /// server's detail (which can quote row values) nor from postgres-nio's debug description
    /// (which can print bound values). A data exception's message (SQLSTATE class 22) quotes
    /// the input it could not read: a bound value there is replaced with its parameter's name,
    /// `value "$1" is out of range for type smallint`.
    /// Other errors (the block's own, `CancellationError`, …) are returned as they are.
    static func postgres(_ error: any Error, sql: String?, arguments: [DatabaseValue] = [], address: String) -> any Error {
        guard let error = error as? PSQLError else { return error }
        let translated = translating(error, sql: sql, address: address)
        guard var dataException = translated as? DatabaseError, dataException.sqlState?.hasPrefix("22") == true else {
            return translated
        }
        dataException.message = redacting(arguments, from: dataException.message)
        return dataException
    }

    /// `message` with each quoted occurrence of a bound value (`"secret"`) replaced with its
    /// parameter's name (`"$2"`).
    private static func redacting(_ arguments: [DatabaseValue], from message: String) -> String {
        var message = message
        for (index, argument) in arguments.enumerated() {
            let text: String
            switch argument {
            case .integer(let integer): text = String(integer)
            case .real(let real): text = PostgresParameter.text(of: real)
            case .text(let string): text = string
            case .null, .blob: continue
            }
            message = message.replacingOccurrences(of: "\"\(text)\"", with: "\"$\(index + 1)\"")
        }
        return message
    }

    /// The library's error for a failure to open a first connection: a failure that is not
    /// PostgreSQL's (a socket error, a timeout) means the server cannot be reached.
    static func opening(_ error: any Error, address: String) -> any Error {
        switch error {
        case let error as PSQLError: translating(error, sql: nil, address: address)
        case is DatabaseError, is CancellationError: error
        default: DatabaseError(kind: .serverUnreachable, message: "cannot reach the PostgreSQL server at \(address): \(error)")
        }
    }

    private static func translating(_ error: PSQLError, sql: String?, address: String) -> any Error {
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState]
            let message = error.serverInfo?[.message] ?? "the server reported an error"
            let kind: Kind = switch state {
            case "28P01", "28000": .authenticationFailed
            case "57014": .statementTimeout
            case "57P01", "57P02", "57P03": .connectionLost
            default: .postgres
            }
            return DatabaseError(kind: kind, message: message, sql: sql, sqlState: state)
        case .authMechanismRequiresPassword, .saslError, .unsupportedAuthMechanism:
            return DatabaseError(
                kind: .authenticationFailed,
                message: "the PostgreSQL server at \(address) refused the authentication (\(error.code))", sql: sql)
        case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            return DatabaseError(
                kind: .connectionLost, message: "the connection to \(address) was lost (\(error.code))", sql: sql)
        case .connectionError:
            let cause = error.underlying.map { ": \($0)" } ?? ""
            return DatabaseError(
                kind: .serverUnreachable, message: "cannot reach the PostgreSQL server at \(address)\(cause)", sql: sql)
        case .poolClosed:
            return DatabaseError(kind: .databaseClosed, message: "the PostgreSQL database is closed", sql: sql)
        case .queryCancelled:
            return CancellationError()
        default:
            return DatabaseError(kind: .postgres, message: "\(error.code)", sql: sql)
        }
    }
}
#endif
