#if PostgreSQL
import Persistance
import PostgresNIO

/// A Swift type that can be bound to a PostgreSQL statement and read from a result column.
///
/// Conversions are as strict as on SQLite (see `DatabaseValueConvertible`): reading never
/// guesses. A column of another type, an integer out of the target type's range, or NULL read
/// into a non-optional type is a `DatabaseError.Kind.decoding` naming the column; a value
/// PostgreSQL cannot hold faithfully (a NUL in text, NaN) is a `DatabaseError.Kind.encoding`,
/// thrown before anything is sent.
public protocol PostgresValueConvertible: Sendable {
    /// Appends this value to `bindings`.
    /// - Throws: `DatabaseError.Kind.encoding` when PostgreSQL cannot store the value faithfully.
    func bind(into bindings: inout PostgresBindings) throws

    /// The value of a cell, or nil when the cell's type or value cannot represent this type
    /// (NULL included, except for optionals).
    static func fromPostgres(_ cell: PostgresCell) -> Self?
}

extension PostgresValueConvertible {
    /// Converts a cell, throwing a decoding error that names its column when it does not fit.
    public static func decode(_ cell: PostgresCell) throws -> Self {
        if let value = fromPostgres(cell) { return value }
        let message = cell.bytes == nil
            ? "unexpected NULL for non-optional \(Self.self)"
            : "expected \(Self.self), found \(cell.dataType)"
        throw DatabaseError(kind: .decoding, message: message, column: cell.columnName)
    }
}

extension Optional: PostgresValueConvertible where Wrapped: PostgresValueConvertible {
    public func bind(into bindings: inout PostgresBindings) throws {
        switch self {
        case .none: bindings.appendNull()
        case .some(let wrapped): try wrapped.bind(into: &bindings)
        }
    }

    public static func fromPostgres(_ cell: PostgresCell) -> Wrapped?? {
        if cell.bytes == nil { return .some(.none) }
        return Wrapped.fromPostgres(cell).map { .some($0) }
    }
}

extension PostgresCell {
    /// The cell decoded by postgres-nio when it is not NULL and its type is one of `types`.
    func decoded<Value: PostgresDecodable>(_: Value.Type, from types: Set<PostgresDataType>) -> Value? {
        guard bytes != nil, types.contains(dataType) else { return nil }
        return try? decode(Value.self)
    }
}

extension PostgresDataType {
    /// BIGINT, INTEGER and SMALLINT.
    static let integers: Set<PostgresDataType> = [.int2, .int4, .int8]
}

extension PostgresRow {
    /// The value of the column named `column`, converted strictly (see ``PostgresValueConvertible``).
    /// - Throws: `DatabaseError.Kind.columnNotFound` when the row has no such column;
    ///   `DatabaseError.Kind.decoding` naming the column when its value does not convert.
    public func value<Value: PostgresValueConvertible>(_ column: String, as type: Value.Type = Value.self) throws -> Value {
        let row = makeRandomAccess()
        guard row.contains(column) else {
            throw DatabaseError(kind: .columnNotFound, message: "the row has no column \"\(column)\"", column: column)
        }
        return try Value.decode(row[column])
    }

    /// The value of the column at `index` (from 0), converted strictly.
    /// - Throws: `DatabaseError.Kind.columnNotFound` when the row has no such column;
    ///   `DatabaseError.Kind.decoding` naming the column when its value does not convert.
    public func value<Value: PostgresValueConvertible>(at index: Int, as type: Value.Type = Value.self) throws -> Value {
        let row = makeRandomAccess()
        guard row.indices.contains(index) else {
            throw DatabaseError(kind: .columnNotFound, message: "the row has no column at index \(index)")
        }
        return try Value.decode(row[index])
    }
}
#endif
