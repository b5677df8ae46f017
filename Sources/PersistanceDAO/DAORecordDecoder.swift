import Persistance

/// Makes records of a type a module's results name (`result="MessageModel"`, `<map result=…>`)
/// from rows; registered with ``DAO/register(_:as:)``.
struct DAORecordDecoder: Sendable {
    let decode: @Sendable (Row) throws -> any Sendable
    /// The declared kinds of the type's properties, which decrypted fields are turned into.
    let propertyKinds: [String: DAOPropertyKind]

    init<R: Record & Decodable & Sendable>(_ type: R.Type) {
        decode = { row in try R(row: row) }
        propertyKinds = DAOPropertyKind.kinds(of: type)
    }
}
