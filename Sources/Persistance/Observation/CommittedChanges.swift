/// Everything one committed transaction changed, as announced to observers: its rows, the
/// payloads higher layers attached to it (document events), or, for a commit made by
/// another connection or process, only the fact that something changed.
struct CommittedChanges: Sendable {
    /// The position of this commit among the database's announced commits, from 1.
    var sequence: UInt64 = 0
    /// The changed rows, in the order they changed.
    var rows: [RowChange] = []
    /// What higher layers attached to the transaction (see `ChangeRecorder.attach(_:)`).
    var payloads: [any Sendable] = []
    /// Whether another connection or process committed: the changed tables are unknown.
    var isExternal = false

    /// The lowercased names of the tables whose rows changed.
    var tables: Set<String> { Set(rows.map { $0.table.lowercased() }) }

    var isEmpty: Bool { rows.isEmpty && payloads.isEmpty && !isExternal }

    /// Whether a fetch that read `region` (lowercased table names; nil for "any table") may
    /// now see something else.
    func touches(_ region: Set<String>?) -> Bool {
        guard let region, !isExternal else { return !isEmpty }
        return rows.contains { region.contains($0.table.lowercased()) }
    }
}
