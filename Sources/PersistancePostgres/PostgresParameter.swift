#if PostgreSQL
import Foundation
import Persistance
import PostgresNIO

/// One `DatabaseValue` bound to a statement with no declared type, so that the server gives the
/// parameter the type its place in the statement calls for: the same integer text fills a
/// SMALLINT, a BIGINT, a BOOLEAN (`'1'`, `'0'`) or a `LIMIT`, and the same text a UUID, a
/// TIMESTAMPTZ (read in UTC, the session's time zone) or a NUMERIC, each checked by the server
/// (40000 in a SMALLINT is SQLSTATE 22003).
///
/// Integers, reals and text go as text; a blob goes as BYTEA's bytes, typed BYTEA.
struct PostgresParameter: PostgresThrowingDynamicTypeEncodable {
    private let value: DatabaseValue

    /// The parameter of `value`; NULL has none (see ``bind(_:sql:)``).
    /// - Throws: `DatabaseError.Kind.encoding` for what PostgreSQL cannot take: text with a NUL
    ///   character, and NaN, which SQLite cannot store either.
    private init(_ value: DatabaseValue) throws {
        switch value {
        case .text(let text) where text.utf8.contains(0):
            throw DatabaseError(kind: .encoding, message: "PostgreSQL text cannot hold a NUL character")
        case .real(let real) where real.isNaN:
            throw DatabaseError(kind: .encoding, message: "NaN cannot be stored: SQLite turns it into NULL")
        default:
            self.value = value
        }
    }

    var psqlType: PostgresDataType { Self.type(of: value) }

    /// The type `value` is bound with: BYTEA for a blob, none (OID 0) for anything else, NULL included.
    static func type(of value: DatabaseValue) -> PostgresDataType {
        if case .blob = value { return .bytea }
        return .null
    }

    var psqlFormat: PostgresFormat {
        if case .blob = value { return .binary }
        return .text
    }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        switch value {
        case .null: break
        case .integer(let integer): byteBuffer.writeString(String(integer))
        case .real(let real): byteBuffer.writeString(Self.text(of: real))
        case .text(let text): byteBuffer.writeString(text)
        case .blob(let data): byteBuffer.writeBytes(data)
        }
    }

    /// How PostgreSQL reads `real`: Swift's shortest text that reads back the same, and
    /// `Infinity` or `-Infinity`.
    static func text(of real: Double) -> String {
        switch real {
        case .infinity: "Infinity"
        case -.infinity: "-Infinity"
        default: real.description
        }
    }

    /// The bindings of `arguments`, in order.
    /// - Throws: `DatabaseError.Kind.encoding` naming the parameter (`$2`) and the statement,
    ///   before anything is sent.
    static func bind(_ arguments: [DatabaseValue], sql: String) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: arguments.count)
        for (index, argument) in arguments.enumerated() {
            if argument.isNull {
                bindings.appendNull()
                continue
            }
            do {
                try bindings.append(PostgresParameter(argument))
            } catch var error as DatabaseError {
                error.column = "$\(index + 1)"
                error.sql = sql
                throw error
            }
        }
        return bindings
    }
}
#endif
