extension Table {
    /// A query of every row of this table, to refine with `filter`, `order`, `limit`…
    /// ```swift
    /// let top = try players.query().order(Column("score").desc).limit(3).fetchAll(conn)
    /// ```
    public func query() -> Query<Element> {
        Query(table: name)
    }
}
