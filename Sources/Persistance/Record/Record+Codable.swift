// Default implementations that make any Codable type a record.

extension Record where Self: Decodable {
    /// Reads records with the library's row decoder, resolving each key's column once per statement.
    @inlinable
    public static func rowDecoder(for statement: Statement) throws -> CodableRecordDecoder<Self> {
        CodableRecordDecoder(statement: statement, dateStrategy: databaseDateStrategy)
    }

    /// Decodes a record from the columns of `row`.
    public init(row: Row) throws {
        self = try CodableRowDecoder(source: .row(row), dateStrategy: Self.databaseDateStrategy).decode(Self.self)
    }
}

extension Record where Self: Encodable {
    /// Writes the record with the library's row encoder: one column per coded key, nil
    /// optionals as NULL.
    @inlinable
    public func encode(into container: inout RecordValues) throws {
        try container.withRowEncoder(dateStrategy: Self.databaseDateStrategy) { try encode(to: $0) }
    }
}

extension Record where Self: Codable {
    /// Sets the property coded under `column` to `rowID` by re-decoding the record with it.
    /// A record without that column is left as it is.
    public mutating func didInsert(rowID: Int64, column: String) throws {
        var row = try encodedRow()
        guard row.hasColumn(column) else { return }
        row[column] = .integer(rowID)
        self = try Self(row: row)
    }
}
