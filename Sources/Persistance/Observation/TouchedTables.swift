/// What a run of announced commits touched, each table with the last commit that touched it:
/// what the scheduler checks every observation's region against, once per round, rather
/// than every commit against every observation.
struct TouchedTables: Sendable {
    /// The last commit that changed a row of each table (lowercased names).
    private var lastTouch: [String: UInt64] = [:]
    /// The last commit made by another connection or process (its tables are unknown).
    private var lastExternal: UInt64 = 0
    /// The last commit that changed anything.
    private var lastChange: UInt64 = 0

    /// What `batches` (oldest first) touched.
    init(_ batches: [CommittedChanges]) {
        for batch in batches where !batch.isEmpty {
            lastChange = batch.sequence
            if batch.isExternal { lastExternal = batch.sequence }
            for row in batch.rows {
                // Batches come oldest first: the last one to touch a table is the latest.
                lastTouch[row.table.lowercased()] = batch.sequence
            }
        }
    }

    /// Whether a commit after `sequence` touched `tables` (lowercased; nil for "any table"),
    /// as `CommittedChanges.touches(_:)` tells for one commit.
    func touch(_ tables: Set<String>?, after sequence: UInt64) -> Bool {
        guard lastChange > sequence else { return false }
        guard let tables, lastExternal <= sequence else { return true }
        return tables.contains { (lastTouch[$0] ?? 0) > sequence }
    }
}
