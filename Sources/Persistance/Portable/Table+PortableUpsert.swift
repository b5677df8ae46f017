extension Table {
    /// Updates the row whose `uniqueKey` column has the record's value; else, when the
    /// record's primary key is set, the row with that primary key; else inserts the record:
    /// `upsert(_:uniqueKey:nilValues:in:)` of a `Connection`, in the transaction's engine.
    nonisolated(nonsending) public func upsert(
        _ record: Element, uniqueKey: String, nilValues: UpsertNilValues = .keepStored, in tx: some DatabaseTransaction
    ) async throws {
        var record = record
        try await upsert(&record, uniqueKey: uniqueKey, nilValues: nilValues, in: tx)
    }

    /// Upserts `record` (see `upsert(_:uniqueKey:nilValues:in:)`) and, when its integer
    /// primary key was nil, gives it the key of the row updated or inserted.
    nonisolated(nonsending) public func upsert(
        _ record: inout Element, uniqueKey: String, nilValues: UpsertNilValues = .keepStored,
        in tx: some DatabaseTransaction
    ) async throws {
        var records = [record]
        try await upsert(contentsOf: &records, uniqueKey: uniqueKey, nilValues: nilValues, in: tx)
        record = records[0]
    }

    /// Upserts each record atomically, all or none, and gives each record whose integer
    /// primary key was nil the key of its row. On failure `records` is left as it was.
    ///
    /// One `INSERT … ON CONFLICT DO UPDATE` per record when the dialect has it for this
    /// unique key (an upsert that falls back to the primary key needs two conflict targets,
    /// which PostgreSQL does not take); else the row is looked up, then updated or inserted.
    nonisolated(nonsending) public func upsert(
        contentsOf records: inout [Element], uniqueKey: String, nilValues: UpsertNilValues = .keepStored,
        in tx: some DatabaseTransaction
    ) async throws {
        let keySlot = try upsertKeySlot(uniqueKey)
        let statements = try await prepared(in: tx)
        let native = tx.dialect.supportsUpsert
            && (tx.dialect.supportsSeveralConflictTargets
                || !statements.table.upsertFallsBackToPrimaryKey(uniqueKeySlot: keySlot))
        records = try await tx.savepoint { [records] tx in
            let writer = RecordWriter(schema: schema)
            var upserted = records
            for index in upserted.indices {
                try validation?(upserted[index], .upsert)
                try writer.encode(upserted[index])
                let upsert = PortableUpsert(
                    table: self, writer: writer, statements: statements, keySlot: keySlot, nilValues: nilValues)
                let key = writer.buffer.holdsValue(at: keySlot) && native
                    ? try await upsert.natively(in: tx) : try await upsert.byLookUp(in: tx)
                try assignGeneratedKey(key, to: &upserted[index])
            }
            return upserted
        }
    }
}

/// One record's upsert in the transaction's engine, the record encoded in `writer`.
struct PortableUpsert<Element: Record, Dialect: SQLDialect> {
    let table: Table<Element>
    let writer: RecordWriter
    let statements: PortableStatements<Dialect>
    /// The slot of the unique key.
    let keySlot: Int
    let nilValues: UpsertNilValues

    private var schema: TableSchema { table.schema }

    /// Runs the upsert statement (see `TableStatements.upsert(uniqueKeySlot:)`), the record's
    /// unique key being set; returns the integer primary key of the row written when the
    /// record left it nil, looked up by the unique key.
    nonisolated(nonsending) func natively<Transaction: DatabaseTransaction>(
        in tx: Transaction
    ) async throws -> Int64? where Transaction.Dialect == Dialect {
        let buffer = writer.buffer
        let flags = statements.table.upsertUpdatableSlots(uniqueKeySlot: keySlot)
            + (statements.table.upsertFallsBackToPrimaryKey(uniqueKeySlot: keySlot) ? [keySlot] : [])
        var arguments = writer.storedValues(Array(schema.columns.indices))
        arguments += [DatabaseValue](repeating: .integer(0), count: flags.count)
        for slot in flags {
            let updates = buffer.isSet(at: slot) && (nilValues == .overwrite || buffer.holdsValue(at: slot))
            arguments[statements.table.upsertFlagParameter(slot: slot, uniqueKeySlot: keySlot) - 1] = .integer(updates ? 1 : 0)
        }
        try await tx.execute(statements.table.upsertWithoutReturning(uniqueKeySlot: keySlot), arguments)
        guard schema.rowIDColumn != nil, let primaryKeySlot = schema.primaryKeySlot,
            !buffer.holdsValue(at: primaryKeySlot)
        else { return nil }
        let lookUp = statements.select(
            statements.table.quotedColumns[primaryKeySlot], whereColumn: statements.table.quotedColumns[keySlot])
        let found = try await tx.fetchOne(lookUp, [schema.storedValue(buffer.value(at: keySlot), slot: keySlot)])
        return try found.map { try $0.value(at: 0, as: Int64.self) }
    }

    /// Looks the row up by the unique key, then, if there is none, by the primary key; then
    /// updates the columns the record sets, or inserts it. Returns the integer primary key
    /// the engine generated, if it did.
    nonisolated(nonsending) func byLookUp<Transaction: DatabaseTransaction>(
        in tx: Transaction
    ) async throws -> Int64? where Transaction.Dialect == Dialect {
        let table = statements.table
        let skippingNulls = nilValues == .keepStored
        let key = schema.storedValue(writer.buffer.value(at: keySlot), slot: keySlot)
        if !key.isNull,
            let row = try await tx.fetchOne(statements.select(table.keyExpression, whereColumn: table.quotedColumns[keySlot]), [key])
        {
            try await update(
                rowKey: row.values[0], slots: writer.updatedSlots(excluding: keySlot, skippingNulls: skippingNulls), in: tx)
            guard schema.rowIDColumn != nil, writer.primaryKeyValue == nil else { return nil }
            return try row.value(at: 0, as: Int64.self)
        }
        if table.upsertFallsBackToPrimaryKey(uniqueKeySlot: keySlot), let primaryKey = writer.primaryKeyValue,
            try await tx.fetchOne(statements.select(table.keyExpression, whereColumn: table.keyExpression), [primaryKey]) != nil
        {
            try await update(rowKey: primaryKey, slots: writer.updatedSlots(skippingNulls: skippingNulls), in: tx)
            return nil
        }
        return try await self.table.insertEncoded(writer, statements, in: tx)
    }

    /// Updates the columns in `slots` of the row whose key (see `TableStatements.keyExpression`) is `rowKey`.
    nonisolated(nonsending) private func update<Transaction: DatabaseTransaction>(
        rowKey: DatabaseValue, slots: [Int], in tx: Transaction
    ) async throws where Transaction.Dialect == Dialect {
        guard !slots.isEmpty else { return }
        let table = statements.table
        try await tx.execute(
            table.update(slots: slots, where: "\(table.keyExpression) = \(table.placeholder(slots.count + 1))"),
            writer.storedValues(slots) + [rowKey])
    }
}
