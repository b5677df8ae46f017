/// Sums the outcomes of the writes of one call (its steps, its `foreach` iterations): the
/// rows they changed, and the id of the last row one of them inserted.
struct DAOWriteTally {
    private var changes = 0
    private var rowID: Int64?

    /// Adds `outcome` when it is a write's; returns whether it was.
    @discardableResult
    mutating func add(_ outcome: DAOResult) -> Bool {
        switch outcome {
        case .done(let count):
            changes += count
        case .inserted(let count, let id):
            changes += count
            rowID = id
        default:
            return false
        }
        return true
    }

    /// The call's result: `inserted` when a statement inserted a row, `done` otherwise.
    var result: DAOResult {
        rowID.map { .inserted(changes: changes, rowID: $0) } ?? .done(changes: changes)
    }
}
