/// Reads the first column of each row as a `T`: the decoder of the single-value fetches.
@usableFromInline
struct FirstColumnDecoder<Element: DatabaseValueConvertible>: RecordDecoder {
    @inlinable
    init() {}

    @inlinable
    func decode(_ statement: Statement) throws -> Element {
        try statement.value(at: 0, as: Element.self)
    }
}
