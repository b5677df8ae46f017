import Persistance

/// Makes records of a type a module's results name (`result="MessageModel"`, `<map result=…>`)
/// from rows; registered with ``DAO/register(_:as:)``.
struct DAORecordDecoder: Sendable {
    let decode: @Sendable (Row) throws -> any Sendable

    init<R: Record & Decodable & Sendable>(_ type: R.Type) {
        decode = { row in try R(row: row) }
    }
}
