extension Table {
    /// Updates the row with the record's primary key to the record's values, in the
    /// transaction's engine; a nil property stores its column's default (or NULL). Returns
    /// whether a row was updated. A record without a primary key value is a
    /// `.missingPrimaryKey` error.
    @discardableResult
    nonisolated(nonsending) public func update(_ record: Element, in tx: some DatabaseTransaction) async throws -> Bool {
        try await update(contentsOf: CollectionOfOne(record), in: tx) > 0
    }

    /// Updates each record's row atomically, all or none; returns the number of rows updated.
    @discardableResult
    nonisolated(nonsending) public func update(
        contentsOf records: some Sequence<Element>, in tx: some DatabaseTransaction
    ) async throws -> Int {
        let statements = try await prepared(in: tx)
        return try await tx.savepoint { tx in
            let writer = RecordWriter(schema: schema)
            var changes = 0
            for record in records {
                guard let (slots, key) = try encodeUpdate(of: record, in: writer) else { continue }
                changes += try await tx.execute(
                    statements.table.updateByKey(slots: slots), writer.storedValues(slots) + [key])
            }
            return changes
        }
    }

    /// Deletes the row with the record's primary key, in the transaction's engine; returns
    /// whether a row was deleted. A record without a primary key value is a
    /// `.missingPrimaryKey` error.
    @discardableResult
    nonisolated(nonsending) public func delete(_ record: Element, in tx: some DatabaseTransaction) async throws -> Bool {
        try await delete(contentsOf: CollectionOfOne(record), in: tx) > 0
    }

    /// Deletes the rows of `records` atomically; returns the number of rows deleted.
    @discardableResult
    nonisolated(nonsending) public func delete(
        contentsOf records: some Sequence<Element>, in tx: some DatabaseTransaction
    ) async throws -> Int {
        if let error = schema.declarationError { throw error }
        let writer = RecordWriter(schema: schema)
        let keys = try records.map { record in
            try writer.encode(record)
            return try writer.requirePrimaryKeyValue()
        }
        return try await delete(primaryKeys: keys, in: tx)
    }

    /// Deletes the row whose primary key is `key`; returns whether one was.
    @discardableResult
    nonisolated(nonsending) public func delete(
        primaryKey key: some DatabaseValueConvertible, in tx: some DatabaseTransaction
    ) async throws -> Bool {
        try await delete(primaryKeys: [try key.databaseValue], in: tx) > 0
    }

    /// Deletes the rows whose primary keys are among `keys`, atomically; returns the number
    /// deleted. An empty list deletes nothing and runs no SQL.
    @discardableResult
    nonisolated(nonsending) public func delete<Key: DatabaseValueConvertible>(
        primaryKeys keys: some Sequence<Key>, in tx: some DatabaseTransaction
    ) async throws -> Int {
        let keys = try keys.map { try $0.databaseValue }
        guard !keys.isEmpty else { return 0 }
        let statements = try await prepared(in: tx)
        return try await tx.savepoint { tx in
            var changes = 0
            for chunk in Self.chunks(of: keys) {
                let condition = "\(statements.table.keyExpression) IN (\(statements.table.placeholders(from: 1, count: chunk.count)))"
                changes += try await tx.execute(statements.table.delete(where: condition), Array(chunk))
            }
            return changes
        }
    }

    /// Deletes the rows for which `predicate` holds; returns the number deleted.
    @discardableResult
    nonisolated(nonsending) public func deleteAll(
        where predicate: SQLExpression, in tx: some DatabaseTransaction
    ) async throws -> Int {
        _ = try await prepared(in: tx)
        return try await query().filter(predicate).deleteAll(in: tx)
    }
}
