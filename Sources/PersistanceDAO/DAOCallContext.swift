/// What one call needs from its DAO, taken once when the call starts: later changes to the
/// DAO (table name, global arguments, cipher, registered types) do not affect it.
///
/// A class: the runner, the result reader and the table preparation each keep it, and
/// sharing one reference costs one retain where copying its six fields cost a dozen.
final class DAOCallContext: Sendable {
    let module: DAOModule
    let tableName: String?
    let globals: [String: DAOValue]
    let crypt: DAOFieldCrypt
    let recordTypes: [String: DAORecordDecoder]
    /// The SQL of the module's static statements for `tableName`, by static index.
    let staticSQL: [String?]

    init(
        module: DAOModule, tableName: String?, globals: [String: DAOValue], crypt: DAOFieldCrypt,
        recordTypes: [String: DAORecordDecoder], staticSQL: [String?]
    ) {
        self.module = module
        self.tableName = tableName
        self.globals = globals
        self.crypt = crypt
        self.recordTypes = recordTypes
        self.staticSQL = staticSQL
    }

    func renderer() -> DAOStatementRenderer {
        DAOStatementRenderer(tableName: tableName, crypt: crypt)
    }
}
