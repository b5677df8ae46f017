/// The SQL text of SQLite, and of the SQLite engine this build links: `"name"` identifiers,
/// `?` parameters (`?1` when numbered), `1` and `0` for true and false, `LIMIT -1 OFFSET ?`
/// for an offset alone, UPSERT and RETURNING when the engine has them (see `SQLiteEngine`),
/// columns typed by their affinity, `AUTOINCREMENT` keys and `rowid`.
public struct SQLiteDialect: SQLDialect {
    /// The SQLite dialect.
    public init() {}

    public func appendQuotedIdentifier(_ identifier: String, to sql: inout [UInt8]) throws {
        try appendIdentifier(identifier, quotedWith: UInt8(ascii: "\""), to: &sql)
    }

    public func appendPlaceholder(_ position: Int, to sql: inout [UInt8]) {
        sql.append(UInt8(ascii: "?"))
    }

    public func literal(_ value: Bool) -> String {
        value ? "1" : "0"
    }

    public var requiresLimitWithOffset: Bool { true }

    public var supportsReturning: Bool { SQLiteEngine.supportsReturning }

    public var supportsUpsert: Bool { SQLiteEngine.supportsUpsert }

    public func numberedPlaceholder(_ position: Int) -> String {
        "?\(position)"
    }

    public func columnType(_ affinity: ColumnDefinition.Affinity, primaryKey: ColumnDefinition.PrimaryKey?) -> String {
        switch primaryKey {
        case .plain: affinity.rawValue + " PRIMARY KEY"
        case .autoincrement: affinity.rawValue + " PRIMARY KEY AUTOINCREMENT"
        case nil: affinity.rawValue
        }
    }

    /// Integers and reals as written (an infinite real as `9e999`, which SQLite reads as
    /// infinity), text in single quotes, blobs as `X'…'` hexadecimal.
    public func literal(_ value: DatabaseValue) -> String {
        switch value {
        case .null:
            return "NULL"
        case .integer(let integer):
            return String(integer)
        case .real(let real):
            guard real.isFinite else { return real > 0 ? "9e999" : "-9e999" }
            return String(real)
        case .text(let text):
            return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let data):
            let digits = Array("0123456789ABCDEF".utf8)
            return "X'" + String(decoding: data.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }, as: UTF8.self) + "'"
        }
    }

    public var rowIDColumn: String { "rowid" }
}

extension SQLDialect where Self == SQLiteDialect {
    /// The SQLite dialect.
    public static var sqlite: SQLiteDialect { SQLiteDialect() }
}
