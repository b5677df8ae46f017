/// A table declaration checked once and turned into everything its operations need: the
/// column slots, defaults, primary key, and the SQL of the fixed statements, rendered once
/// in SQLite's dialect (`statements`).
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
    /// The slots of the `Date` columns stored as SQLite's date text (value type `.date`).
    let dateSlots: [Int]
    let primaryKeySlot: Int?
    /// The primary key column when it is an alias of the row id (an INTEGER primary key).
    @usableFromInline let rowIDColumn: String?
    /// The SQL naming the key of a row: the quoted primary key column, or `rowid`.
    @usableFromInline let keyExpression: String
    /// The folded names of the columns whose value identifies one row.
    let uniqueColumns: Set<String>
    /// Whether writing a record drops its properties that have no column, rather than failing.
    let ignoresUnknownProperties: Bool

    /// The fixed statements in SQLite's dialect; the properties below are theirs, kept at
    /// hand for the inlinable fast paths.
    let statements: TableStatements<SQLiteDialect>
    let createTableSQL: String
    let createIndexSQL: [String]
    /// `INSERT` of every column, parameter `n` for slot `n - 1`.
    @usableFromInline let insertSQL: String
    @usableFromInline let selectSQL: String
    /// `SELECT` of the row whose key (see `keyExpression`) is parameter 1.
    @usableFromInline let selectByKeySQL: String
    /// The connections on which the table was created inside a transaction that may roll back.
    let uncommittedCreations = UncommittedTableCreations()
    /// The statements of the portable operations, rendered once per dialect type.
    let portableStatements = PortableStatementsCache()

    init(
        name: String, primaryKey: String?, columns: [ColumnDefinition], indexes: [IndexDefinition],
        ignoresUnknownProperties: Bool = false
    ) {
        self.name = name
        self.ignoresUnknownProperties = ignoresUnknownProperties
        let indexes = indexes + Self.foreignKeyIndexes(table: name, columns: columns, declared: indexes)
        self.indexes = indexes
        var slots = [String: Int]()
        for (slot, column) in columns.enumerated() where slots[RowColumns.fold(column.name)] == nil {
            slots[RowColumns.fold(column.name)] = slot
        }
        slotByFoldedName = slots
        columnNames = columns.map(\.name)
        defaults = columns.map(\.defaultValue)
        dateSlots = columns.indices.filter { columns[$0].valueType == .date }

        let keySlot = primaryKey.flatMap { slots[RowColumns.fold($0)] } ?? columns.firstIndex { $0.primaryKey != nil }
        var resolved = columns
        if let keySlot, resolved[keySlot].primaryKey == nil { resolved[keySlot].primaryKey = .plain }
        self.columns = resolved
        primaryKeySlot = keySlot
        self.primaryKey = keySlot.map { resolved[$0].name }
        rowIDColumn = keySlot.flatMap { resolved[$0].affinity == .integer ? resolved[$0].name : nil }
        let statements = TableStatements(
            SQLiteDialect(), name: name, columns: resolved, primaryKeySlot: keySlot, keyIsRowID: rowIDColumn != nil,
            indexes: indexes)
        self.statements = statements
        quotedName = statements.quotedName
        keyExpression = statements.keyExpression
        declarationError = Self.check(
            name: name, primaryKey: primaryKey, columns: columns, indexes: indexes, slots: slots)
            ?? statements.renderingError

        var unique = Set(resolved.filter { $0.isUnique || $0.primaryKey != nil }.map { RowColumns.fold($0.name) })
        for index in indexes where index.isUnique && index.columns.count == 1 {
            unique.insert(RowColumns.fold(index.columns[0]))
        }
        uniqueColumns = unique

        createTableSQL = statements.createTable
        createIndexSQL = statements.createIndexes
        insertSQL = statements.insert
        selectSQL = statements.selectAll
        selectByKeySQL = statements.selectByKey
    }

    /// The table's fixed statements in `dialect`, rendered anew: an engine other than SQLite
    /// renders them once per table and keeps them (SQLite's are `statements`).
    func statements<Dialect: SQLDialect>(in dialect: Dialect) -> TableStatements<Dialect> {
        TableStatements(
            dialect, name: name, columns: columns, primaryKeySlot: primaryKeySlot, keyIsRowID: rowIDColumn != nil,
            indexes: indexes)
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

    /// `UPDATE … SET` of the columns in `slots` (see `TableStatements.update(slots:parameters:where:)`).
    func updateSQL(slots: [Int], parameters: [String]? = nil, where condition: String) -> String {
        statements.update(slots: slots, parameters: parameters, where: condition)
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

    /// `CREATE TABLE` without `IF NOT EXISTS` under another quoted name, for rebuilding the
    /// table in its declared shape.
    func createTableSQL(as quotedName: String) -> String {
        TableStatements.createTable(as: quotedName, columns: columns, SQLiteDialect())
    }

    /// A column's definition in SQLite, as in `ALTER TABLE … ADD COLUMN`.
    static func columnSQL(_ column: ColumnDefinition) -> String {
        var quote = IdentifierQuoter(SQLiteDialect())
        return TableStatements.columnSQL(column, &quote)
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
