/// The library's Codable decoder for records, one per statement (or `Row`): reads each
/// coded property straight from its column, at a position learned on the first row.
///
/// A `Decodable` type asks for its keys in the same order on every row, so the n-th key
/// asked for is compared with the n-th key of the previous row (by `CodingKeyIdentity`,
/// else by name); only a different key is looked up in the columns. No dictionary is
/// built or consulted per row, and the keyed container is kept from row to row. Every row
/// is decoded by this one object, passed as the same `Decoder`: a row costs no allocation
/// and no reference counting of the decoder's state.
/// The decoder is used by one statement on one thread, so its state opts out of run-time
/// exclusivity checks.
///
/// Unknown columns are ignored; a missing column decodes as nil for an optional property
/// and is an error naming the column for a non-optional one; NULL in a non-optional
/// property and a value of the wrong type are decoding errors naming the column.
@usableFromInline
final class CodableRowDecoder: Decoder {
    private struct Request {
        var key: String
        var identity: CodingKeyIdentity
        var position: Int?
    }

    let source: ColumnSource
    /// The source's statement, kept apart so that reading it needs no enum payload copy
    /// (which would retain the statement for every column read).
    let statement: Statement?
    let dateStrategy: DatabaseDateStrategy
    private let columns: RowColumns
    @exclusivity(unchecked) private var requests: [Request] = []
    @exclusivity(unchecked) @usableFromInline var requestCount = 0
    /// The keyed container of the last row, kept for the next. It refers to this decoder
    /// without retaining it (see `RowKeyedDecodingContainer`).
    @exclusivity(unchecked) private var containers = KeyedContainerCache()
    /// Whether a record kept a container beyond its row, which made this decoder live for good.
    @exclusivity(unchecked) private var isKeptForever = false
    /// The decoder of the same row handed to a superclass's `init(from:)`, kept from row to
    /// row: its container, like this one's, refers to it without retaining it.
    @exclusivity(unchecked) private var superclassDecoder: CodableRowDecoder?

    @usableFromInline
    init(source: ColumnSource, dateStrategy: DatabaseDateStrategy) {
        self.source = source
        if case .statement(let statement) = source { self.statement = statement } else { statement = nil }
        self.dateStrategy = dateStrategy
        columns = source.columns
    }

    /// The column names of the source.
    var columnNames: [String] { columns.names }

    /// Decodes one `T` from the source's current row. Inlinable, so that a record type's
    /// fetch loop calls its `init(from:)` directly.
    @inlinable
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        requestCount = 0
        defer { keepForeverIfAContainerIsKept() }
        return try T(from: self)
    }

    /// Makes this decoder, and its superclass decoder, live for good if the record just
    /// decoded kept a container of theirs beyond its row.
    @usableFromInline
    func keepForeverIfAContainerIsKept() {
        if containers.keptContainerIsShared { keepForever() }
        superclassDecoder?.keepForeverIfAContainerIsKept()
    }

    /// The position of the column coded under `key`, or nil when the source has no such column.
    @inline(__always)
    func position<Key: CodingKey>(of key: borrowing Key) -> Int? {
        let request = requestCount
        requestCount = request &+ 1
        let identity = CodingKeyIdentity(key)
        if identity != .none, request < requests.count, requests[request].identity == identity {
            return requests[request].position
        }
        return learnPosition(of: key.stringValue, identity: identity, request: request)
    }

    /// The position of the column named `key` for request number `index`, remembered as
    /// the answer to that request; compared by name with the previous row's request first.
    private func learnPosition(of key: String, identity: CodingKeyIdentity, request index: Int) -> Int? {
        if index < requests.count, requests[index].key == key {
            requests[index].identity = identity
            return requests[index].position
        }
        let request = Request(key: key, identity: identity, position: columns.index(of: key))
        if index < requests.count {
            requests[index] = request
        } else {
            requests.append(request)
        }
        return request.position
    }

    /// Makes this decoder live for good: a container that refers to it without retaining
    /// it is also held elsewhere, by a record that kept it beyond its row.
    private func keepForever() {
        guard !isKeptForever else { return }
        isKeptForever = true
        _ = Unmanaged.passRetained(self)
    }

    // MARK: Decoder

    @usableFromInline
    var codingPath: [any CodingKey] { [] }
    @usableFromInline
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    @usableFromInline
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        if containers.holds(keyedBy: Key.self, dateStrategy: dateStrategy) { return containers.kept() }
        let container = KeyedDecodingContainer(RowKeyedDecodingContainer<Key>(decoder: self))
        if containers.keep(container, keyedBy: Key.self, dateStrategy: dateStrategy) {
            keepForever()
        }
        return container
    }

    @usableFromInline
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw Self.notKeyed
    }

    @usableFromInline
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw Self.notKeyed
    }

    /// A decoder of the same row for a superclass's `init(from:)`, with its own keyed
    /// container; one per decoder, used again for every row.
    func superDecoder() -> CodableRowDecoder {
        if let superclassDecoder {
            superclassDecoder.requestCount = 0
            return superclassDecoder
        }
        let decoder = CodableRowDecoder(source: source, dateStrategy: dateStrategy)
        superclassDecoder = decoder
        return decoder
    }

    private static var notKeyed: DatabaseError {
        DatabaseError(kind: .decoding, message: "a record decodes from a keyed container, one key per column")
    }
}
