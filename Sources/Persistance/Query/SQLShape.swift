/// The shape of a statement the query builder renders: everything that decides its SQL text
/// (keywords, operators, identifiers, column references, fragments, where the parameters go)
/// and none of the values bound to it. Two queries of the same shape have the same SQL text,
/// so the text is rendered once per shape (see `QueryRenderCache`).
///
/// Equality compares every token: two shapes that differ in one operator, one column, the
/// length of an `IN` list or a NULL comparison (`IS NULL` against `= ?`) are different.
/// The hash is a cheap fingerprint of the token kinds and lengths, computed while the tokens
/// are collected, so a lookup does not hash the text itself.
struct SQLShape: Hashable, Sendable {
    /// One token of the SQL text, as the writer received it.
    enum Token: Equatable, Sendable {
        case text(String)
        case identifier(String)
        case column(String)
        case value
        case fragment(String)
        /// A list of this many values (see `SQLPiece.values`).
        case values(Int)
    }

    /// The table that qualifies column references, or nil when they are bare.
    let qualifyingTable: String?
    /// The type of the dialect the text is written in: the same shape has another text in
    /// another dialect.
    let dialect: ObjectIdentifier
    private(set) var tokens: [Token]
    private var fingerprint: UInt64

    /// An empty shape whose tokens go into `buffer`, an empty array (whose capacity is used).
    init(qualifyingTable: String?, dialect: ObjectIdentifier, buffer: consuming [Token] = []) {
        self.qualifyingTable = qualifyingTable
        self.dialect = dialect
        fingerprint = qualifyingTable == nil ? 0 : 1
        tokens = buffer
        if tokens.capacity < 32 { tokens.reserveCapacity(32) }
    }

    mutating func append(_ token: Token) {
        let (kind, length): (UInt64, Int) = switch token {
        case .text(let text): (1, text.utf8.count)
        case .identifier(let name): (2, name.utf8.count)
        case .column(let name): (3, name.utf8.count)
        case .value: (4, 0)
        case .fragment(let fragment): (5, fragment.utf8.count)
        case .values(let count): (6, count)
        }
        // FNV-1a style mixing of one word per token.
        fingerprint = (fingerprint ^ (kind | UInt64(truncatingIfNeeded: length) << 3)) &* 0x100_0000_01B3
        tokens.append(token)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(fingerprint)
    }

    static func == (lhs: SQLShape, rhs: SQLShape) -> Bool {
        lhs.fingerprint == rhs.fingerprint && lhs.dialect == rhs.dialect && lhs.qualifyingTable == rhs.qualifyingTable
            && lhs.tokens == rhs.tokens
    }
}

/// Writes a statement as its `SQLShape` and collects the values bound to it, without
/// writing any SQL text: what the query builder does for a statement whose shape it has
/// rendered before.
///
/// It checks what depends on the values (each value's conversion, the arguments of raw
/// fragments) and leaves the checks of the text itself (identifiers, fragment syntax) to the
/// renderer, which has passed them for this shape when it is in the cache.
struct SQLShapeCollector: SQLWriter {
    let dialect: any SQLDialect
    private(set) var shape: SQLShape
    private(set) var arguments = SQLArguments()

    /// A collector writing into `buffers` (see `QueryRenderBuffers`).
    init(
        dialect: any SQLDialect, qualifyingColumnsWith qualifyingTable: String?,
        buffers: consuming QueryRenderBuffers = QueryRenderBuffers()
    ) {
        self.dialect = dialect
        shape = SQLShape(
            qualifyingTable: qualifyingTable, dialect: ObjectIdentifier(type(of: dialect)), buffer: buffers.tokens)
        arguments = SQLArguments(buffer: buffers.values)
    }

    /// The buffers, to collect the next statement into.
    consuming func buffers() -> QueryRenderBuffers {
        QueryRenderBuffers(tokens: shape.tokens, values: arguments.values)
    }

    mutating func append(_ text: String) {
        shape.append(.text(text))
    }

    mutating func appendIdentifier(_ name: String) {
        shape.append(.identifier(name))
    }

    mutating func appendColumn(_ name: String) {
        shape.append(.column(name))
    }

    mutating func appendColumn(_ name: String, of table: String) {
        shape.append(.identifier(table))
        shape.append(.column(name))
    }

    mutating func appendBoolean(_ value: Bool) {
        shape.append(.text(value ? "1" : "0"))
    }

    mutating func appendValue(_ value: DatabaseValue) {
        shape.append(.value)
        arguments.append(value)
    }

    mutating func appendValues(_ values: [DatabaseValue]) {
        shape.append(.values(values.count))
        for value in values {
            arguments.append(value)
        }
    }

    mutating func appendFragment(_ fragment: String, _ arguments: StatementArguments) throws {
        try self.arguments.append(arguments, of: fragment)
        shape.append(.fragment(fragment))
    }

    /// Nothing to do: which names are aliases follows from the result columns, which are in the shape.
    mutating func bringIntoScope(aliasesOf selection: [SQLSelection]) {}

    /// Records the subquery's qualifying table, which decides its text.
    mutating func enterScope(qualifyingColumnsWith qualifyingTable: String?) -> SQLColumnScope {
        shape.append(.identifier(qualifyingTable ?? ""))
        return SQLColumnScope()
    }

    mutating func leaveScope(_ scope: SQLColumnScope) {}
}
