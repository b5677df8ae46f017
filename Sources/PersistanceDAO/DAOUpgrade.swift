/// An `<upgrade toVersion="…">` block: the statements that bring a table from the previous
/// version up to `version`.
struct DAOUpgrade: Sendable {
    var version: DAOVersion
    var statements: [DAOStatementTemplate]
    var location: DAOSourceLocation

    /// The block as a method without arguments, for the runner.
    var method: DAOMethod {
        DAOMethod(
            id: "upgrade to \(version)", kind: .update, arguments: [], result: .none, iteration: nil,
            statements: statements, location: location)
    }
}
