/// The state of one write operation: a record buffer laid out on the table's columns,
/// reused for every record of the operation, and the binding of its slots.
@usableFromInline
struct RecordWriter {
    @usableFromInline let schema: TableSchema
    @usableFromInline let buffer: RecordValueBuffer
    /// The row encoder of Codable records, kept from record to record.
    @usableFromInline let encoder: RowEncoder

    @usableFromInline
    init(schema: TableSchema) {
        self.schema = schema
        buffer = schema.makeBuffer()
        encoder = RowEncoder(buffer: buffer)
    }

    /// Encodes `record` into the buffer, replacing the previous record.
    @inlinable
    func encode(_ record: some Record) throws {
        try buffer.encode(record, with: encoder)
    }

    /// Runs `body`, in which each record encoded is bound to `statement`, whose parameter
    /// `n` is column `n - 1` (see `RecordValueBuffer.bind(to:_:)`).
    @inlinable
    func binding<Result>(to statement: Statement, _ body: () throws -> Result) throws -> Result {
        try buffer.bind(to: statement, body)
    }

    /// Inserts `record` with `statement`, the table's insert statement, which `body` of
    /// `binding(to:_:)` binds, and returns the new row id.
    @inlinable
    func insert(_ record: some Record, with statement: Statement, in connection: Connection) throws -> Int64 {
        try encode(record)
        defer { statement.reset() }
        while try statement.step() {}
        return connection.lastInsertRowID
    }

    /// Binds every column of the encoded record to parameters `1...columnCount`, NULL
    /// replaced by the column default: the parameters of the table's insert statement.
    func bindColumns(to statement: Statement) throws {
        for slot in schema.columnNames.indices {
            try statement.bind(schema.storedValue(buffer.value(at: slot), slot: slot), at: slot + 1)
        }
    }

    /// Inserts the encoded record with `statement`, the table's insert statement; returns the new row id.
    func insertEncoded(with statement: Statement, in connection: Connection) throws -> Int64 {
        try bindColumns(to: statement)
        try Self.run(statement)
        return connection.lastInsertRowID
    }

    /// The encoded primary key value; nil when the table has no primary key column or the
    /// record left it unset or NULL.
    var primaryKeyValue: DatabaseValue? {
        guard let slot = schema.primaryKeySlot, let value = buffer.value(at: slot), !value.isNull else { return nil }
        return value
    }

    /// The encoded primary key value, or a `.missingPrimaryKey` error.
    func requirePrimaryKeyValue() throws -> DatabaseValue {
        guard schema.primaryKey != nil else {
            throw DatabaseError(
                kind: .missingPrimaryKey,
                message: "table \"\(schema.name)\" declares no primary key, so records cannot be identified")
        }
        guard let value = primaryKeyValue else {
            throw DatabaseError(
                kind: .missingPrimaryKey, message: "the record's primary key is nil", column: schema.primaryKey)
        }
        return value
    }

    /// Writes each record with `write`, which returns its row id; with `assigningKeys`, also
    /// returns the records, each given the key SQLite chose for it (when it chose one).
    ///
    /// Records in contiguous storage (an array) are read where they lie; others are
    /// copied out one by one, as iterating a sequence does.
    @inlinable
    func writeEach<Element: Record>(
        _ records: some Sequence<Element>, assigningKeys: Bool, _ write: (Element) throws -> Int64
    ) throws -> (rowIDs: [Int64], records: [Element]) {
        if !assigningKeys, let rowIDs = try records.withContiguousStorageIfAvailable({ records in
            var rowIDs = [Int64]()
            rowIDs.reserveCapacity(records.count)
            for index in records.indices {
                rowIDs.append(try write(records[index]))
            }
            return rowIDs
        }) {
            return (rowIDs, [])
        }
        var rowIDs = [Int64]()
        rowIDs.reserveCapacity(records.underestimatedCount)
        var written = [Element]()
        for var record in records {
            let rowID = try write(record)
            rowIDs.append(rowID)
            if assigningKeys {
                if letsSQLiteChooseKey, let column = schema.rowIDColumn {
                    try record.didInsert(rowID: rowID, column: column)
                }
                written.append(record)
            }
        }
        return (rowIDs, written)
    }

    /// Whether inserting the encoded record lets SQLite choose its integer primary key.
    @usableFromInline
    var letsSQLiteChooseKey: Bool {
        guard schema.rowIDColumn != nil, let slot = schema.primaryKeySlot else { return false }
        return !buffer.holdsValue(at: slot)
    }

    /// The slots an update of the encoded record sets: those the record set, except the
    /// primary key and `excluded`; with `skippingNulls`, also except those set to NULL.
    func updatedSlots(excluding excluded: Int? = nil, skippingNulls: Bool) -> [Int] {
        schema.columnNames.indices.filter { slot in
            guard slot != schema.primaryKeySlot, slot != excluded, let value = buffer.value(at: slot) else {
                return false
            }
            return !(skippingNulls && value.isNull)
        }
    }

    /// The values to store in `slots`, NULL replaced by the column default.
    func storedValues(_ slots: [Int]) -> [DatabaseValue] {
        slots.map { schema.storedValue(buffer.value(at: $0), slot: $0) }
    }

    /// Binds `values` to parameters `1...values.count` and runs `statement` to its end.
    static func run(_ statement: Statement, binding values: [DatabaseValue] = []) throws {
        for (offset, value) in values.enumerated() {
            try statement.bind(value, at: offset + 1)
        }
        defer { statement.reset() }
        while try statement.step() {}
    }
}
