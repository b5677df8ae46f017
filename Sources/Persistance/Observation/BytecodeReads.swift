/// Finds the tables statements read from their bytecode (`EXPLAIN`): the root page of every
/// b-tree they open for reading, named from the schema. Value observations use it on engines
/// whose authorizer misses some reads (see `SQLiteEngine.reportsReadsWithoutColumns`).
enum BytecodeReads {
    /// The lowercased names of the tables that `sqls` open for reading, or nil when that
    /// cannot be told exactly: a statement that no longer prepares, a b-tree of another
    /// database (attached or temporary), a virtual table.
    static func tables(readBy sqls: [String], on connection: Connection) -> Set<String>? {
        var rootPages = Set<Int64>()
        for sql in Set(sqls) {
            guard let pages = rootPagesOpened(by: sql, on: connection) else { return nil }
            rootPages.formUnion(pages)
        }
        rootPages.remove(1)  // the schema table
        guard !rootPages.isEmpty else { return [] }
        let pages = Array(rootPages)
        let placeholders = Array(repeating: "?", count: pages.count).joined(separator: ", ")
        guard let names = try? connection.fetchAll(
            String.self, "SELECT lower(tbl_name) FROM main.sqlite_master WHERE rootpage IN (\(placeholders))",
            StatementArguments(pages.map { DatabaseValue.integer($0) }))
        else { return nil }
        return Set(names)
    }

    /// The root pages `sql` opens for reading in the main database (`OpenRead` and
    /// `ReopenIdx` name the page in P2 and the database in P3), or nil as above.
    private static func rootPagesOpened(by sql: String, on connection: Connection) -> Set<Int64>? {
        guard let statement = try? connection.prepare("EXPLAIN \(sql)") else { return nil }
        var pages = Set<Int64>()
        do {
            // EXPLAIN's columns: addr, opcode, p1, p2, p3, p4, p5, comment.
            while try statement.step() {
                switch try statement.value(at: 1, as: String.self) {
                case "OpenRead", "ReopenIdx":
                    guard try statement.value(at: 4, as: Int64.self) == 0 else { return nil }
                    pages.insert(try statement.value(at: 3, as: Int64.self))
                case "VOpen":
                    return nil
                default:
                    break
                }
            }
        } catch {
            return nil
        }
        return pages
    }
}
