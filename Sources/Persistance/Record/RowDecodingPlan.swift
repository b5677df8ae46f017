/// The row decoder's state for one statement (or one `Row`): the position of each coded
/// key, learned on the first row and checked with one string comparison on the next.
///
/// A `Decodable` type asks for its keys in the same order on every row, so the n-th key
/// asked for is compared with the n-th key of the previous row; only a different key is
/// looked up by name. No dictionary is built or consulted per row. The plan is used by
/// one statement on one thread, so its state opts out of run-time exclusivity checks.
@usableFromInline
final class RowDecodingPlan {
    private struct Request {
        var key: String
        var position: Int?
    }

    let source: ColumnSource
    /// The source's statement, kept apart so that reading it needs no enum payload copy
    /// (which would retain the statement for every column read).
    let statement: Statement?
    let dateStrategy: DatabaseDateStrategy
    private let columns: RowColumns
    @exclusivity(unchecked) private var requests: [Request] = []
    @exclusivity(unchecked) private var requestCount = 0

    @usableFromInline
    init(source: ColumnSource, dateStrategy: DatabaseDateStrategy) {
        self.source = source
        if case .statement(let statement) = source { self.statement = statement } else { statement = nil }
        self.dateStrategy = dateStrategy
        columns = source.columns
    }

    /// The column names of the source.
    var columnNames: [String] { columns.names }

    /// Decodes one `T` from the source's current row, reusing the keyed container kept in `containers`.
    @usableFromInline
    func decode<T: Decodable>(_ type: T.Type, containers: KeyedContainerCache) throws -> T {
        requestCount = 0
        return try T(from: CodableRowDecoder(plan: self, containers: containers))
    }

    /// The position of the column coded under `key`, or nil when the source has no such column.
    func position(of key: String) -> Int? {
        let request = requestCount
        requestCount = request &+ 1
        let known = requests.withUnsafeBufferPointer { requests -> Int?? in
            guard request < requests.count, requests[request].key == key else { return nil }
            return .some(requests[request].position)
        }
        if let known { return known }
        return learnPosition(of: key, request: request)
    }

    /// Looks up the column of `key` and remembers it as the answer to request number `index`.
    private func learnPosition(of key: String, request index: Int) -> Int? {
        let request = Request(key: key, position: columns.index(of: key))
        if index < requests.count {
            requests[index] = request
        } else {
            requests.append(request)
        }
        return request.position
    }
}
