/// A record decoder that calls a function: for records that read their columns by hand.
///
/// ```swift
/// static func rowDecoder(for statement: Statement) throws -> RecordDecodingFunction<Self> {
///     guard let name = statement.columnIndex(named: "name") else { throw … }
///     return RecordDecodingFunction { statement in Player(name: statement.string(at: name)) }
/// }
/// ```
public struct RecordDecodingFunction<Element>: RecordDecoder {
    @usableFromInline let body: (Statement) throws -> Element

    /// A decoder that reads each row with `body`.
    public init(_ body: @escaping (Statement) throws -> Element) {
        self.body = body
    }

    @inlinable
    public func decode(_ statement: Statement) throws -> Element {
        try body(statement)
    }
}
