/// A table declaration checked once and turned into everything its operations need: the
/// column slots, defaults, primary key, and the SQL of the fixed statements.
///
/// Identifiers are always quoted; values are always bound. The only values written into
/// SQL are the declared defaults, in `CREATE TABLE`, where SQLite cannot bind.
@usableFromInline
final class TableSchema: Sendable {
    let name: String
    let columns: [ColumnDefinition]
    let indexes: [IndexDefinition]
    /// The primary key column's name; nil when the table is keyed by its `rowid`.
    let primaryKey: String?
    /// Why the declaration is unusable, thrown by every operation; nil when it is fine.
    let declarationError: DatabaseError?

    @usableFromInline let quotedName: String
    let columnNames: [String]
    let slotByFoldedName: [String: Int]
    let defaults: [DatabaseValue?]
    let primaryKeySlot: Int?
    /// The primary key column when it is an alias of the row id (an INTEGER primary key).
    @usableFromInline let rowIDColumn: String?
    /// The SQL naming the key of a row: the quoted primary key column, or `rowid`.
    @usableFromInline let keyExpression: String
    /// The folded names of the columns whose value identifies one row.
    let uniqueColumns: Set<String>
    /// Whether writing a record drops its properties that have no column, rather than failing.
    let ignoresUnknownProperties: Bool

    let createTableSQL: String
    let createIndexSQL: [String]
    /// `INSERT` of every column, parameter `n` for slot `n - 1`.
    @usableFromInline let insertSQL: String
    @usableFromInline let selectSQL: String
    /// `SELECT` of the row whose key (see `keyExpression`) is parameter 1.
    @usableFromInline let selectByKeySQL: String
    /// The connections on which the table was created inside a transaction that may roll back.
    let uncommittedCreations = UncommittedTableCreations()

    init(
        name: String, primaryKey: String?, columns: [ColumnDefinition], indexes: [IndexDefinition],
        ignoresUnknownProperties: Bool = false
    ) {
        self.name = name
        self.ignoresUnknownProperties = ignoresUnknownProperties
        let indexes = indexes + Self.foreignKeyIndexes(table: name, columns: columns, declared: indexes)
        self.indexes = indexes
        quotedName = Self.quote(name)
        var slots = [String: Int]()
        for (slot, column) in columns.enumerated() where slots[RowColumns.fold(column.name)] == nil {
            slots[RowColumns.fold(column.name)] = slot
        }
        slotByFoldedName = slots
        columnNames = columns.map(\.name)
        defaults = columns.map(\.defaultValue)

        let keySlot = primaryKey.flatMap { slots[RowColumns.fold($0)] } ?? columns.firstIndex { $0.primaryKey != nil }
        var resolved = columns
        if let keySlot, resolved[keySlot].primaryKey == nil { resolved[keySlot].primaryKey = .plain }
        self.columns = resolved
        primaryKeySlot = keySlot
        self.primaryKey = keySlot.map { resolved[$0].name }
        rowIDColumn = keySlot.flatMap { resolved[$0].affinity == .integer ? resolved[$0].name : nil }
        keyExpression = keySlot.map { Self.quote(resolved[$0].name) } ?? "rowid"
        declarationError = Self.check(
            name: name, primaryKey: primaryKey, columns: columns, indexes: indexes, slots: slots)

        var unique = Set(resolved.filter { $0.isUnique || $0.primaryKey != nil }.map { RowColumns.fold($0.name) })
        for index in indexes where index.isUnique && index.columns.count == 1 {
            unique.insert(RowColumns.fold(index.columns[0]))
        }
        uniqueColumns = unique

        let quotedColumns = columnNames.map(Self.quote).joined(separator: ", ")
        createTableSQL = "CREATE TABLE IF NOT EXISTS " + Self.tableSQL(quotedName, columns: resolved)
        createIndexSQL = indexes.map { index in
            "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(Self.quote(index.name)) ON \(Self.quote(name)) ("
                + index.columns.map(Self.quote).joined(separator: ", ") + ")"
        }
        insertSQL = "INSERT INTO \(quotedName) (\(quotedColumns)) VALUES ("
            + columns.indices.map { slot in
                columns[slot].defaultExpressionSQL.map { "COALESCE(?\(slot + 1), \($0))" } ?? "?\(slot + 1)"
            }.joined(separator: ", ") + ")"
        selectSQL = "SELECT * FROM \(quotedName)"
        selectByKeySQL = "\(selectSQL) WHERE \(keyExpression) = ?"
    }

    /// The slot of `column` (ASCII case-insensitive), if the table has it.
    func slot(of column: String) -> Int? {
        slotByFoldedName[RowColumns.fold(column)]
    }

    /// A buffer laid out on the table's columns, for one operation's records.
    func makeBuffer() -> RecordValueBuffer {
        RecordValueBuffer(
            columns: columnNames, slotByFoldedName: slotByFoldedName, defaults: defaults, table: name,
            ignoresUnknownColumns: ignoresUnknownProperties)
    }

    /// The value to store in `slot` for `value`: a NULL becomes the column's default.
    @inline(__always)
    func storedValue(_ value: DatabaseValue?, slot: Int) -> DatabaseValue {
        guard let value, !value.isNull else { return defaults[slot] ?? .null }
        return value
    }

    /// `UPDATE … SET` of the columns in `slots`, for the rows `condition` selects. Each
    /// column takes the parameter at the same position in `parameters`, or `?` by default.
    func updateSQL(slots: [Int], parameters: [String]? = nil, where condition: String) -> String {
        let assignments = slots.enumerated().map { offset, slot in
            "\(Self.quote(columnNames[slot])) = \(parameters?[offset] ?? "?")"
        }
        return "UPDATE \(quotedName) SET \(assignments.joined(separator: ", ")) WHERE \(condition)"
    }

    /// The columns an upsert on the unique column in `uniqueKeySlot` may update: all but
    /// that one and the primary key.
    func upsertUpdatableSlots(uniqueKeySlot keySlot: Int) -> [Int] {
        columnNames.indices.filter { $0 != keySlot && $0 != primaryKeySlot }
    }

    /// The parameter of the upsert statement that says whether the column in `slot` is updated.
    func upsertFlagParameter(slot: Int) -> Int {
        columnNames.count + 1 + slot
    }

    /// Whether the unique column in `slot` is the row id, so that an upsert on it needs no
    /// `RETURNING` to know the row it wrote.
    func isRowID(slot: Int) -> Bool {
        rowIDColumn != nil && slot == primaryKeySlot
    }

    /// Whether an upsert on the unique column in `uniqueKeySlot` that finds no row by that
    /// column updates the row with the record's primary key (when there is one), unique
    /// column included, before it inserts: the table has a primary key column apart from it.
    func upsertFallsBackToPrimaryKey(uniqueKeySlot keySlot: Int) -> Bool {
        primaryKeySlot.map { $0 != keySlot } ?? false
    }

    /// `INSERT` of every column (parameter `n` for slot `n - 1`) that, when the unique column
    /// in `uniqueKeySlot` conflicts, updates each updatable column whose flag parameter (see
    /// `upsertFlagParameter(slot:)`) is true and keeps the others; and when instead the
    /// primary key conflicts (see `upsertFallsBackToPrimaryKey(uniqueKeySlot:)`), does the
    /// same with the unique column among the updatable ones. Unless the unique column is the
    /// row id, it returns the row id of the row written.
    func upsertSQL(uniqueKeySlot keySlot: Int) -> String {
        let key = Self.quote(columnNames[keySlot])
        func assignments(_ slots: [Int]) -> String {
            guard !slots.isEmpty else { return "\(key) = excluded.\(key)" }
            return slots.map { slot in
                let column = Self.quote(columnNames[slot])
                return "\(column) = CASE WHEN ?\(upsertFlagParameter(slot: slot)) THEN excluded.\(column) ELSE \(column) END"
            }.joined(separator: ", ")
        }
        let updatable = upsertUpdatableSlots(uniqueKeySlot: keySlot)
        var sql = "\(insertSQL) ON CONFLICT (\(key)) DO UPDATE SET \(assignments(updatable))"
        if upsertFallsBackToPrimaryKey(uniqueKeySlot: keySlot), let primaryKey {
            sql += " ON CONFLICT (\(Self.quote(primaryKey))) DO UPDATE SET \(assignments(updatable + [keySlot]))"
        }
        return isRowID(slot: keySlot) ? sql : sql + " RETURNING rowid"
    }

    // MARK: SQL text

    /// A column name a caller passed, as SQL qualified with the table's name. SQLite before
    /// 3.29 (the SQLCipher build) reads an unknown double-quoted name as a string literal, so
    /// an unknown or hostile bare name could compare equal to a value and match every row;
    /// an unknown qualified name is an error on every engine.
    @usableFromInline
    func columnReference(_ column: String) -> String {
        "\(quotedName).\(Self.quote(column))"
    }

    /// `identifier` as a quoted SQL identifier: `"` around it, any `"` inside doubled.
    @usableFromInline
    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `count` comma-separated `?` parameters.
    static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// `CREATE TABLE` without `IF NOT EXISTS` under another quoted name, for rebuilding the
    /// table in its declared shape.
    func createTableSQL(as quotedName: String) -> String {
        "CREATE TABLE " + Self.tableSQL(quotedName, columns: columns)
    }

    /// `"name" (column definitions)`.
    private static func tableSQL(_ quotedName: String, columns: [ColumnDefinition]) -> String {
        "\(quotedName) (" + columns.map(columnSQL).joined(separator: ", ") + ")"
    }

    /// A column's definition, as in `CREATE TABLE` and `ALTER TABLE … ADD COLUMN`.
    static func columnSQL(_ column: ColumnDefinition) -> String {
        var sql = "\(quote(column.name)) \(column.affinity.rawValue)"
        switch column.primaryKey {
        case .plain: sql += " PRIMARY KEY"
        case .autoincrement: sql += " PRIMARY KEY AUTOINCREMENT"
        case nil: break
        }
        if column.isNotNull { sql += " NOT NULL" }
        if column.isUnique { sql += " UNIQUE" }
        if let expression = column.defaultExpressionSQL {
            sql += " DEFAULT " + expression
        } else if let value = column.defaultValue {
            sql += " DEFAULT " + literal(value)
        }
        if let foreignKey = column.foreignKey { sql += " " + foreignKey.sql }
        return sql
    }

    /// An index for each referencing column that no declared index starts with and that is
    /// not unique already: SQLite looks the referencing rows up whenever a referenced row is
    /// deleted or changes key.
    private static func foreignKeyIndexes(
        table: String, columns: [ColumnDefinition], declared: [IndexDefinition]
    ) -> [IndexDefinition] {
        columns.filter { column in
            column.foreignKey != nil && !column.isUnique && column.primaryKey == nil
                && !declared.contains { $0.columns.first.map(RowColumns.fold) == RowColumns.fold(column.name) }
        }.map { IndexDefinition("\(table)_\($0.name)_fkey", on: [$0.name]) }
    }

    /// A declared default as an SQL literal (a `CREATE TABLE` default cannot be bound).
    private static func literal(_ value: DatabaseValue) -> String {
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

    // MARK: Checking the declaration

    private static func check(
        name: String, primaryKey: String?, columns: [ColumnDefinition], indexes: [IndexDefinition],
        slots: [String: Int]
    ) -> DatabaseError? {
        func invalid(_ message: String) -> DatabaseError {
            DatabaseError(kind: .invalidTable, message: "table \"\(name)\": \(message)")
        }
        if name.isEmpty { return invalid("the name is empty") }
        if columns.isEmpty { return invalid("no columns are declared") }
        if let column = columns.first(where: { $0.name.isEmpty }) {
            return invalid("a column has an empty name (\(column.affinity.rawValue))")
        }
        if slots.count != columns.count {
            let duplicate = columns.first { column in
                columns.filter { RowColumns.fold($0.name) == RowColumns.fold(column.name) }.count > 1
            }
            return invalid("column \"\(duplicate?.name ?? "")\" is declared twice")
        }
        let keyColumns = columns.filter { $0.primaryKey != nil }
        if keyColumns.count > 1 {
            return invalid("more than one column is a primary key; composite primary keys are not supported")
        }
        if let primaryKey {
            guard slots[RowColumns.fold(primaryKey)] != nil else {
                return invalid("the primary key \"\(primaryKey)\" is not a declared column")
            }
            if let keyColumn = keyColumns.first, RowColumns.fold(keyColumn.name) != RowColumns.fold(primaryKey) {
                return invalid("the primary key is \"\(primaryKey)\" but column \"\(keyColumn.name)\" is declared as one")
            }
        }
        if let column = columns.first(where: { $0.primaryKey == .autoincrement && $0.affinity != .integer }) {
            return invalid("AUTOINCREMENT needs an INTEGER column, not \"\(column.name)\" \(column.affinity.rawValue)")
        }
        if let column = columns.first(where: { column in
            if case .real(let real) = column.defaultValue { return real.isNaN }
            return false
        }) {
            return invalid("the default of \"\(column.name)\" is NaN, which SQLite stores as NULL")
        }
        if let column = columns.first(where: { $0.foreignKey?.table.isEmpty == true }) {
            return invalid("the foreign key of \"\(column.name)\" names no table")
        }
        var indexNames = Set<String>()
        for index in indexes {
            if index.name.isEmpty { return invalid("an index has an empty name") }
            if !indexNames.insert(RowColumns.fold(index.name)).inserted {
                return invalid("index \"\(index.name)\" is declared twice")
            }
            if index.columns.isEmpty { return invalid("index \"\(index.name)\" has no columns") }
            if let unknown = index.columns.first(where: { slots[RowColumns.fold($0)] == nil }) {
                return invalid("index \"\(index.name)\" is on \"\(unknown)\", which is not a declared column")
            }
        }
        return nil
    }
}
