/// The SQL text of every query shape rendered so far, shared by every connection and thread,
/// so that a query built again with other values (the same builder chain, other bound values)
/// is not rendered again: the builder collects the query's shape and its values, and renders
/// the text only for a shape it has not seen.
///
/// The text does not depend on the connection, only on the shape (which includes whether
/// column references are qualified, and the dialect's type), so one cache serves every
/// database and every dialect. It holds at most
/// `capacity` shapes; when it is full it starts over, which only costs a render per shape.
/// Shapes of more than `maximumTokens` tokens (long `IN` lists) are rendered every time
/// rather than kept.
final class QueryRenderCache: Sendable {
    /// The cache the query builder uses.
    static let shared = QueryRenderCache(capacity: 512)

    /// The most shapes kept at once.
    let capacity: Int
    /// The most tokens a shape may have to be kept.
    static let maximumTokens = 1024

    private let texts: Guarded<[SQLShape: String]>

    init(capacity: Int) {
        self.capacity = capacity
        texts = Guarded([:])
    }

    /// The number of shapes kept.
    var count: Int { texts.withLock { $0.count } }

    /// Forgets every shape.
    func removeAll() {
        texts.withLock { $0.removeAll() }
    }

    /// `statement` of `clauses` in `dialect`, with its SQL text from the cache when its shape
    /// is there, else rendered and kept.
    func rendered(
        _ statement: QueryStatement, of clauses: QueryClauses, in dialect: any SQLDialect = SQLiteDialect()
    ) throws -> RenderedSQL {
        var collector = SQLShapeCollector(dialect: dialect, qualifyingColumnsWith: clauses.qualifyingTable)
        try clauses.write(statement, to: &collector)
        let sql = try text(of: collector.shape, statement, of: clauses, in: dialect)
        return RenderedSQL(sql: sql, arguments: collector.arguments)
    }

    /// The prepared statement of `statement` of `clauses` on `conn`, every parameter bound:
    /// what `rendered(_:of:in:)` gives, without allocating, collecting into the connection's
    /// buffers (see `QueryRenderBuffers`).
    func statement(_ statement: QueryStatement, of clauses: QueryClauses, on conn: Connection) throws -> Statement {
        let dialect = SQLiteDialect()
        var collector = SQLShapeCollector(
            dialect: dialect, qualifyingColumnsWith: clauses.qualifyingTable, buffers: conn.takeQueryRenderBuffers())
        try clauses.write(statement, to: &collector)
        let prepared = try conn.cachedStatement(try text(of: collector.shape, statement, of: clauses, in: dialect))
        try collector.arguments.bind(to: prepared)
        conn.queryRenderBuffers = collector.buffers()
        return prepared
    }

    /// The SQL text of `shape`, the shape of `statement` of `clauses`: from the cache, else
    /// rendered and kept.
    private func text(
        of shape: SQLShape, _ statement: QueryStatement, of clauses: QueryClauses, in dialect: any SQLDialect
    ) throws -> String {
        if let sql = texts.withLock({ $0[shape] }) { return sql }
        var renderer = SQLRenderer(dialect: dialect, qualifyingColumnsWith: clauses.qualifyingTable)
        try clauses.write(statement, to: &renderer)
        let sql = renderer.rendered.sql
        if shape.tokens.count <= Self.maximumTokens {
            texts.withLock { texts in
                if texts.count >= capacity { texts.removeAll(keepingCapacity: true) }
                texts[shape] = sql
            }
        }
        return sql
    }
}
