extension Table {
    /// Inserts `record` and returns its row id. Nil optional properties get their column's default.
    @inlinable @discardableResult
    public func insert(_ record: Element, in connection: Connection) throws -> Int64 {
        try onFirstUse(in: connection) {
            try insertAll(CollectionOfOne(record), in: connection, assigningKeys: false).rowIDs[0]
        }
    }

    /// Inserts `record` and returns its row id; when SQLite chose the integer primary key,
    /// `record` gets it (see `Record.didInsert(rowID:column:)`).
    @inlinable @discardableResult
    public func insert(_ record: inout Element, in connection: Connection) throws -> Int64 {
        var records = [record]
        let rowIDs = try insert(contentsOf: &records, in: connection)
        record = records[0]
        return rowIDs[0]
    }

    /// Inserts `records` atomically, all or none, and returns their row ids in order.
    @inlinable @discardableResult
    public func insert(contentsOf records: some Sequence<Element>, in connection: Connection) throws -> [Int64] {
        try onFirstUse(in: connection) {
            try connection.savepoint {
                try insertAll(records, in: connection, assigningKeys: false).rowIDs
            }
        }
    }

    /// Inserts `records` atomically, all or none, returns their row ids in order, and gives
    /// each record whose integer primary key SQLite chose that key. On failure `records`
    /// is left as it was.
    @inlinable @discardableResult
    public func insert(contentsOf records: inout [Element], in connection: Connection) throws -> [Int64] {
        let (rowIDs, inserted) = try onFirstUse(in: connection) {
            try connection.savepoint {
                try insertAll(records, in: connection, assigningKeys: true)
            }
        }
        records = inserted
        return rowIDs
    }

    /// Inserts one row in which `column` is `value` and every other column gets its default.
    @discardableResult
    public func insertValue(
        _ value: some DatabaseValueConvertible, forColumn column: String, in connection: Connection
    ) throws -> Int64 {
        try onFirstUse(in: connection) {
            let writer = RecordWriter(schema: schema)
            let statement = try connection.cachedStatement(schema.insertSQL)
            return try writer.binding(to: statement) {
                try writer.insert(Row([(column, value.databaseValue)]), with: statement, in: connection)
            }
        }
    }

    /// Validates, encodes and inserts each record with one statement; with `assigningKeys`,
    /// returns the records with the keys SQLite chose, else an empty array.
    @inlinable
    func insertAll(
        _ records: some Sequence<Element>, in connection: Connection, assigningKeys: Bool
    ) throws -> (rowIDs: [Int64], records: [Element]) {
        let writer = RecordWriter(schema: schema)
        let statement = try connection.cachedStatement(schema.insertSQL)
        return try writer.binding(to: statement) {
            try writer.writeEach(records, assigningKeys: assigningKeys) { record in
                try validation?(record, .insert)
                return try writer.insert(record, with: statement, in: connection)
            }
        }
    }
}
