/// What an upsert does with a record's nil properties when it updates an existing row.
public enum UpsertNilValues: Sendable, Hashable {
    /// The row keeps its stored values for those columns.
    case keepStored
    /// The row gets those columns' defaults (or NULL), like `update(_:in:)`.
    case overwrite
}

/// How an upsert is carried out on this engine.
enum UpsertStrategy {
    /// `INSERT … ON CONFLICT DO UPDATE … RETURNING rowid`: one statement (SQLite 3.35+).
    case native
    /// Look the row up, then `UPDATE` or `INSERT`, in a savepoint: any SQLite version.
    case lookUpThenWrite

    /// The strategy for the linked engine.
    static var preferred: UpsertStrategy {
        SQLiteEngine.supportsUpsert && SQLiteEngine.supportsReturning ? .native : .lookUpThenWrite
    }
}

extension Table {
    /// Updates the row whose `uniqueKey` column has the record's value, or inserts the
    /// record when there is none; returns the row id of the row updated or inserted.
    ///
    /// `uniqueKey` must be the primary key, a `unique:` column or a single-column unique
    /// index. An update leaves the primary key and `uniqueKey` as stored, and treats nil
    /// properties as `nilValues` says. Atomic, and safe inside a transaction: it never
    /// commits one. On SQLite 3.35+ it is one `INSERT … ON CONFLICT DO UPDATE`, which in an
    /// `AUTOINCREMENT` table uses up an id even when it updates: ids stay increasing, with gaps.
    @discardableResult
    public func upsert(
        _ record: Element, uniqueKey: String, nilValues: UpsertNilValues = .keepStored, in connection: Connection
    ) throws -> Int64 {
        try upsertAll(CollectionOfOne(record), uniqueKey: uniqueKey, nilValues: nilValues, in: connection).rowIDs[0]
    }

    /// Upserts `record` (see `upsert(_:uniqueKey:nilValues:in:)`) and, when its integer
    /// primary key was nil, gives it the key of the row updated or inserted.
    @discardableResult
    public func upsert(
        _ record: inout Element, uniqueKey: String, nilValues: UpsertNilValues = .keepStored,
        in connection: Connection
    ) throws -> Int64 {
        var records = [record]
        let rowIDs = try upsert(contentsOf: &records, uniqueKey: uniqueKey, nilValues: nilValues, in: connection)
        record = records[0]
        return rowIDs[0]
    }

    /// Upserts each record atomically, all or none; returns the row ids in order.
    @discardableResult
    public func upsert(
        contentsOf records: some Sequence<Element>, uniqueKey: String, nilValues: UpsertNilValues = .keepStored,
        in connection: Connection
    ) throws -> [Int64] {
        try upsertAll(records, uniqueKey: uniqueKey, nilValues: nilValues, in: connection).rowIDs
    }

    /// Upserts each record atomically, all or none, returns the row ids in order, and gives
    /// each record whose integer primary key was nil the key of its row. On failure
    /// `records` is left as it was.
    @discardableResult
    public func upsert(
        contentsOf records: inout [Element], uniqueKey: String, nilValues: UpsertNilValues = .keepStored,
        in connection: Connection
    ) throws -> [Int64] {
        let (rowIDs, upserted) = try upsertAll(
            records, uniqueKey: uniqueKey, nilValues: nilValues, assigningKeys: true, in: connection)
        records = upserted
        return rowIDs
    }

    /// Upserts `records` in one savepoint with `strategy`; with `assigningKeys`, also
    /// returns the records with the keys of their rows, else an empty array.
    func upsertAll(
        _ records: some Sequence<Element>, uniqueKey: String, nilValues: UpsertNilValues,
        strategy: UpsertStrategy = .preferred, assigningKeys: Bool = false, in connection: Connection
    ) throws -> (rowIDs: [Int64], records: [Element]) {
        if let error = schema.declarationError { throw error }
        guard let keySlot = schema.slot(of: uniqueKey), schema.uniqueColumns.contains(RowColumns.fold(uniqueKey)) else {
            throw DatabaseError(
                kind: .invalidArguments,
                message: "upsert needs a unique key, and \"\(uniqueKey)\" is not the primary key, a unique column "
                    + "or a single-column unique index of table \"\(name)\"",
                column: uniqueKey)
        }
        return try onFirstUse(in: connection) {
            try touch(in: connection)
            return try connection.savepoint {
                let writer = RecordWriter(schema: schema)
                return try writer.writeEach(records, assigningKeys: assigningKeys) { record in
                    try validation?(record, .upsert)
                    try writer.encode(record)
                    let slots = writer.updatedSlots(excluding: keySlot, skippingNulls: nilValues == .keepStored)
                    return switch strategy {
                    case .native: try upsertNatively(writer, keySlot: keySlot, updating: slots, in: connection)
                    case .lookUpThenWrite: try upsertByLookUp(writer, keySlot: keySlot, updating: slots, in: connection)
                    }
                }
            }
        }
    }

    private func upsertNatively(
        _ writer: RecordWriter, keySlot: Int, updating slots: [Int], in connection: Connection
    ) throws -> Int64 {
        let key = TableSchema.quote(schema.columnNames[keySlot])
        let assignments = (slots.isEmpty ? [keySlot] : slots).map { slot in
            let column = TableSchema.quote(schema.columnNames[slot])
            return "\(column) = excluded.\(column)"
        }
        let statement = try connection.cachedStatement(
            "\(schema.insertSQL) ON CONFLICT (\(key)) DO UPDATE SET \(assignments.joined(separator: ", ")) RETURNING rowid")
        try writer.bindColumns(to: statement)
        defer { statement.reset() }
        guard try statement.step() else {
            throw DatabaseError(kind: .sqlite, message: "upsert returned no row", sql: statement.sql)
        }
        let rowID = statement.int64(at: 0)
        while try statement.step() {}
        return rowID
    }

    private func upsertByLookUp(
        _ writer: RecordWriter, keySlot: Int, updating slots: [Int], in connection: Connection
    ) throws -> Int64 {
        let key = schema.storedValue(writer.buffer.value(at: keySlot), slot: keySlot)
        let lookUp = "SELECT rowid FROM \(schema.quotedName) WHERE \(TableSchema.quote(schema.columnNames[keySlot])) = ?"
        if !key.isNull, let rowID = try connection.fetchOne(Int64.self, lookUp, [key]) {
            if !slots.isEmpty {
                try RecordWriter.run(
                    connection.cachedStatement(schema.updateSQL(slots: slots, where: "rowid = ?")),
                    binding: writer.storedValues(slots) + [.integer(rowID)])
            }
            return rowID
        }
        return try writer.insertEncoded(with: connection.cachedStatement(schema.insertSQL), in: connection)
    }
}
