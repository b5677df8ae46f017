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
                pairs.append((property, try context.crypt.decrypt(statement.column(at: index), for: DAOField(type: type, property: property))))
            }
            return try decoder.decode(Row(pairs))
        }
        return many ? .records(records) : .record(records.first)
    }

    /// `value` as the seed's scalar result type; NULL stays NULL.
    /// - Throws: `resultTypeMismatch` when the value has another type or does not fit `int`.
    static func scalar(_ scalar: DAOResultKind.Scalar, _ value: DatabaseValue, column: String) throws -> DatabaseValue {
        switch (scalar, value) {
        case (_, .null): return .null
        case (.int, .integer(let number)) where Int32(exactly: number) != nil: return value
        case (.longLong, .integer): return value
        case (.bool, .integer(let number)): return .integer(number == 0 ? 0 : 1)
        case (.double, .real): return value
        case (.double, .integer(let number)): return .real(Double(number))
        case (.string, .text): return value
        case (.binary, .blob): return value
        case (.binary, .text(let text)): return .blob(Data(text.utf8))
        default:
            throw DAOError(.resultTypeMismatch, "column \(column) holds \(value.storageClass), which is not a result of type \(scalar.rawValue)")
        }
    }
}
