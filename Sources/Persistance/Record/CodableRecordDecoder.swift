/// The record decoder of `Decodable` records: the library's row decoder, with each coded
/// key's column resolved on the first row and the keyed container reused on the next.
public struct CodableRecordDecoder<Element: Decodable>: RecordDecoder {
    @usableFromInline let plan: RowDecodingPlan
    @usableFromInline let containers = KeyedContainerCache()

    @inlinable
    init(statement: Statement, dateStrategy: DatabaseDateStrategy) {
        plan = RowDecodingPlan(source: .statement(statement), dateStrategy: dateStrategy)
    }

    @inlinable
    public func decode(_ statement: Statement) throws -> Element {
        try plan.decode(Element.self, containers: containers)
    }
}
