extension Query {
    /// Every matching row, decoded as `Element`, in the transaction's engine: the query is
    /// rendered in its dialect (once per shape, then cached).
    nonisolated(nonsending) public func fetchAll(in tx: some DatabaseTransaction) async throws -> [Element] {
        let rendered = try clauses.sql(.select, in: tx.dialect)
        return try await Element.records(of: rendered.sql, rendered.values, in: tx)
    }

    /// The first matching row, decoded as `Element`, or nil when there is none. Runs the
    /// query with `LIMIT 1`.
    nonisolated(nonsending) public func fetchOne(in tx: some DatabaseTransaction) async throws -> Element? {
        let rendered = try clauses.first.sql(.select, in: tx.dialect)
        return try await Element.records(of: rendered.sql, rendered.values, in: tx).first
    }

    /// Calls `body` with each matching row, decoded as `Element`, as it is read, holding one
    /// at a time, so any number of rows takes constant memory. Throwing from `body` stops the
    /// query.
    nonisolated(nonsending) public func forEach(
        in tx: some DatabaseTransaction, _ body: nonisolated(nonsending) (Element) async throws -> Void
    ) async throws {
        let rendered = try clauses.sql(.select, in: tx.dialect)
        try await Element.forEachRecord(of: rendered.sql, rendered.values, in: tx, body)
    }

    /// The first column of every matching row, converted to `T`.
    nonisolated(nonsending) public func fetchAll<T: DatabaseValueConvertible>(
        _ type: T.Type, in tx: some DatabaseTransaction
    ) async throws -> [T] {
        let rendered = try clauses.sql(.select, in: tx.dialect)
        return try await tx.fetchAll(rendered.sql, rendered.values).map { try $0.value(at: 0, as: T.self) }
    }

    /// The first column of the first matching row, converted to `T`; nil when there is no
    /// row. Ask for an optional type (`Double?.self`) to read a NULL without an error.
    nonisolated(nonsending) public func fetchOne<T: DatabaseValueConvertible>(
        _ type: T.Type, in tx: some DatabaseTransaction
    ) async throws -> T? {
        try await firstValue(of: clauses.first.sql(.select, in: tx.dialect), as: T.self, in: tx)
    }

    /// The number of rows the query returns.
    nonisolated(nonsending) public func fetchCount(in tx: some DatabaseTransaction) async throws -> Int {
        try await firstValue(of: clauses.sql(.count, in: tx.dialect), as: Int.self, in: tx) ?? 0
    }

    /// Whether the query returns at least one row.
    nonisolated(nonsending) public func fetchExists(in tx: some DatabaseTransaction) async throws -> Bool {
        try await firstValue(of: clauses.sql(.exists, in: tx.dialect), as: Bool.self, in: tx) ?? false
    }

    /// Deletes every row the query matches and returns how many were deleted (see
    /// `deleteAll(_:)` of a `Connection`).
    @discardableResult
    nonisolated(nonsending) public func deleteAll(in tx: some DatabaseTransaction) async throws -> Int {
        let rendered = try clauses.sql(.delete, in: tx.dialect)
        return try await tx.execute(rendered.sql, rendered.values)
    }

    /// Sets columns of every row the query matches and returns how many rows were updated
    /// (see `updateAll(_:_:)` of a `Connection`). No assignment updates nothing and returns 0.
    @discardableResult
    nonisolated(nonsending) public func updateAll(
        in tx: some DatabaseTransaction, _ assignments: ColumnAssignment...
    ) async throws -> Int {
        guard !assignments.isEmpty else { return 0 }
        let rendered = try clauses.sql(.update(assignments), in: tx.dialect)
        return try await tx.execute(rendered.sql, rendered.values)
    }

    /// The first column of the first row `rendered` returns, converted to `T`.
    nonisolated(nonsending) private func firstValue<T: DatabaseValueConvertible>(
        of rendered: RenderedSQL, as type: T.Type, in tx: some DatabaseTransaction
    ) async throws -> T? {
        try await tx.fetchOne(rendered.sql, rendered.values)?.value(at: 0, as: T.self)
    }
}
