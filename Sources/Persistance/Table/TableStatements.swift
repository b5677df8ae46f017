/// The SQL text of a table's fixed statements in one dialect: `CREATE TABLE` and its indexes,
/// insert, select all and by key, and the shapes of update, upsert and delete. A table
/// renders them once in SQLite's dialect when it is declared (its `TableSchema` keeps them);
/// another engine renders them once per table with its own dialect.
struct TableStatements<Dialect: SQLDialect>: Sendable {
    let dialect: Dialect
    let quotedName: String
    /// Each column's name, quoted, by slot.
    let quotedColumns: [String]
    /// The SQL naming the key of a row: the quoted primary key column, or the dialect's row id.
    let keyExpression: String
    let primaryKeySlot: Int?
    /// Whether the primary key column is the row id (an INTEGER primary key).
    let keyIsRowID: Bool

    let createTable: String
    let createIndexes: [String]
    /// `INSERT` of every column, parameter `n` for slot `n - 1`.
    let insert: String
    let selectAll: String
    /// `SELECT` of the row whose key (see `keyExpression`) is parameter 1.
    let selectByKey: String

    /// Why the dialect could not quote one of the names (a NUL inside), or nil; the table
    /// throws it from every operation.
    let renderingError: DatabaseError?

    /// Renders the statements of the table `name` with `columns` (primary key resolved) and
    /// `indexes`.
    init(
        _ dialect: Dialect, name: String, columns: [ColumnDefinition], primaryKeySlot: Int?, keyIsRowID: Bool,
        indexes: [IndexDefinition]
    ) {
        self.dialect = dialect
        self.primaryKeySlot = primaryKeySlot
        self.keyIsRowID = keyIsRowID
        var quote = IdentifierQuoter(dialect)
        let quotedName = quote(name)
        self.quotedName = quotedName
        let quotedColumns = columns.map { quote($0.name) }
        self.quotedColumns = quotedColumns
        keyExpression = primaryKeySlot.map { quotedColumns[$0] } ?? dialect.rowIDColumn

        createTable = "CREATE TABLE IF NOT EXISTS " + Self.tableSQL(quotedName, columns: columns, &quote)
        createIndexes = indexes.map { index in
            "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(quote(index.name)) ON \(quotedName) ("
                + index.columns.map { quote($0) }.joined(separator: ", ") + ")"
        }
        insert = Self.insert(into: quotedName, quotedColumns, columns, slots: Array(columns.indices), dialect)
        selectAll = "SELECT * FROM \(quotedName)"
        selectByKey = "\(selectAll) WHERE \(keyExpression) = \(Self.placeholder(1, dialect))"
        renderingError = quote.error
    }

    // MARK: Statement shapes

    /// `INSERT` of the columns in `slots` (parameter `n` for the `n`th of them), each column
    /// with a default expression taking it in place of NULL.
    static func insert(
        into quotedName: String, _ quotedColumns: [String], _ columns: [ColumnDefinition], slots: [Int],
        _ dialect: Dialect
    ) -> String {
        "INSERT INTO \(quotedName) (\(slots.map { quotedColumns[$0] }.joined(separator: ", "))) VALUES ("
            + slots.enumerated().map { position, slot in
                let parameter = dialect.numberedPlaceholder(position + 1)
                return columns[slot].defaultExpressionSQL.map { "COALESCE(\(parameter), \($0))" } ?? parameter
            }.joined(separator: ", ") + ")"
    }

    /// `UPDATE … SET` of the columns in `slots`, for the rows `condition` selects. Each
    /// column takes the parameter at the same position in `parameters`, or the next one.
    func update(slots: [Int], parameters: [String]? = nil, where condition: String) -> String {
        var next = 0
        let assignments = slots.enumerated().map { offset, slot in
            if let parameters { return "\(quotedColumns[slot]) = \(parameters[offset])" }
            next += 1
            return "\(quotedColumns[slot]) = \(placeholder(next))"
        }
        return "UPDATE \(quotedName) SET \(assignments.joined(separator: ", ")) WHERE \(condition)"
    }

    /// `UPDATE … SET` of the columns in `slots` (parameters 1 to `slots.count`) for the row
    /// whose key is the next parameter.
    func updateByKey(slots: [Int]) -> String {
        update(slots: slots, where: "\(keyExpression) = \(placeholder(slots.count + 1))")
    }

    /// `DELETE` of the rows `condition` selects.
    func delete(where condition: String) -> String {
        "DELETE FROM \(quotedName) WHERE \(condition)"
    }

    /// The comma-separated placeholders of `count` parameters from position `first` (from 1):
    /// an `IN (…)` list.
    func placeholders(from first: Int, count: Int) -> String {
        var sql: [UInt8] = []
        for position in first..<(first + count) {
            if position > first { sql.append(contentsOf: ", ".utf8) }
            dialect.appendPlaceholder(position, to: &sql)
        }
        return String(decoding: sql, as: UTF8.self)
    }

    /// The placeholder of the `position`th parameter (from 1) where parameters follow in order.
    func placeholder(_ position: Int) -> String {
        Self.placeholder(position, dialect)
    }

    private static func placeholder(_ position: Int, _ dialect: Dialect) -> String {
        var sql: [UInt8] = []
        dialect.appendPlaceholder(position, to: &sql)
        return String(decoding: sql, as: UTF8.self)
    }

    /// The parameter of the upsert on the unique column in `uniqueKeySlot` that says whether
    /// the column in `slot` is updated. The flags follow the columns' parameters densely, in
    /// the order of `upsertUpdatableSlots(uniqueKeySlot:)` then the unique column itself (when
    /// the upsert falls back to the primary key), so that the statement uses every parameter
    /// it numbers: PostgreSQL cannot type a parameter no expression uses.
    func upsertFlagParameter(slot: Int, uniqueKeySlot keySlot: Int) -> Int {
        let otherPrimaryKey = primaryKeySlot.flatMap { $0 == keySlot ? nil : $0 }
        var position = slot
        if slot == keySlot {
            position = quotedColumns.count - (otherPrimaryKey == nil ? 1 : 2)
        } else {
            if keySlot < slot { position -= 1 }
            if let otherPrimaryKey, otherPrimaryKey < slot { position -= 1 }
        }
        return quotedColumns.count + 1 + position
    }

    /// The columns an upsert on the unique column in `uniqueKeySlot` may update: all but
    /// that one and the primary key.
    func upsertUpdatableSlots(uniqueKeySlot keySlot: Int) -> [Int] {
        quotedColumns.indices.filter { $0 != keySlot && $0 != primaryKeySlot }
    }

    /// Whether an upsert on the unique column in `uniqueKeySlot` that finds no row by that
    /// column updates the row with the record's primary key (when there is one) before it
    /// inserts: the table has a primary key column apart from it.
    func upsertFallsBackToPrimaryKey(uniqueKeySlot keySlot: Int) -> Bool {
        primaryKeySlot.map { $0 != keySlot } ?? false
    }

    /// Whether the unique column in `slot` is the row id, so that an upsert on it needs no
    /// `RETURNING` to know the row it wrote.
    func isRowID(slot: Int) -> Bool {
        keyIsRowID && slot == primaryKeySlot
    }

    /// `INSERT` of every column (parameter `n` for slot `n - 1`) that, when the unique column
    /// in `uniqueKeySlot` conflicts, updates each updatable column whose flag parameter (see
    /// `upsertFlagParameter(slot:uniqueKeySlot:)`) is true and keeps the others; and when instead the
    /// primary key conflicts (see `upsertFallsBackToPrimaryKey(uniqueKeySlot:)`), does the
    /// same with the unique column among the updatable ones. Unless the unique column is the
    /// row id, it returns the row id of the row written.
    func upsert(uniqueKeySlot keySlot: Int) -> String {
        let sql = upsertWithoutReturning(uniqueKeySlot: keySlot)
        return isRowID(slot: keySlot) ? sql : sql + " RETURNING \(dialect.rowIDColumn)"
    }

    /// The upsert of `upsert(uniqueKeySlot:)` without its `RETURNING` clause.
    func upsertWithoutReturning(uniqueKeySlot keySlot: Int) -> String {
        let key = quotedColumns[keySlot]
        func assignments(_ slots: [Int]) -> String {
            guard !slots.isEmpty else { return "\(key) = excluded.\(key)" }
            return slots.map { slot in
                let column = quotedColumns[slot]
                let flag = dialect.numberedPlaceholder(upsertFlagParameter(slot: slot, uniqueKeySlot: keySlot))
                // The row's own value qualified by the table: PostgreSQL finds a bare name
                // ambiguous beside `excluded`; SQLite takes either.
                return "\(column) = CASE WHEN \(flag) THEN excluded.\(column) ELSE \(quotedName).\(column) END"
            }.joined(separator: ", ")
        }
        let updatable = upsertUpdatableSlots(uniqueKeySlot: keySlot)
        var sql = "\(insert) ON CONFLICT (\(key)) DO UPDATE SET \(assignments(updatable))"
        if upsertFallsBackToPrimaryKey(uniqueKeySlot: keySlot), let primaryKeySlot {
            sql += " ON CONFLICT (\(quotedColumns[primaryKeySlot])) DO UPDATE SET \(assignments(updatable + [keySlot]))"
        }
        return sql
    }

    // MARK: Definitions

    /// `CREATE TABLE` without `IF NOT EXISTS` under another quoted name, for rebuilding the
    /// table in its declared shape.
    static func createTable(as quotedName: String, columns: [ColumnDefinition], _ dialect: Dialect) -> String {
        var quote = IdentifierQuoter(dialect)
        return "CREATE TABLE " + tableSQL(quotedName, columns: columns, &quote)
    }

    /// `"name" (column definitions)`.
    private static func tableSQL(
        _ quotedName: String, columns: [ColumnDefinition], _ quote: inout IdentifierQuoter<Dialect>
    ) -> String {
        "\(quotedName) (" + columns.map { columnSQL($0, &quote) }.joined(separator: ", ") + ")"
    }

    /// A column's definition, as in `CREATE TABLE` and `ALTER TABLE … ADD COLUMN`.
    static func columnSQL(_ column: ColumnDefinition, _ quote: inout IdentifierQuoter<Dialect>) -> String {
        let dialect = quote.dialect
        var sql = "\(quote(column.name)) \(dialect.columnType(column))"
        if column.isNotNull { sql += " NOT NULL" }
        if column.isUnique { sql += " UNIQUE" }
        if let expression = column.defaultExpressionSQL {
            sql += " DEFAULT " + expression
        } else if let value = column.defaultValue {
            sql += " DEFAULT " + dialect.literal(value)
        }
        if let foreignKey = column.foreignKey { sql += " " + foreignKey.sql(&quote) }
        return sql
    }
}

/// Quotes names with a dialect, keeping the first error (a name the dialect refuses) for the
/// caller to report once its text is built.
struct IdentifierQuoter<Dialect: SQLDialect> {
    let dialect: Dialect
    private(set) var error: DatabaseError?

    init(_ dialect: Dialect) {
        self.dialect = dialect
    }

    /// `name` quoted; empty when the dialect refuses it (then `error` says why).
    mutating func callAsFunction(_ name: String) -> String {
        do {
            return try dialect.quotedIdentifier(name)
        } catch {
            self.error = self.error ?? (error as? DatabaseError ?? DatabaseError.invalidQuery(String(describing: error)))
            return ""
        }
    }
}
