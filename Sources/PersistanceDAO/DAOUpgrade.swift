/// An `<upgrade toVersion="…">` block: the statements that bring a table from the previous
/// version up to `version`.
struct DAOUpgrade: Sendable {
    var version: DAOVersion
    var statements: [DAOStatementTemplate]
    var location: DAOSourceLocation
}
