/// One statement of a method (its body, or one of its `step`s): the SQL to run and, for a
/// `<try>`, the SQL to run instead when it fails.
struct DAOStatementTemplate: Sendable {
    var body: [SQLTemplate]
    /// The `<except>` of a `<try>`: runs when `body` fails, after `body`'s changes are undone.
    var fallback: [SQLTemplate]?
    /// A failure of this step is ignored (its own changes undone) and the method goes on.
    var resumable: Bool
    var location: DAOSourceLocation
    /// Where `body` is in the module's static statements, when its SQL depends on nothing
    /// but the table name.
    var staticIndex: Int?
}
