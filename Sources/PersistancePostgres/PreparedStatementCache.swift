#if PostgreSQL
import PostgresNIO
import Synchronization

/// The named statements prepared on one connection, by SQL text and parameter types, the
/// least recently used dropped beyond `capacity`: a statement run again on the connection is
/// only bound and executed, without the server parsing, describing and planning it anew.
///
/// The parameter types are part of the key because a prepared statement keeps the types it
/// was prepared with: a blob is bound typed BYTEA and every other value untyped (see
/// `PostgresParameter`), so the same SQL run with a blob and with text are two statements.
///
/// Each statement gets a name never used before on the connection (`persistance_1`, …):
/// postgres-nio prepares a name the first time it executes it and then remembers how it went,
/// so a name whose preparation failed, or whose statement was deallocated, is never reused.
/// The cache lives as long as its connection (the server drops a connection's statements
/// when it closes); one transaction at a time uses it.
final class PreparedStatementCache: Sendable {
    /// How many statements a connection keeps prepared.
    static let defaultCapacity = 128

    /// A statement as the cache knows it.
    struct Key: Hashable {
        let sql: String
        let parameterTypes: [PostgresDataType]
    }

    /// The statement to run, and the statements to deallocate on the server before it.
    struct Lease: Equatable {
        /// The statement's name on the connection.
        let name: String
        /// The statement was not in the cache: its first execution prepares it.
        let isNew: Bool
        /// The statements dropped from the cache that the server still holds: the least recently
        /// used one when a new statement needed its place, and those retired by ``retire(_:named:)``.
        let evicted: [String]
    }

    private struct Entry {
        let name: String
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
        var namesMade = 0
        /// Statements retired since the last lease, still prepared on the server.
        var retired: [String] = []
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int = defaultCapacity) {
        precondition(capacity > 0, "a statement cache holds at least one statement")
        self.capacity = capacity
    }

    /// The statement for `key`: the one prepared already, or a new name, with the least
    /// recently used statement dropped when the cache is full.
    func lease(_ key: Key) -> Lease {
        state.withLock { state in
            state.clock += 1
            var evicted = state.retired
            state.retired.removeAll()
            if let entry = state.entries[key] {
                state.entries[key]?.lastUse = state.clock
                return Lease(name: entry.name, isNew: false, evicted: evicted)
            }
            if state.entries.count >= capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.entries[oldest.key] = nil
                evicted.append(oldest.value.name)
            }
            state.namesMade += 1
            let name = "persistance_\(state.namesMade)"
            state.entries[key] = Entry(name: name, lastUse: state.clock)
            return Lease(name: name, isNew: true, evicted: evicted)
        }
    }

    /// Forgets the statement `name` of `key`, which may not be prepared (its first execution
    /// failed, perhaps in its preparation): the next lease of `key` prepares a statement under a
    /// new name. The server keeps such a statement, if it was prepared, until the connection closes.
    func drop(_ key: Key, named name: String) {
        state.withLock { state in
            if state.entries[key]?.name == name { state.entries[key] = nil }
        }
    }

    /// Forgets the prepared statement `name` of `key` (a schema change made it stale): the next
    /// lease of any key asks for its deallocation, and the next lease of `key` prepares a
    /// statement under a new name.
    func retire(_ key: Key, named name: String) {
        state.withLock { state in
            guard state.entries[key]?.name == name else { return }
            state.entries[key] = nil
            state.retired.append(name)
        }
    }

    /// Forgets every statement (after a schema change, which the caller follows with
    /// `DEALLOCATE ALL`) and returns how many the server holds.
    func removeAll() -> Int {
        state.withLock { state in
            defer {
                state.entries.removeAll()
                state.retired.removeAll()
            }
            return state.entries.count + state.retired.count
        }
    }

    /// The number of statements in the cache.
    var count: Int { state.withLock { $0.entries.count } }
}
#endif
