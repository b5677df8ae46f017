import Foundation
import Persistance

/// How `query` prints rows.
enum RowFormat {
    /// Columns aligned under a header; NULL as `NULL`, blobs as `x'…'`.
    case table
    /// An array of objects; blobs as base64 strings.
    case json
    /// RFC 4180 with a header line; NULL as an empty field, blobs as `x'…'`.
    case csv

    func render(columns: [String], rows: [[DatabaseValue]]) throws -> String {
        switch self {
        case .table:
            let table = TextTable(header: columns, rows: rows.map { $0.map(Self.text) })
            return table.render() + "\n(\(rows.count) row\(rows.count == 1 ? "" : "s"))"
        case .csv:
            return ([columns] + rows.map { $0.map { $0.isNull ? "" : Self.text($0) } })
                .map { $0.map(Self.csvField).joined(separator: ",") }
                .joined(separator: "\r\n")
        case .json:
            let objects = rows.map { row in
                Dictionary(uniqueKeysWithValues: zip(columns, row.map(Self.jsonValue)))
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
            return String(decoding: data, as: UTF8.self)
        }
    }

    private static func text(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): text
        case .blob(let data): "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
        }
    }

    private static func csvField(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func jsonValue(_ value: DatabaseValue) -> Any {
        switch value {
        case .null: NSNull()
        case .integer(let number): number
        case .real(let number): number
        case .text(let text): text
        case .blob(let data): data.base64EncodedString()
        }
    }
}
