/// Writes a statement as SQL text and collects the values bound to it.
///
/// Identifiers, parameters and constants are written as `dialect` writes them (for SQLite:
/// `"name"` with a `"` inside doubled, and `?`).
/// Raw fragments bring their own positional or named arguments: positional ones are bound
/// in the order their `?` appear among all the statement's `?`, named ones by name.
struct SQLRenderer: SQLWriter {
    /// The SQL text as UTF-8: appending bytes is much cheaper than appending to a `String`.
    private var bytes: [UInt8] = []
    /// The values the statement binds.
    private(set) var arguments = SQLArguments()
    let dialect: any SQLDialect
    /// The table that qualifies bare column references (nil to write them bare), and the
    /// result-column aliases that bare names may refer to here (see `appendColumn(_:)`).
    private var scope: SQLColumnScope

    /// A renderer in `dialect` that writes column references bare (`"score"`), or qualified
    /// with `qualifyingTable` (`"player"."score"`) when it is given.
    init(dialect: any SQLDialect = SQLiteDialect(), qualifyingColumnsWith qualifyingTable: String? = nil) {
        self.dialect = dialect
        scope = SQLColumnScope(qualifyingTable: qualifyingTable)
        bytes.reserveCapacity(256)
    }

    /// The SQL text.
    var sql: String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The values of the `?` parameters, in the order they appear.
    var values: [DatabaseValue] { arguments.values }

    /// The SQL text and its arguments.
    var rendered: RenderedSQL {
        RenderedSQL(sql: sql, arguments: arguments)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends `name` as a quoted identifier (see `SQLDialect.appendQuotedIdentifier(_:to:)`).
    mutating func appendIdentifier(_ name: String) throws {
        try dialect.appendQuotedIdentifier(name, to: &bytes)
    }

    /// Appends a reference to the column `name`: bare, or qualified with the table's name
    /// (`"player"."name"`) when the renderer qualifies columns, unless `name` is one of the
    /// result-column aliases in scope.
    ///
    /// SQLite before 3.29 (the SQLCipher build) reads a double-quoted name that matches no
    /// column as a string literal, so a bare `"bogus" = 'bogus'` is true for every row; a
    /// qualified name that matches no column is an error on every version. Qualifying lets
    /// SQLite itself resolve the name with all its rules (any letter case, `rowid`, views,
    /// `WITHOUT ROWID`), costs nothing at run time and needs no schema, where checking names
    /// against `PRAGMA table_info` would duplicate those rules and need a schema cache. A
    /// qualified name cannot refer to a result-column alias, so aliases stay bare; SQLite
    /// matches them ignoring ASCII case, and so does this check.
    mutating func appendColumn(_ name: String) throws {
        if let qualifyingTable = scope.qualifyingTable, !scope.aliases.contains(where: { Self.sameName($0, name) }) {
            return try appendColumn(name, of: qualifyingTable)
        }
        try appendIdentifier(name)
    }

    mutating func appendColumn(_ name: String, of table: String) throws {
        try appendIdentifier(table)
        bytes.append(UInt8(ascii: "."))
        try appendIdentifier(name)
    }

    mutating func bringIntoScope(aliasesOf selection: [SQLSelection]) {
        guard scope.qualifyingTable != nil else { return }
        scope.aliases = selection.compactMap(\.alias)
    }

    mutating func enterScope(qualifyingColumnsWith qualifyingTable: String?) -> SQLColumnScope {
        defer { scope = SQLColumnScope(qualifyingTable: qualifyingTable) }
        return scope
    }

    mutating func leaveScope(_ scope: SQLColumnScope) {
        self.scope = scope
    }

    /// Whether two names are the same for SQLite: equal but for the case of ASCII letters.
    private static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        func folded(_ byte: UInt8) -> UInt8 {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        }
        return lhs.utf8.count == rhs.utf8.count && zip(lhs.utf8, rhs.utf8).allSatisfy { folded($0) == folded($1) }
    }

    mutating func appendValue(_ value: DatabaseValue) {
        arguments.append(value)
        dialect.appendPlaceholder(arguments.values.count, to: &bytes)
    }

    mutating func appendValues(_ values: [DatabaseValue]) {
        for (index, value) in values.enumerated() {
            if index > 0 { append(", ") }
            appendValue(value)
        }
    }

    mutating func appendBoolean(_ value: Bool) {
        append(dialect.literal(value))
    }

    mutating func appendFragment(_ fragment: String, _ arguments: StatementArguments) throws {
        try self.arguments.append(arguments, of: fragment)
        try SQLFragment.validate(fragment)
        append(fragment)
    }
}
