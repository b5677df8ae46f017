/// A `select`, `insert`, `update` or `delete` of a module, checked.
///
/// A class: every call takes its method out of the module's table, and sharing it costs
/// one retain where copying its seven fields cost one per field.
final class DAOMethod: Sendable {
    /// Which element declared the method; a `select` runs on a reader.
    enum Kind: String, Sendable {
        case select, insert, update, delete
    }

    /// One entry of `arguments`; a `$` prefix refuses nil.
    struct Argument: Sendable {
        var name: String
        var refusesNil: Bool
    }

    let id: String
    let kind: Kind
    let arguments: [Argument]
    let result: DAOResultKind
    /// `foreach="collection.item"`: the method runs once per element, in one transaction.
    let iteration: (collection: String, item: String)?
    let statements: [DAOStatementTemplate]
    let location: DAOSourceLocation

    init(
        id: String, kind: Kind, arguments: [Argument], result: DAOResultKind,
        iteration: (collection: String, item: String)?, statements: [DAOStatementTemplate], location: DAOSourceLocation
    ) {
        self.id = id
        self.kind = kind
        self.arguments = arguments
        self.result = result
        self.iteration = iteration
        self.statements = statements
        self.location = location
    }
}
