/// The row decoder's state for one statement (or one `Row`): the position of each coded
/// key, learned on the first row and checked with one string comparison on the next.
///
/// A `Decodable` type asks for its keys in the same order on every row, so the n-th key
/// asked for is compared with the n-th key of the previous row; only a different key is
/// looked up by name. No dictionary is built or consulted per row.
final class RowDecodingPlan {
    let source: ColumnSource
    let dateStrategy: DatabaseDateStrategy
    private let columns: RowColumns
    private var keyOfRequest: [String] = []
    private var positionOfRequest: [Int?] = []
    private var requestCount = 0

    init(source: ColumnSource, dateStrategy: DatabaseDateStrategy) {
        self.source = source
        self.dateStrategy = dateStrategy
        columns = source.columns
    }

    /// The column names of the source.
    var columnNames: [String] { columns.names }

    /// Decodes one `T` from the source's current row.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        requestCount = 0
        return try T(from: RowDecoder(plan: self))
    }

    /// The position of the column coded under `key`, or nil when the source has no such column.
    func position(of key: String) -> Int? {
        defer { requestCount += 1 }
        if requestCount < keyOfRequest.count, keyOfRequest[requestCount] == key {
            return positionOfRequest[requestCount]
        }
        let position = columns.index(of: key)
        if requestCount < keyOfRequest.count {
            keyOfRequest[requestCount] = key
            positionOfRequest[requestCount] = position
        } else {
            keyOfRequest.append(key)
            positionOfRequest.append(position)
        }
        return position
    }
}
