/// A `select`, `insert`, `update` or `delete` of a module, checked.
struct DAOMethod: Sendable {
    /// Which element declared the method; a `select` runs on a reader.
    enum Kind: String, Sendable {
        case select, insert, update, delete
    }

    /// One entry of `arguments`; a `$` prefix refuses nil.
    struct Argument: Sendable {
        var name: String
        var refusesNil: Bool
    }

    var id: String
    var kind: Kind
    var arguments: [Argument]
    var result: DAOResultKind
    /// `foreach="collection.item"`: the method runs once per element, in one transaction.
    var iteration: (collection: String, item: String)?
    var statements: [DAOStatementTemplate]
    var location: DAOSourceLocation
}
