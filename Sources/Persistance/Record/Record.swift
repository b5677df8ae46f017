/// A value stored as a row of a table.
///
/// Any `Codable` type becomes a record by declaring it: the library's own row encoder
/// and decoder map its properties (or its `CodingKeys`) to columns. A `Row` is a record
/// too, and the same record type can be stored in several tables.
///
/// ```swift
/// struct Player: Record, Codable {
///     var id: Int64?
///     var name: String
///     var score: Double
/// }
/// ```
///
/// For raw-C speed, implement the requirements by hand: conform to `FastDecodableRecord`
/// to read columns by index, and write `encode(into:)` to set columns by name in table order.
public protocol Record {
    /// What reads records from the rows of a statement.
    associatedtype RowDecoder: RecordDecoder<Self>

    /// The decoder that reads records from the rows of `statement`. Column positions are
    /// resolved here, once per statement, not once per row.
    static func rowDecoder(for statement: Statement) throws -> RowDecoder

    /// What reads records from ``Row``s whose columns are `columnNames`: the rows of the
    /// portable API's statements, on any engine. `Decodable` and `@Table` records get it;
    /// other records throw a decoding error unless they implement it.
    static func rowReader(columnNames: [String]) throws -> RowReader<Self>

    /// Writes the record's column values into `container`.
    ///
    /// `Encodable` records get this from the library's row encoder; other records throw
    /// an encoding error unless they implement it.
    func encode(into container: inout RecordValues) throws

    /// Called after an insert that let SQLite choose the integer primary key `column`,
    /// with the new row id. The default does nothing, except for `Codable` records, which
    /// get the property coded under `column` set to `rowID`.
    mutating func didInsert(rowID: Int64, column: String) throws

    /// How the row encoder and decoder store this record's `Date` properties.
    /// Defaults to `.text`, the format of `Date`'s own database conversion.
    static var databaseDateStrategy: DatabaseDateStrategy { get }
}

extension Record {
    /// Throws: a record that is not `Encodable` must implement `encode(into:)` to be written.
    public func encode(into container: inout RecordValues) throws {
        throw DatabaseError.encoding(
            "\(Self.self) is neither Encodable nor implements encode(into:), so it cannot be written")
    }

    /// Does nothing.
    public mutating func didInsert(rowID: Int64, column: String) throws {}

    /// `.text`, the format of `Date`'s own database conversion.
    public static var databaseDateStrategy: DatabaseDateStrategy { .text }
}
