import Persistance

/// The data the commit and rotation loops write: each transaction adds one `item`, a
/// number of `part` rows of varying size (so transactions span several pages), and bumps
/// the single row of `tally`. Each item row records how many parts and bytes it wrote, so
/// a checker can tell a whole transaction from a torn one without knowing how sizes are chosen.
enum ItemLog {
    static func createTables(_ conn: Connection) throws {
        try conn.execute("""
            CREATE TABLE IF NOT EXISTS item(id INTEGER PRIMARY KEY, parts INTEGER NOT NULL, bytes INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS part(item INTEGER NOT NULL, n INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY(item, n));
            CREATE TABLE IF NOT EXISTS tally(total INTEGER NOT NULL);
            INSERT INTO tally SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM tally);
            """)
    }

    /// The id the next item gets: one above the highest committed.
    static func nextID(_ conn: Connection) throws -> Int64 {
        try conn.fetchOne(Int64.self, "SELECT coalesce(max(id), 0) + 1 FROM item") ?? 1
    }

    /// Writes item `id` with its parts and counts it in `tally`; run inside one transaction.
    static func write(_ id: Int64, _ conn: Connection) throws {
        let parts = 1 + Int(id % 4)
        var bytes = 0
        for n in 0..<parts {
            let size = 500 + Int((id &* 37 &+ Int64(n) &* 101) % 3_000)
            try conn.execute("INSERT INTO part(item, n, body) VALUES (?, ?, zeroblob(?))", [id, n, size])
            bytes += size
        }
        try conn.execute("INSERT INTO item(id, parts, bytes) VALUES (?, ?, ?)", [id, parts, bytes])
        try conn.execute("UPDATE tally SET total = total + 1")
    }
}
