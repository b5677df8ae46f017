/// What one call needs from its DAO, taken once when the call starts: later changes to the
/// DAO (table name, global arguments, cipher, registered types) do not affect it.
struct DAOCallContext: Sendable {
    let module: DAOModule
    let tableName: String?
    let globals: [String: DAOValue]
    let crypt: DAOFieldCrypt
    let recordTypes: [String: DAORecordDecoder]
    /// The SQL of the module's static statements for `tableName`, by static index.
    let staticSQL: [String?]

    func renderer() -> DAOStatementRenderer {
        DAOStatementRenderer(tableName: tableName, crypt: crypt)
    }
}
