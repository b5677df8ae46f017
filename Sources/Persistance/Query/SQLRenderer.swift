/// Turns pieces into one SQL statement and the values bound to it, then prepares (from the
/// connection's statement cache) and binds it.
///
/// Identifiers are quoted with `"` (a `"` inside is doubled); values become `?` parameters.
/// Raw fragments bring their own positional or named arguments: positional ones are bound
/// in the order their `?` appear among all the statement's `?`, named ones by name.
struct SQLRenderer {
    /// The SQL text as UTF-8: appending bytes is much cheaper than appending to a `String`.
    private var bytes: [UInt8] = []
    /// The values of the `?` parameters, in the order they appear.
    private(set) var values: [DatabaseValue] = []
    /// The values of the named parameters of raw fragments.
    private var namedValues: [String: DatabaseValue] = [:]
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

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends the pieces in order, each `.expression` piece as that expression's own pieces.
    /// Iterative, with an explicit stack of the enclosing expressions, so an expression nested
    /// any number of levels deep renders without deep recursion.
    mutating func append(_ pieces: [SQLPiece]) throws {
        var current = pieces.makeIterator()
        var enclosing: [IndexingIterator<[SQLPiece]>] = []
        while true {
            guard let piece = current.next() else {
                guard let outer = enclosing.popLast() else { return }
                current = outer
                continue
            }
            switch piece {
            case .text(let text): append(text)
            case .column(let name): try appendColumn(name)
            case .value(let value): appendValue(value)
            case .fragment(let fragment, let arguments): try appendFragment(fragment, arguments)
            case .invalid(let error): throw error
            case .expression(let node):
                enclosing.append(current)
                current = node.expression.pieces.makeIterator()
            }
        }
    }

    /// Appends each element, separated by `, `.
    mutating func appendList(_ elements: [some SQLRenderable]) throws {
        for (index, element) in elements.enumerated() {
            if index > 0 { append(", ") }
            try element.render(into: &self)
        }
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

    /// Lets the bare names of `selection`'s aliases refer to those result columns in the
    /// rest of the statement (`WHERE`, `GROUP BY`, `HAVING`, `ORDER BY`); call it after the
    /// result columns, which cannot refer to each other.
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
        values.append(value)
    }

    private mutating func appendFragment(_ fragment: String, _ arguments: StatementArguments) throws {
        if let failure = arguments.conversionError {
            throw DatabaseError(kind: .encoding, message: failure, sql: fragment)
        }
        try SQLFragment.validate(fragment)
        append(fragment)
        switch arguments.storage {
        case .positional(let positional):
            values.append(contentsOf: positional)
        case .named(let named):
            for (name, value) in named {
                if let existing = namedValues.updateValue(value, forKey: name), existing != value {
                    throw DatabaseError.invalidQuery("parameter :\(name) is given two different values", sql: fragment)
                }
            }
        }
    }

    // MARK: Running

    /// The statement for the SQL, from `conn`'s statement cache, with every parameter bound.
    func statement(in conn: Connection) throws -> Statement {
        let statement = try conn.cachedStatement(sql)
        try bind(statement)
        return statement
    }

    /// A cursor over the statement's rows; `makeDecoder` is called once, before the first row.
    func cursor<Element>(
        in conn: Connection, _ makeDecoder: (Statement) throws -> (Statement) throws -> Element
    ) throws -> Cursor<Element> {
        let statement = try statement(in: conn)
        return Cursor(statement: statement, decode: try makeDecoder(statement))
    }

    /// A cursor over the first column of the statement's rows, converted to `T`.
    func valueCursor<T: DatabaseValueConvertible>(in conn: Connection, as type: T.Type) throws -> Cursor<T> {
        try cursor(in: conn) { _ in { statement in try statement.value(at: 0, as: T.self) } }
    }

    /// Runs the statement to completion and returns the number of rows it changed.
    func execute(in conn: Connection) throws -> Int {
        let statement = try statement(in: conn)
        defer { statement.reset() }
        while try statement.step() {}
        return conn.changes
    }

    private func bind(_ statement: Statement) throws {
        guard !namedValues.isEmpty else {
            guard values.count == statement.parameterCount else {
                throw argumentError(statement, "statement takes \(statement.parameterCount) argument(s), \(values.count) given")
            }
            for (offset, value) in values.enumerated() {
                try statement.bind(value, at: offset + 1)
            }
            return
        }
        var positional = values.makeIterator()
        var usedNames = Set<String>()
        for (offset, name) in statement.parameterNames.enumerated() {
            let value: DatabaseValue
            if let name {
                guard let named = namedValues[name] else { throw argumentError(statement, "no argument for parameter :\(name)") }
                value = named
                usedNames.insert(name)
            } else {
                guard let next = positional.next() else { throw argumentError(statement, "not enough positional arguments") }
                value = next
            }
            try statement.bind(value, at: offset + 1)
        }
        if positional.next() != nil {
            throw argumentError(statement, "too many positional arguments")
        }
        if let unknown = namedValues.keys.sorted().first(where: { !usedNames.contains($0) }) {
            throw argumentError(statement, "statement has no parameter named \"\(unknown)\"")
        }
    }

    private func argumentError(_ statement: Statement, _ message: String) -> DatabaseError {
        DatabaseError(kind: .invalidArguments, message: message, sql: statement.sql)
    }
}
