/// The arrays a connection lends the query builder to collect a statement's shape and values
/// into, kept from one statement to the next, so that a query whose SQL text is cached
/// allocates nothing to find it (see `QueryRenderCache.statement(_:of:on:)`). Only the thread
/// that holds the connection uses them.
struct QueryRenderBuffers {
    var tokens: [SQLShape.Token] = []
    var values: [DatabaseValue] = []
}

extension Connection {
    /// The connection's `queryRenderBuffers`, moved out (the connection keeps none) and
    /// emptied, their capacity kept: the caller holds the only reference, so neither emptying
    /// nor appending copies them.
    func takeQueryRenderBuffers() -> QueryRenderBuffers {
        var buffers = QueryRenderBuffers()
        swap(&buffers, &queryRenderBuffers)
        buffers.tokens.removeAll(keepingCapacity: true)
        buffers.values.removeAll(keepingCapacity: true)
        return buffers
    }
}
