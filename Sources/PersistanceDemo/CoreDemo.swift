import Persistance

/// The core layer: a connection to a file, a table, rows written and read in a
/// transaction, and a transaction rolled back.
func runCoreDemo(in directory: String) throws {
    section("Core: connection, statements, transactions")
    let path = directory + "/core_demo.sqlite"
    let conn = try Connection(path: path)
    defer { try? conn.close() }
    print("opened \(path)")

    try conn.execute("""
        CREATE TABLE IF NOT EXISTS note (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            title TEXT NOT NULL,
            body TEXT
        )
        """)
    try conn.transaction {
        for (title, body) in [("groceries", "eggs, milk"), ("c'est ça", "non-ASCII ✓"), ("empty", nil)] {
            try conn.execute("INSERT INTO note(title, body) VALUES (:title, :body)", ["title": title, "body": body])
            print("inserted note \(conn.lastInsertRowID): \(title)")
        }
    }
    for row in try conn.fetchAll("SELECT id, title, body FROM note ORDER BY id") {
        let title: String = try row.value(named: "title")
        let body: String? = try row.value(named: "body")
        print("read note \(row["id"]!): \(title) — \(body ?? "(no body)")")
    }

    struct Abandon: Error {}
    do {
        try conn.transaction {
            try conn.execute("DELETE FROM note")
            print("deleted every note inside a transaction, then threw")
            throw Abandon()
        }
    } catch is Abandon {
        let count = try conn.fetchOne(Int.self, "SELECT count(*) FROM note") ?? 0
        print("rolled back: \(count) notes are still there")
    }

    do {
        try conn.execute("INSERT INTO note(title) VALUES (NULL)")
    } catch ResultCode.constraintNotNull {
        print("a NULL title is refused with SQLITE_CONSTRAINT_NOTNULL")
    }
}
