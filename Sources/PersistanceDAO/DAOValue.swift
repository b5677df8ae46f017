import Foundation
import Persistance

/// A value passed to a DAO method, or met while rendering one: a database value, a list,
/// a dictionary, or a record's fields (with its type name, which `crypt` rules match).
///
/// Literals make values directly:
/// ```swift
/// try await dao.call("search", ["title": "Swift%", "authors": ["Ann", "Bob"], "year": nil])
/// ```
public enum DAOValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    /// An ordered collection; `foreach` iterates it and `.count` counts it.
    case list([DAOValue])
    /// A dictionary; `a.key` reads its values and `.count` counts them.
    case dictionary([String: DAOValue])
    /// The coded properties of a record of the type named `type`; `a.property` reads them.
    case record(type: String, fields: [String: DAOValue])

    /// The stored value of `value`, or `.null` for nil.
    /// - Throws: the encoding error of a value SQLite cannot store faithfully.
    public init(_ value: (any DatabaseValueConvertible)?) throws {
        self.init(databaseValue: try value?.databaseValue ?? .null)
    }

    /// The value of a database value.
    public init(databaseValue: DatabaseValue) {
        switch databaseValue {
        case .null: self = .null
        case .integer(let value): self = .integer(value)
        case .real(let value): self = .real(value)
        case .text(let value): self = .text(value)
        case .blob(let value): self = .blob(value)
        }
    }

    /// The coded properties of `record`, under its type name (for `crypt` rules).
    public init<R: Record & Encodable>(record: R) throws {
        let row = try record.encodedRow()
        var fields = [String: DAOValue](minimumCapacity: row.count)
        for (name, value) in zip(row.columnNames, row.values) {
            fields[name] = DAOValue(databaseValue: value)
        }
        self = .record(type: DAOTypeName.of(R.self), fields: fields)
    }

    /// Whether this is nil / SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The database value, or nil for a list, dictionary or record (which SQLite cannot store).
    public var databaseValue: DatabaseValue? {
        switch self {
        case .null: .null
        case .integer(let value): .integer(value)
        case .real(let value): .real(value)
        case .text(let value): .text(value)
        case .blob(let value): .blob(value)
        case .list, .dictionary, .record: nil
        }
    }

    /// What the value is, for error messages (never the value itself).
    var kindName: String {
        switch self {
        case .null: "nil"
        case .integer: "an integer"
        case .real: "a real"
        case .text: "a string"
        case .blob: "binary data"
        case .list: "a list"
        case .dictionary: "a dictionary"
        case .record(let type, _): "a \(type) record"
        }
    }
}

extension DAOValue: ExpressibleByNilLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .real(value) }
    public init(stringLiteral value: String) { self = .text(value) }
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
    public init(arrayLiteral elements: DAOValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, DAOValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
