/// The hand-written fast path for reading: a record that reads its columns by index, with
/// the `Statement` column readers (`int64(at:)`, `double(at:)`, `string(at:)`,
/// `data(at:)`, `isNull(at:)`), at positions resolved once per statement.
///
/// ```swift
/// extension Player: FastDecodableRecord {
///     static let databaseColumns = ["id", "name", "score"]
///     init(statement: Statement, columns: [Int]) {
///         id = statement.int64(at: columns[0])
///         name = statement.string(at: columns[1])
///         score = statement.double(at: columns[2])
///     }
/// }
/// ```
/// The readers convert as SQLite does and read NULL as 0 or empty: check `isNull(at:)`
/// for optional columns. Pair it with a hand-written `encode(into:)` for fast writes.
public protocol FastDecodableRecord: Record {
    /// The columns the initializer reads, in the order of its `columns` positions.
    static var databaseColumns: [String] { get }

    /// Reads a record from the current row of `statement`, where `columns[i]` is the index
    /// of the column named `databaseColumns[i]`.
    init(statement: Statement, columns: [Int]) throws
}

extension FastDecodableRecord {
    /// Finds each of `databaseColumns` in the statement once; a missing one is an error naming it.
    @inlinable
    public static func rowDecoder(for statement: Statement) throws -> FastRecordDecoder<Self> {
        try FastRecordDecoder(statement: statement)
    }
}

extension FastDecodableRecord where Self: Decodable {
    /// A record that is both `Decodable` and fast-decodable reads through the fast path.
    @inlinable
    public static func rowDecoder(for statement: Statement) throws -> FastRecordDecoder<Self> {
        try FastRecordDecoder(statement: statement)
    }
}
