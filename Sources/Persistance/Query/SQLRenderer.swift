/// Writes a statement as SQL text and collects the values bound to it.
///
/// Identifiers are quoted with `"` (a `"` inside is doubled); values become `?` parameters.
/// Raw fragments bring their own positional or named arguments: positional ones are bound
/// in the order their `?` appear among all the statement's `?`, named ones by name.
struct SQLRenderer: SQLWriter {
    /// The SQL text as UTF-8: appending bytes is much cheaper than appending to a `String`.
    private var bytes: [UInt8] = []
    /// The values the statement binds.
    private(set) var arguments = SQLArguments()
    /// The table whose name qualifies column references, or nil to write them bare.
    private let qualifyingTable: String?
    /// The result-column aliases that bare names may refer to here (see `appendColumn(_:)`).
    private var aliasesInScope: [String] = []

    /// A renderer that writes column references bare (`"score"`), or qualified with
    /// `qualifyingTable` (`"player"."score"`) when it is given.
    init(qualifyingColumnsWith qualifyingTable: String? = nil) {
        self.qualifyingTable = qualifyingTable
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

    /// Appends `name` as a quoted identifier, with each `"` inside doubled. A NUL character
    /// would end the SQL text early for SQLite, so it is an error.
    mutating func appendIdentifier(_ name: String) throws {
        let quote = UInt8(ascii: "\"")
        bytes.append(quote)
        for byte in name.utf8 {
            if byte == 0 { throw DatabaseError.invalidQuery("identifier contains a NUL character") }
            if byte == quote { bytes.append(quote) }
            bytes.append(byte)
        }
        bytes.append(quote)
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
        if let qualifyingTable, !aliasesInScope.contains(where: { Self.sameName($0, name) }) {
            try appendIdentifier(qualifyingTable)
            bytes.append(UInt8(ascii: "."))
        }
        try appendIdentifier(name)
    }

    mutating func bringIntoScope(aliasesOf selection: [SQLSelection]) {
        guard qualifyingTable != nil else { return }
        aliasesInScope = selection.compactMap(\.alias)
    }

    /// Whether two names are the same for SQLite: equal but for the case of ASCII letters.
    private static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        func folded(_ byte: UInt8) -> UInt8 {
            (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        }
        return lhs.utf8.count == rhs.utf8.count && zip(lhs.utf8, rhs.utf8).allSatisfy { folded($0) == folded($1) }
    }

    mutating func appendValue(_ value: DatabaseValue) {
        bytes.append(UInt8(ascii: "?"))
        arguments.append(value)
    }

    mutating func appendFragment(_ fragment: String, _ arguments: StatementArguments) throws {
        try self.arguments.append(arguments, of: fragment)
        try SQLFragment.validate(fragment)
        append(fragment)
    }
}
