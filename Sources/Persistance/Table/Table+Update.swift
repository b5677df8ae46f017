extension Table {
    /// Updates the row with the record's primary key to the record's values; a nil
    /// property stores its column's default (or NULL). Returns whether a row was updated.
    /// A record without a primary key value is a `.missingPrimaryKey` error.
    @discardableResult
    public func update(_ record: Element, in connection: Connection) throws -> Bool {
        try onFirstUse(in: connection) {
            try updateAll(CollectionOfOne(record), in: connection) > 0
        }
    }

    /// Updates each record's row atomically, all or none; returns the number of rows updated.
    @discardableResult
    public func update(contentsOf records: some Sequence<Element>, in connection: Connection) throws -> Int {
        try onFirstUse(in: connection) {
            try connection.savepoint {
                try updateAll(records, in: connection)
            }
        }
    }

    /// Sets `values` (column → value) in the rows for which `fragment`, SQL that follows
    /// `WHERE`, holds; a nil value stores the column's default (or NULL). Returns the number
    /// of rows updated; no values updates nothing and runs no SQL.
    ///
    /// The fragment's arguments are named (`:name`) or positional (`?`), not numbered (`?1`).
    @discardableResult
    public func update(
        _ values: [String: (any DatabaseValueConvertible)?], where fragment: String,
        _ arguments: StatementArguments = StatementArguments(), in connection: Connection
    ) throws -> Int {
        try SQLFragment.validate(fragment)
        let (slots, stored) = try assignments(values)
        guard !slots.isEmpty else { return 0 }
        if let failure = arguments.conversionError {
            throw DatabaseError(kind: .encoding, message: failure)
        }
        let sql: String
        let merged: StatementArguments
        switch arguments.storage {
        case .positional(let extra):
            sql = schema.updateSQL(slots: slots, where: fragment)
            merged = StatementArguments(stored + extra)
        case .named(let extra):
            let names = slots.indices.map { "\(Self.assignmentParameterPrefix)\($0)" }
            sql = schema.updateSQL(slots: slots, parameters: names.map { ":" + $0 }, where: fragment)
            merged = StatementArguments(
                try extra.merging(zip(names, stored)) { _, _ in
                    throw DatabaseError(
                        kind: .invalidArguments,
                        message: "argument names starting with \(Self.assignmentParameterPrefix) are reserved")
                })
        }
        return try onFirstUse(in: connection) {
            try connection.cachedStatement(sql).execute(merged)
            return connection.changes
        }
    }

    /// Sets `values` in the row whose primary key is `key`; returns whether a row was updated.
    @discardableResult
    public func update(
        _ values: [String: (any DatabaseValueConvertible)?], forPrimaryKey key: some DatabaseValueConvertible,
        in connection: Connection
    ) throws -> Bool {
        try update(values, forPrimaryKeys: CollectionOfOne(key), in: connection) > 0
    }

    /// Sets `values` in the rows whose primary keys are among `keys`, atomically; returns
    /// the number of rows updated. No values or no keys update nothing and run no SQL.
    @discardableResult
    public func update<Key: DatabaseValueConvertible>(
        _ values: [String: (any DatabaseValueConvertible)?], forPrimaryKeys keys: some Sequence<Key>,
        in connection: Connection
    ) throws -> Int {
        let (slots, stored) = try assignments(values)
        let keys = try keys.map { try $0.databaseValue }
        guard !slots.isEmpty, !keys.isEmpty else { return 0 }
        return try onFirstUse(in: connection) {
            try connection.savepoint {
                var changes = 0
                try forEachChunk(of: keys, leading: stored) { placeholders, arguments in
                    try connection.cachedStatement(
                        schema.updateSQL(slots: slots, where: "\(schema.keyExpression) IN (\(placeholders))")
                    ).execute(arguments)
                    changes += connection.changes
                }
                return changes
            }
        }
    }

    private static var assignmentParameterPrefix: String { "persistance_value_" }

    /// Validates `record` for an update and encodes it in `writer`: the slots of the columns
    /// to set (every one but the primary key's) and the key; nil when there is none to set.
    func encodeUpdate(of record: Element, in writer: RecordWriter) throws -> (slots: [Int], key: DatabaseValue)? {
        try validation?(record, .update)
        try writer.encode(record)
        let key = try writer.requirePrimaryKeyValue()
        let slots = writer.updatedSlots(skippingNulls: false)
        return slots.isEmpty ? nil : (slots, key)
    }

    /// Validates, encodes and updates each record by its primary key; returns the rows updated.
    private func updateAll(_ records: some Sequence<Element>, in connection: Connection) throws -> Int {
        try touch(in: connection)
        let writer = RecordWriter(schema: schema)
        var changes = 0
        var statement: Statement?
        var statementSlots = [Int]()
        for record in records {
            guard let (slots, key) = try encodeUpdate(of: record, in: writer) else { continue }
            if statement == nil || slots != statementSlots {
                statement = try connection.cachedStatement(
                    schema.statements.updateByKey(slots: slots))
                statementSlots = slots
            }
            if let statement {
                try RecordWriter.run(statement, binding: writer.storedValues(slots) + [key])
                changes += connection.changes
            }
        }
        return changes
    }

    /// The slots and stored values (NULL replaced by the column default) of key-value
    /// assignments, in column order; an unknown or repeated column is an error.
    private func assignments(
        _ values: [String: (any DatabaseValueConvertible)?]
    ) throws -> (slots: [Int], values: [DatabaseValue]) {
        if let error = schema.declarationError { throw error }
        var bySlot = [Int: DatabaseValue]()
        for (column, value) in values {
            guard let slot = schema.slot(of: column) else {
                throw DatabaseError(
                    kind: .columnNotFound, message: "table \"\(name)\" has no column \"\(column)\"", column: column)
            }
            guard bySlot[slot] == nil else {
                throw DatabaseError(kind: .invalidArguments, message: "column is assigned twice", column: column)
            }
            let stored = try ColumnValueCoding.attributing(to: column, kind: .encoding) { try value?.databaseValue }
            bySlot[slot] = schema.storedValue(stored, slot: slot)
        }
        let slots = bySlot.keys.sorted()
        return (slots, slots.compactMap { bySlot[$0] })
    }
}
