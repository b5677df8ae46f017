extension Table {
    /// The record whose primary key is `key`, or nil, in the transaction's engine.
    nonisolated(nonsending) public func find(
        primaryKey key: some DatabaseValueConvertible, in tx: some DatabaseTransaction
    ) async throws -> Element? {
        let statements = try await prepared(in: tx)
        return try await Element.records(of: statements.table.selectByKey, [key.databaseValue], in: tx).first
    }

    /// The records whose primary keys are among `keys` (an `IN` list), in no particular order.
    nonisolated(nonsending) public func findAll<Key: DatabaseValueConvertible>(
        primaryKeys keys: some Sequence<Key>, in tx: some DatabaseTransaction
    ) async throws -> [Element] {
        let keys = try keys.map { try $0.databaseValue }
        let statements = try await prepared(in: tx)
        var records = [Element]()
        for chunk in Self.chunks(of: keys) {
            let sql = "\(statements.table.selectAll) WHERE \(statements.table.keyExpression) IN ("
                + statements.table.placeholders(from: 1, count: chunk.count) + ")"
            records += try await Element.records(of: sql, Array(chunk), in: tx)
        }
        return records
    }

    /// Every record of the table, in no particular order.
    nonisolated(nonsending) public func findAll(in tx: some DatabaseTransaction) async throws -> [Element] {
        let statements = try await prepared(in: tx)
        return try await Element.records(of: statements.table.selectAll, [], in: tx)
    }

    /// The records for which `predicate` holds.
    nonisolated(nonsending) public func findAll(
        where predicate: SQLExpression, in tx: some DatabaseTransaction
    ) async throws -> [Element] {
        _ = try await prepared(in: tx)
        return try await query().filter(predicate).fetchAll(in: tx)
    }

    /// Calls `body` with each record of the table as it is read, holding one at a time, so
    /// any number of rows takes constant memory. Throwing from `body` stops the reading.
    nonisolated(nonsending) public func forEach(
        in tx: some DatabaseTransaction, _ body: nonisolated(nonsending) (Element) async throws -> Void
    ) async throws {
        let statements = try await prepared(in: tx)
        try await Element.forEachRecord(of: statements.table.selectAll, [], in: tx, body)
    }

    /// The number of rows of the table.
    nonisolated(nonsending) public func count(in tx: some DatabaseTransaction) async throws -> Int {
        let statements = try await prepared(in: tx)
        return try await tx.fetchOne(statements.count, [])?.value(at: 0, as: Int.self) ?? 0
    }

    /// The number of rows for which `predicate` holds.
    nonisolated(nonsending) public func count(
        where predicate: SQLExpression, in tx: some DatabaseTransaction
    ) async throws -> Int {
        _ = try await prepared(in: tx)
        return try await query().filter(predicate).fetchCount(in: tx)
    }

    /// `values` cut into lists of at most 500, as many as one `IN (…)` binds on every engine.
    static func chunks(of values: [DatabaseValue]) -> [ArraySlice<DatabaseValue>] {
        stride(from: 0, to: values.count, by: 500).map { values[$0..<min($0 + 500, values.count)] }
    }
}

extension Record {
    /// The records `sql` selects, read by one `RowReader` made from the result's columns.
    nonisolated(nonsending) static func records(
        of sql: String, _ arguments: [DatabaseValue], in tx: some DatabaseTransaction
    ) async throws -> [Self] {
        try await tx.fetchAll(sql, arguments, reading: rowReader(columnNames:))
    }

    /// Runs `sql` and calls `body` with the record of each row as it arrives.
    nonisolated(nonsending) static func forEachRecord(
        of sql: String, _ arguments: [DatabaseValue], in tx: some DatabaseTransaction,
        _ body: nonisolated(nonsending) (Self) async throws -> Void
    ) async throws {
        var reader: RowReader<Self>?
        try await tx.forEachRow(sql, arguments) { row in
            let rowReader = try reader ?? rowReader(columnNames: row.columnNames)
            reader = rowReader
            try await body(rowReader.read(row))
        }
    }
}
