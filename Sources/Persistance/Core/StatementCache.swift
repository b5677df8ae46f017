/// A bounded, least-recently-used cache of prepared statements, keyed by SQL text.
/// Repeated SQL is prepared once per connection; the least recently used statement is
/// finalized when the cache is full.
final class StatementCache {
    private struct Entry {
        let statement: Statement
        var lastUse: UInt64
    }

    let capacity: Int
    // Used on its connection's thread only (see `Connection`), so no run-time exclusivity checks.
    @exclusivity(unchecked) private var entries: [String: Entry] = [:]
    @exclusivity(unchecked) private var clock: UInt64 = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { entries.count }

    /// The cached statement for `sql`, unless a cursor is stepping it.
    /// Hashes `sql` once: the entry's use is recorded through its index.
    func statement(for sql: String) -> Statement? {
        guard let index = entries.index(forKey: sql) else { return nil }
        let statement = entries.values[index].statement
        guard !statement.isCursorOpen else { return nil }
        clock &+= 1
        entries.values[index].lastUse = clock
        return statement
    }

    /// Keeps `statement` for later reuse under its SQL text, evicting the least recently used one if full.
    func insert(_ statement: Statement, for sql: String) {
        guard capacity > 0, entries[sql] == nil else { return }
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
        }
        clock &+= 1
        entries[sql] = Entry(statement: statement, lastUse: clock)
    }

    func removeAll() {
        entries.removeAll()
    }
}
