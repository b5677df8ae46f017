import Persistance
import Synchronization

/// How many times DAOs dropped tables in one database file. Every DAO on the file keeps
/// the count it last saw: when it changed, the DAO prepares its table again on its next
/// call (the seed's "when other methods are called, new tables will be created"), even
/// when another DAO dropped it.
final class DAOTableDrops: Sendable {
    private let dropped = Atomic<Int>(0)

    /// The number of drops so far.
    var count: Int { dropped.load(ordering: .acquiring) }

    /// Records that tables were dropped.
    func increment() {
        dropped.add(1, ordering: .releasing)
    }

    /// The counts, by database file path (all in-memory databases share one: a drop in one
    /// makes the others' DAOs prepare again, which is harmless).
    private static let byPath = Mutex<[String: DAOTableDrops]>([:])

    /// The count of `database`'s file, shared by every DAO on it.
    static func of(_ database: Database) -> DAOTableDrops {
        byPath.withLock { counts in
            if let drops = counts[database.path] { return drops }
            let drops = DAOTableDrops()
            counts[database.path] = drops
            return drops
        }
    }
}
