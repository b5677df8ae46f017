/// A bounded, least-recently-used cache of prepared statements, keyed by SQL text.
/// Repeated SQL is prepared once per connection; the least recently used statement is
/// finalized when the cache is full.
///
/// SQL passed again as the same string value (a table's or a query's SQL, kept from call to
/// call) is found by the string's identity, without hashing its text: see `recent`.
final class StatementCache {
    /// A key looked up recently, kept with its statement.
    private struct RecentKey {
        let sql: String
        let statement: Statement
    }

    let capacity: Int
    // Used on its connection's thread only (see `Connection`), so no run-time exclusivity checks.
    @exclusivity(unchecked) private var entries: [String: Statement] = [:]
    @exclusivity(unchecked) private var clock: UInt64 = 0
    /// The keys found recently, each in the slot its string's bits pick. A key whose bits
    /// equal a kept key's bits is the same string value: the same immutable storage (kept
    /// alive, so never reused for other text, by this slot) or the same small-string bytes.
    @exclusivity(unchecked) private var recent = [RecentKey?](repeating: nil, count: StatementCache.recentCount)

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var count: Int { entries.count }

    /// The cached statement for `sql`, unless a cursor is stepping it.
    func statement(for sql: String) -> Statement? {
        guard let bits = Self.identityBits(of: sql) else { return entries[sql].flatMap(use) }
        let slot = Self.recentSlot(bits)
        if let kept = recent[slot], let keptBits = Self.identityBits(of: kept.sql), keptBits == bits {
            return use(kept.statement)
        }
        guard let statement = entries[sql] else { return nil }
        recent[slot] = RecentKey(sql: sql, statement: statement)
        return use(statement)
    }

    /// Records a use of `statement`, unless a cursor is stepping it.
    private func use(_ statement: Statement) -> Statement? {
        guard !statement.isCursorOpen else { return nil }
        clock &+= 1
        statement.cacheLastUse = clock
        return statement
    }

    /// Keeps `statement` for later reuse under its SQL text, evicting the least recently used one if full.
    func insert(_ statement: Statement, for sql: String) {
        guard capacity > 0, entries[sql] == nil else { return }
        if entries.count >= capacity, let oldest = entries.min(by: { $0.value.cacheLastUse < $1.value.cacheLastUse }) {
            entries[oldest.key] = nil
            forgetRecentKeys()
        }
        clock &+= 1
        statement.cacheLastUse = clock
        entries[sql] = statement
    }

    func removeAll() {
        entries.removeAll()
        forgetRecentKeys()
    }

    private func forgetRecentKeys() {
        for slot in recent.indices { recent[slot] = nil }
    }

    private static let recentCount = 16

    /// The bits of a string value, which tell it apart from any other value alive at the
    /// same time; nil where a string is not two words.
    @inline(__always)
    private static func identityBits(of string: String) -> (UInt64, UInt64)? {
        guard MemoryLayout<String>.size == MemoryLayout<(UInt64, UInt64)>.size else { return nil }
        return unsafeBitCast(string, to: (UInt64, UInt64).self)
    }

    @inline(__always)
    private static func recentSlot(_ bits: (UInt64, UInt64)) -> Int {
        Int(truncatingIfNeeded: (bits.0 ^ bits.1 ^ (bits.1 >> 4)) % UInt64(recentCount))
    }
}
