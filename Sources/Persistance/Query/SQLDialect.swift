/// What differs in SQL text from one database engine to another, asked by the query builder
/// whenever it writes a statement and by a table for its fixed statements (`CREATE TABLE`,
/// insert, upsert, update, delete, find by key): identifier quoting, parameter placeholders,
/// literals, column types and keys, how LIMIT and OFFSET combine, and which optional clauses
/// the engine has.
///
/// A dialect is one value the renderer asks; the builder itself has no engine-specific text.
/// Rendered statements are cached per query shape and per dialect type, so a dialect type
/// must write the same text for the same shape every time (its answers may depend on the
/// engine the process links, which does not change while it runs).
///
/// The SQLite dialect, ``SQLiteDialect``, is what every query renders with on a `Connection`.
public protocol SQLDialect: Sendable {
    /// Appends `identifier` quoted to `sql` (UTF-8), so that any name, including one with
    /// quotes or spaces, is one identifier. Throws `invalidQuery` for a name the engine
    /// cannot take.
    func appendQuotedIdentifier(_ identifier: String, to sql: inout [UInt8]) throws

    /// Appends the placeholder of the `position`th parameter (from 1) to `sql` (UTF-8):
    /// `?` for SQLite, `$1` for engines that number them.
    func appendPlaceholder(_ position: Int, to sql: inout [UInt8])

    /// The SQL literal of a boolean constant.
    func literal(_ value: Bool) -> String

    /// Whether OFFSET needs a LIMIT before it; the builder then writes `LIMIT -1`, bound.
    var requiresLimitWithOffset: Bool { get }

    /// Whether the engine has `RETURNING` clauses.
    var supportsReturning: Bool { get }

    /// Whether the engine has `INSERT … ON CONFLICT DO UPDATE`.
    var supportsUpsert: Bool { get }

    /// Whether one `INSERT` may carry several `ON CONFLICT … DO UPDATE` clauses, each with
    /// its own conflict target (SQLite 3.35+; PostgreSQL allows one). Without it, an upsert
    /// by a unique column that falls back to the primary key looks the row up, then updates
    /// or inserts. By default, whether the engine has upserts at all.
    var supportsSeveralConflictTargets: Bool { get }

    /// The placeholder of the `position`th parameter (from 1) written with its number, for a
    /// statement that uses a parameter more than once: `?1` for SQLite, `$1` for engines that
    /// number every parameter.
    func numberedPlaceholder(_ position: Int) -> String

    /// A column's type in `CREATE TABLE`, followed by its primary key clause when it is the
    /// table's primary key: for SQLite, the affinity's name then `PRIMARY KEY` (and
    /// `AUTOINCREMENT` for a key that never reuses a value).
    func columnType(_ affinity: ColumnDefinition.Affinity, primaryKey: ColumnDefinition.PrimaryKey?) -> String

    /// `column`'s type in `CREATE TABLE` and `ALTER TABLE … ADD COLUMN`, followed by its
    /// primary key clause when it is the table's primary key. By default, the type of its
    /// affinity (`columnType(_:primaryKey:)`); an engine with richer types reads
    /// `column.valueType`.
    func columnType(_ column: ColumnDefinition) -> String

    /// `value` as an SQL literal, for a column's `DEFAULT`, which cannot be bound.
    func literal(_ value: DatabaseValue) -> String

    /// The hidden column that identifies a row of a table without a primary key column, and
    /// that an upsert on another unique column returns (SQLite's `rowid`).
    var rowIDColumn: String { get }
}

extension SQLDialect {
    /// Whether the engine has upserts: one that has them takes several conflict targets.
    public var supportsSeveralConflictTargets: Bool { supportsUpsert }

    /// The type of `column`'s affinity, followed by its primary key clause.
    public func columnType(_ column: ColumnDefinition) -> String {
        columnType(column.affinity, primaryKey: column.primaryKey)
    }

    /// `identifier` quoted (see `appendQuotedIdentifier(_:to:)`), as text.
    public func quotedIdentifier(_ identifier: String) throws -> String {
        var sql: [UInt8] = []
        try appendQuotedIdentifier(identifier, to: &sql)
        return String(decoding: sql, as: UTF8.self)
    }

    /// Appends `identifier` between `quote` characters, each `quote` inside doubled; a NUL
    /// character is an error, since it would end the SQL text early.
    public func appendIdentifier(_ identifier: String, quotedWith quote: UInt8, to sql: inout [UInt8]) throws {
        sql.append(quote)
        for byte in identifier.utf8 {
            if byte == 0 { throw DatabaseError.invalidQuery("identifier contains a NUL character") }
            if byte == quote { sql.append(quote) }
            sql.append(byte)
        }
        sql.append(quote)
    }
}
