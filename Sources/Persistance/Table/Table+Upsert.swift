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
    /// Updates the row whose `uniqueKey` column has the record's value; else, when the
    /// record's primary key is set, the row with that primary key; else inserts the record.
    /// Returns the row id of the row updated or inserted.
    ///
    /// `uniqueKey` must be the primary key, a `unique:` column or a single-column unique
    /// index. An update by `uniqueKey` leaves the primary key and `uniqueKey` as stored; an
    /// update by primary key also writes `uniqueKey`. Both treat nil properties as
    /// `nilValues` says. Atomic, and safe inside a transaction: it never
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

    /// The slot of `uniqueKey`, which must be the primary key, a `unique:` column or a
    /// single-column unique index.
    func upsertKeySlot(_ uniqueKey: String) throws -> Int {
        if let error = schema.declarationError { throw error }
        guard let keySlot = schema.slot(of: uniqueKey), schema.uniqueColumns.contains(RowColumns.fold(uniqueKey)) else {
            throw DatabaseError(
                kind: .invalidArguments,
                message: "upsert needs a unique key, and \"\(uniqueKey)\" is not the primary key, a unique column "
                    + "or a single-column unique index of table \"\(name)\"",
                column: uniqueKey)
        }
        return keySlot
    }

    /// Upserts `records` in one savepoint with `strategy`; with `assigningKeys`, also
    /// returns the records with the keys of their rows, else an empty array.
    func upsertAll(
        _ records: some Sequence<Element>, uniqueKey: String, nilValues: UpsertNilValues,
        strategy: UpsertStrategy = .preferred, assigningKeys: Bool = false, in connection: Connection
    ) throws -> (rowIDs: [Int64], records: [Element]) {
        let keySlot = try upsertKeySlot(uniqueKey)
        let lookUp = rowIDLookUp(schema.columnReference(schema.columnNames[keySlot]))
        return try onFirstUse(in: connection) {
            try touch(in: connection)
            return try connection.savepoint {
                let writer = RecordWriter(schema: schema)
                func upsertEach(_ upsert: (Element) throws -> Int64) throws -> (rowIDs: [Int64], records: [Element]) {
                    try writer.writeEach(records, assigningKeys: assigningKeys) { record in
                        try validation?(record, .upsert)
                        return try upsert(record)
                    }
                }
                switch strategy {
                case .native:
                    let statement = try connection.cachedStatement(schema.statements.upsert(uniqueKeySlot: keySlot))
                    let updatable = schema.statements.upsertUpdatableSlots(uniqueKeySlot: keySlot)
                    writer.buffer.keptSlot = keySlot
                    return try writer.binding(to: statement) {
                        try upsertEach { record in
                            try upsertNatively(
                                record, writer, statement, keySlot: keySlot, updating: updatable, nilValues,
                                lookUp: lookUp, in: connection)
                        }
                    }
                case .lookUpThenWrite:
                    return try upsertEach { record in
                        try upsertByLookUp(record, writer, lookUp, keySlot: keySlot, nilValues, in: connection)
                    }
                }
            }
        }
    }

    /// Upserts `record` with `statement` (see `TableSchema.upsertSQL(uniqueKeySlot:)`), to
    /// which `writer` binds the record's values as it sets them; then binds whether each
    /// of the `updatable` columns is updated. The row id is the one the statement returns,
    /// or, when the unique key is the row id, the key written (`lookUp` finds it when the
    /// record's key is not an integer SQLite could convert).
    private func upsertNatively(
        _ record: Element, _ writer: RecordWriter, _ statement: Statement, keySlot: Int, updating updatable: [Int],
        _ nilValues: UpsertNilValues, lookUp: String, in connection: Connection
    ) throws -> Int64 {
        try writer.encode(record)
        let buffer = writer.buffer
        func bindFlag(_ slot: Int) throws {
            let updates = buffer.isSet(at: slot) && (nilValues == .overwrite || buffer.holdsValue(at: slot))
            try statement.bind(
                .integer(updates ? 1 : 0), at: schema.statements.upsertFlagParameter(slot: slot, uniqueKeySlot: keySlot))
        }
        for slot in updatable {
            try bindFlag(slot)
        }
        if schema.statements.upsertFallsBackToPrimaryKey(uniqueKeySlot: keySlot) {
            try bindFlag(keySlot)
        }
        defer { statement.reset() }
        guard schema.statements.isRowID(slot: keySlot) else {
            guard try statement.step() else {
                throw DatabaseError(kind: .sqlite, message: "upsert returned no row", sql: statement.sql)
            }
            let rowID = statement.int64(at: 0)
            while try statement.step() {}
            return rowID
        }
        while try statement.step() {}
        switch schema.storedValue(buffer.value(at: keySlot), slot: keySlot) {
        case .integer(let key): return key
        case .null: return connection.lastInsertRowID
        case let key:
            guard let rowID = try connection.fetchOne(Int64.self, lookUp, [key]) else {
                throw DatabaseError(kind: .sqlite, message: "upsert wrote no row", sql: statement.sql)
            }
            return rowID
        }
    }

    /// Upserts `record` by running `lookUp` for its row id, then, if there is none, looking
    /// its primary key up; then updating the columns the record sets or inserting it: for
    /// engines without `ON CONFLICT … DO UPDATE … RETURNING`.
    private func upsertByLookUp(
        _ record: Element, _ writer: RecordWriter, _ lookUp: String, keySlot: Int, _ nilValues: UpsertNilValues,
        in connection: Connection
    ) throws -> Int64 {
        func update(rowID: Int64, slots: [Int]) throws {
            guard !slots.isEmpty else { return }
            try RecordWriter.run(
                connection.cachedStatement(schema.updateSQL(slots: slots, where: "rowid = ?")),
                binding: writer.storedValues(slots) + [.integer(rowID)])
        }
        try writer.encode(record)
        let skippingNulls = nilValues == .keepStored
        let key = schema.storedValue(writer.buffer.value(at: keySlot), slot: keySlot)
        if !key.isNull, let rowID = try connection.fetchOne(Int64.self, lookUp, [key]) {
            try update(rowID: rowID, slots: writer.updatedSlots(excluding: keySlot, skippingNulls: skippingNulls))
            return rowID
        }
        if schema.statements.upsertFallsBackToPrimaryKey(uniqueKeySlot: keySlot), let primaryKey = writer.primaryKeyValue,
            let rowID = try connection.fetchOne(Int64.self, rowIDLookUp(schema.keyExpression), [primaryKey])
        {
            try update(rowID: rowID, slots: writer.updatedSlots(skippingNulls: skippingNulls))
            return rowID
        }
        return try writer.insertEncoded(with: connection.cachedStatement(schema.insertSQL), in: connection)
    }

    /// `SELECT` of the row id of the row whose `column` (quoted SQL) is parameter 1.
    private func rowIDLookUp(_ column: String) -> String {
        "SELECT rowid FROM \(schema.quotedName) WHERE \(column) = ?"
    }
}
