/// The SQL text of SQLite, and of the SQLite engine this build links: `"name"` identifiers,
/// `?` parameters, `1` and `0` for true and false, `LIMIT -1 OFFSET ?` for an offset alone,
/// and UPSERT and RETURNING when the engine has them (see `SQLiteEngine`).
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
}

extension SQLDialect where Self == SQLiteDialect {
    /// The SQLite dialect.
    public static var sqlite: SQLiteDialect { SQLiteDialect() }
}
