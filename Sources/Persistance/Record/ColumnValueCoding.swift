import Foundation

/// Converts one coded property to and from the value of one column.
///
/// In order: `Date` follows the record's date strategy; `DatabaseValueConvertible` types
/// use their own conversion (strict: a mismatch is a decoding error naming the column);
/// types that code a single value (`String` or `Int` enums, wrappers) store that value;
/// everything else (structs, arrays, dictionaries, enums with payloads) is JSON text.
enum ColumnValueCoding {
    /// The stored value for the property coded under `column`.
    static func databaseValue<T: Encodable>(
        for value: T, dateStrategy: DatabaseDateStrategy, column: String
    ) throws -> DatabaseValue {
        try attributing(to: column, kind: .encoding, type: T.self) {
            // Metatype comparisons first: cheaper than the dynamic casts below.
            if T.self == Data.self {
                return .blob(unsafeBitCast(value, to: Data.self))  // T is Data
            }
            if T.self == Date.self {
                return try dateStrategy.databaseValue(for: unsafeBitCast(value, to: Date.self))  // T is Date
            }
            if let convertible = value as? any DatabaseValueConvertible {
                return try convertible.databaseValue
            }
            if !(value is any Sequence) {
                let probe = ColumnValueEncoder(dateStrategy: dateStrategy, column: column)
                try value.encode(to: probe)
                if let stored = try probe.singleValue() { return stored }
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return .text(String(decoding: try encoder.encode(value), as: UTF8.self))
        }
    }

    /// The property of type `T` that the stored `value` of `column` holds.
    static func decode<T: Decodable>(
        _ type: T.Type, from value: DatabaseValue, dateStrategy: DatabaseDateStrategy, column: String
    ) throws -> T {
        // Metatype comparisons first: cheaper than the conformance look-up of the cast below.
        if T.self == Date.self {
            guard let date = dateStrategy.date(from: value) else {
                throw DatabaseError.decoding(column: column, expected: "Date", found: value)
            }
            return unsafeBitCast(date, to: T.self)  // T is Date
        }
        if T.self == Data.self {
            return unsafeBitCast(try Data.decode(value, column: column), to: T.self)  // T is Data
        }
        if let convertible = T.self as? any DatabaseValueConvertible.Type {
            return try convert(value, to: convertible, column: column) as! T  // the opened type is T
        }
        return try attributing(to: column, kind: .decoding, type: T.self) {
            if !(T.self is any Sequence.Type) {
                do {
                    return try T(from: ColumnValueDecoder(value: value, dateStrategy: dateStrategy, column: column))
                } catch is ColumnValueDecoder.NeedsJSON {
                    // A keyed or unkeyed value: stored as JSON.
                }
            }
            let json: Data
            switch value {
            case .text(let text): json = Data(text.utf8)
            case .blob(let data): json = data
            default: throw DatabaseError.decoding(column: column, expected: "JSON text for \(T.self)", found: value)
            }
            return try JSONDecoder().decode(T.self, from: json)
        }
    }

    private static func convert<C: DatabaseValueConvertible>(
        _ value: DatabaseValue, to type: C.Type, column: String
    ) throws -> C {
        try C.decode(value, column: column)
    }

    /// Runs `body`, naming `column` in the error it throws; a non-library error (a
    /// `DecodingError` from a type's own `init(from:)`, say) becomes a `DatabaseError` of `kind`.
    static func attributing<Value>(
        to column: String, kind: DatabaseError.Kind, type: Any.Type = Any.self, _ body: () throws -> Value
    ) throws -> Value {
        do {
            return try body()
        } catch var error as DatabaseError {
            if error.column == nil { error.column = column }
            throw error
        } catch {
            throw DatabaseError(kind: kind, message: "\(type): \(describe(error))", column: column)
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context),
            DecodingError.keyNotFound(_, let context),
            DecodingError.typeMismatch(_, let context),
            DecodingError.valueNotFound(_, let context):
            context.debugDescription
        case EncodingError.invalidValue(_, let context):
            context.debugDescription
        default:
            String(describing: error)
        }
    }
}
