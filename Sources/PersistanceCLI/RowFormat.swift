import Foundation
import Persistance

/// How `query` prints rows.
enum RowFormat {
    /// Columns aligned under a header; NULL as `NULL`, blobs as `x'…'`.
    case table
    /// An array of objects, keys in column order; REALs always with a decimal point or an
    /// exponent, blobs as base64 strings.
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
            guard !rows.isEmpty else { return "[]" }
            let objects = rows.map { row in
                "  {\n" + zip(columns, row).map { "    \(Self.jsonString($0)) : \(Self.json($1))" }.joined(separator: ",\n") + "\n  }"
            }
            return "[\n" + objects.joined(separator: ",\n") + "\n]"
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

    /// `value` as JSON, keeping its type: a REAL always has a decimal point or an exponent
    /// (`1.0`, `1e+20`; infinities as `1e999` and `-1e999`), a blob is a base64 string.
    private static func json(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let number): String(number)
        case .real(let number) where number.isInfinite: number < 0 ? "-1e999" : "1e999"
        case .real(let number) where number.isNaN: "null"
        case .real(let number): String(number)
        case .text(let text): jsonString(text)
        case .blob(let data): jsonString(data.base64EncodedString())
        }
    }

    /// `text` as a JSON string literal.
    private static func jsonString(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case _ where scalar.value < 0x20: literal += String(format: "\\u%04x", scalar.value)
            default: literal.unicodeScalars.append(scalar)
            }
        }
        return literal + "\""
    }
}
