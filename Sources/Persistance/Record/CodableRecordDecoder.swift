/// The record decoder of `Decodable` records: the library's row decoder, with each coded
/// key's column resolved on the first row and the keyed container reused on the next.
public struct CodableRecordDecoder<Element: Decodable>: RecordDecoder {
    @usableFromInline let decoder: CodableRowDecoder

    @inlinable
    init(statement: Statement, dateStrategy: DatabaseDateStrategy) {
        decoder = CodableRowDecoder(source: .statement(statement), dateStrategy: dateStrategy)
    }

    @inlinable
    public func decode(_ statement: Statement) throws -> Element {
        try decoder.decode(Element.self)
    }
}
