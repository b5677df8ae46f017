import Foundation
import Persistance

/// Reads the rows of a statement that has run into the shape its method's `result` asks for,
/// decrypting the encrypted fields of record results.
struct DAOResultReader {
    let context: DAOCallContext
    let statement: Statement

    func read(_ kind: DAOResultKind) throws -> DAOResult {
        switch kind {
        case .none:
            return .rows(try rows(Row.init(statement:)))
        case .shaped(.scalar(let scalar), let many):
            guard statement.columnCount > 0 else {
                throw DAOError(.resultTypeMismatch, "result \(scalar.rawValue) needs a column, and the statement returns none")
            }
            let values = try rows(limit: many ? nil : 1) { try Self.scalar(scalar, $0.column(at: 0), column: $0.columnNames[0]) }
            return many ? .values(values) : .value(values.first ?? .null)
        case .shaped(.row, false):
            return .row(try statement.step() ? Row(statement: statement) : nil)
        case .shaped(.row, true):
            return .rows(try rows(Row.init(statement:)))
        case .shaped(.type(let type), let many):
            return try records(of: type, renaming: [:], many: many)
        case .shaped(.map(let id), let many):
            let map = context.module.maps[id]!
            return try records(of: map.type, renaming: map.propertyForColumn, many: many)
        }
    }

    private func rows<T>(limit: Int? = nil, _ make: (Statement) throws -> T) throws -> [T] {
        var results = [T]()
        while results.count < limit ?? .max, try statement.step() {
            results.append(try make(statement))
        }
        return results
    }

    private func records(of type: String, renaming: [String: String], many: Bool) throws -> DAOResult {
        guard let decoder = context.recordTypes[type] else {
            throw DAOError(.undefinedReference, "result type \(type) is not registered with the DAO (dao.register(\(type).self))")
        }
        let records = try rows(limit: many ? nil : 1) { statement in
            var pairs = [(String, DatabaseValue)]()
            for (index, column) in statement.columnNames.enumerated() {
                let property = renaming[column] ?? column
                let value = try context.crypt.decrypt(
                    statement.column(at: index), for: DAOField(type: type, property: property),
                    as: decoder.propertyKinds[property])
                pairs.append((property, value))
            }
            return try decoder.decode(Row(pairs))
        }
        return many ? .records(records) : .record(records.first)
    }

    /// `value` as the seed's scalar result type, converted as SQLite's `sqlite3_column_*`
    /// functions convert (an integer read as `string` is its digits, as `double` a real; a
    /// real read as `int` is truncated); NULL stays NULL.
    /// - Throws: `resultTypeMismatch` for text or a blob that is not a number when a number
    ///   is asked for, for a number outside the range of `int` (32 bits) or `long long`.
    static func scalar(_ scalar: DAOResultKind.Scalar, _ value: DatabaseValue, column: String) throws -> DatabaseValue {
        switch scalar {
        case _ where value == .null: return .null
        case .string: return .text(text(of: value))
        case .binary:
            if case .blob = value { return value }
            return .blob(Data(text(of: value).utf8))
        case .double:
            guard let number = number(of: value) else { break }
            switch number {
            case .integer(let integer): return .real(Double(integer))
            default: return number
            }
        case .int, .longLong, .bool:
            guard let number = number(of: value) else { break }
            let integer: Int64?
            switch number {
            case .real(let real): integer = real.isFinite ? Int64(exactly: real.rounded(.towardZero)) : nil
            case .integer(let value): integer = value
            default: integer = nil
            }
            guard let integer else { break }
            if scalar == .bool { return .integer(integer == 0 ? 0 : 1) }
            guard scalar == .longLong || Int32(exactly: integer) != nil else { break }
            return .integer(integer)
        }
        throw DAOError(.resultTypeMismatch, "column \(column) holds \(value.storageClass), which is not a result of type \(scalar.rawValue)")
    }

    /// The text SQLite reads from `value`: a real as `%!.15g` writes it (`42.0`, `0.1`).
    private static func text(of value: DatabaseValue) -> String {
        switch value {
        case .null: return ""
        case .integer(let number): return String(number)
        case .real(let number):
            var text = String(format: "%.15g", number)
            if number.isFinite, !text.contains(".") {
                if let exponent = text.firstIndex(of: "e") {
                    text.insert(contentsOf: ".0", at: exponent)
                } else {
                    text += ".0"
                }
            }
            return text
        case .text(let text): return text
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }

    /// The number `value` holds: itself, or the integer or real its whole text spells
    /// (spaces around it allowed); nil when it is not a number.
    private static func number(of value: DatabaseValue) -> DatabaseValue? {
        switch value {
        case .integer, .real: return value
        case .null: return nil
        case .text, .blob:
            let text = Self.text(of: value).trimmingCharacters(in: .whitespaces)
            if let integer = Int64(text) { return .integer(integer) }
            if let real = Double(text), real.isFinite, text.contains(where: \.isNumber) { return .real(real) }
            return nil
        }
    }
}
