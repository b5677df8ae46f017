import Persistance
import Testing

/// Transactions through the portable API, the same on every engine (see `ConformanceBackend`).
@Suite struct TransactionConformanceTests {
    @Test(arguments: ConformanceBackend.allCases)
    func writeCommitsAndReturnsItsValue(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkWriteCommits(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func throwingWriteKeepsNothing(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkThrowingWriteKeepsNothing(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func failedSavepointKeepsTheOuterWork(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkSavepoints(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func readRefusesToWrite(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkReadRefusesToWrite(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func executeCountsChangedRows(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkExecuteCounts(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func fetchesRowsWithColumnNames(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkFetches(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func forEachRowStopsWhenItsBodyThrows(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkForEachRowStops(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func insertReturnsGeneratedKeys(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkInsertKeys(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func tableCatalogListsColumnsAndIndexes(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkTableCatalog(db) }
    }
}

/// A table `item(id, name TEXT NOT NULL, n INTEGER)` with the names given, `n` counting from 1.
private func makeItems(_ tx: some DatabaseTransaction, _ table: String, names: [String] = []) async throws {
    try await tx.execute(tx.createTableSQL(table, "name TEXT NOT NULL", "n \(tx.integerType)"), [])
    for (offset, name) in names.enumerated() {
        try await tx.execute(
            "INSERT INTO \(table)(name, n) VALUES (\(tx.placeholder(1)), \(tx.placeholder(2)))",
            [.text(name), .integer(Int64(offset + 1))])
    }
}

private func names(in table: String, _ db: some AsyncDatabase) async throws -> [String] {
    try await db.read { tx in
        try await tx.fetchAll("SELECT name FROM \(table) ORDER BY id", []).map { try $0.value(at: 0, as: String.self) }
    }
}

private struct Failure: Error, Equatable {
    var tag = 0
}

private func checkWriteCommits(_ db: some AsyncDatabase) async throws {
    let table = uniqueName()
    let value = try await db.write { tx in
        try await makeItems(tx, table, names: ["a", "b"])
        return 42
    }
    #expect(value == 42)
    // Another transaction sees what the write committed.
    #expect(try await names(in: table, db) == ["a", "b"])
    let count = try await db.read { tx in
        try await tx.fetchAll("SELECT count(*) FROM \(table)", [])[0].value(at: 0, as: Int.self)
    }
    #expect(count == 2)
}

private func checkThrowingWriteKeepsNothing(_ db: some AsyncDatabase) async throws {
    let table = uniqueName()
    try await db.write { tx in try await makeItems(tx, table, names: ["kept"]) }
    let error = await thrownError {
        try await db.write { tx in
            try await tx.execute("INSERT INTO \(table)(name) VALUES (\(tx.placeholder(1)))", ["lost"])
            try await tx.execute("DELETE FROM \(table) WHERE name = \(tx.placeholder(1))", ["kept"])
            throw Failure(tag: 7)
        }
    }
    // The block's own error comes out unchanged.
    #expect(error as? Failure == Failure(tag: 7))
    #expect(try await names(in: table, db) == ["kept"])

    // A table created in a rolled-back write is gone too (DDL is transactional on both engines).
    let other = uniqueName()
    _ = await thrownError {
        try await db.write { tx in
            try await makeItems(tx, other, names: ["x"])
            throw Failure()
        }
    }
    #expect(try await db.read { tx in try await tx.tableCatalog(other) } == nil)
}

private func checkSavepoints(_ db: some AsyncDatabase) async throws {
    let table = uniqueName()
    let outcome = try await db.write { tx in
        try await makeItems(tx, table, names: ["outer"])
        // A savepoint that throws undoes its own work only.
        let error = await thrownError {
            try await tx.savepoint { sp in
                try await sp.execute("INSERT INTO \(table)(name) VALUES (\(sp.placeholder(1)))", ["inner-lost"])
                throw Failure(tag: 1)
            }
        }
        #expect(error as? Failure == Failure(tag: 1))
        // A savepoint that returns keeps its work and returns its value.
        let kept = try await tx.savepoint { sp in
            try await sp.execute("INSERT INTO \(table)(name) VALUES (\(sp.placeholder(1)))", ["inner-kept"])
            // Nested once more: the innermost failure leaves the middle savepoint's work.
            _ = await thrownError {
                try await sp.savepoint { inner in
                    try await inner.execute("DELETE FROM \(table)", [])
                    throw Failure(tag: 2)
                }
            }
            return "value"
        }
        #expect(kept == "value")
        return try await tx.fetchAll("SELECT name FROM \(table) ORDER BY id", []).map { try $0.value(at: 0, as: String.self) }
    }
    #expect(outcome == ["outer", "inner-kept"])
    #expect(try await names(in: table, db) == ["outer", "inner-kept"])

    // The outer transaction still rolls back everything, the released savepoint's work included.
    _ = await thrownError {
        try await db.write { tx in
            try await tx.savepoint { sp in
                _ = try await sp.execute("INSERT INTO \(table)(name) VALUES (\(sp.placeholder(1)))", ["released"])
            }
            throw Failure()
        }
    }
    #expect(try await names(in: table, db) == ["outer", "inner-kept"])
}

private func checkReadRefusesToWrite(_ db: some AsyncDatabase) async throws {
    let table = uniqueName()
    try await db.write { tx in try await makeItems(tx, table, names: ["a"]) }
    let error = await thrownError {
        try await db.read { tx in
            _ = try await tx.execute("INSERT INTO \(table)(name) VALUES (\(tx.placeholder(1)))", ["b"])
        }
    }
    #expect(error is DatabaseError, "a typed error, not \(String(describing: error))")
    #expect(try await names(in: table, db) == ["a"])
}

private func checkExecuteCounts(_ db: some AsyncDatabase) async throws {
    let table = uniqueName()
    let counts = try await db.write { tx in
        var counts: [Int] = []
        // DDL changes no rows.
        counts.append(try await tx.execute(tx.createTableSQL(table, "name TEXT NOT NULL", "n \(tx.integerType)"), []))
        for name in ["a", "b", "c"] {
            counts.append(try await tx.execute("INSERT INTO \(table)(name, n) VALUES (\(tx.placeholder(1)), 0)", [.text(name)]))
        }
        counts.append(try await tx.execute("UPDATE \(table) SET n = n + 1 WHERE name <> \(tx.placeholder(1))", ["a"]))
        counts.append(try await tx.execute("UPDATE \(table) SET n = 5 WHERE name = \(tx.placeholder(1))", ["none"]))
        // A statement that changes nothing after one that did reports 0, not the last count.
        counts.append(try await tx.execute("SELECT count(*) FROM \(table)", []))
        counts.append(try await tx.execute("DELETE FROM \(table)", []))
        return counts
    }
    #expect(counts == [0, 1, 1, 1, 2, 0, 0, 3])
}

private func checkFetches(_ db: some AsyncDatabase) async throws {
    let table = uniqueName()
    try await db.write { tx in try await makeItems(tx, table, names: ["a", "b", "c"]) }
    try await db.read { tx in
        let rows = try await tx.fetchAll(
            "SELECT name AS label, n FROM \(table) WHERE n >= \(tx.placeholder(1)) ORDER BY n", [.integer(2)])
        #expect(rows.count == 2)
        #expect(rows.first?.columnNames == ["label", "n"])
        let labels = try rows.map { try $0.value(named: "label", as: String.self) }
        let numbers = try rows.map { try $0.value(named: "n", as: Int64.self) }
        #expect(labels == ["b", "c"])
        #expect(numbers == [2, 3])
        #expect(rows.map(\.values) == [[.text("b"), .integer(2)], [.text("c"), .integer(3)]])

        #expect(try await tx.fetchAll("SELECT name FROM \(table) WHERE n > 10", []).isEmpty)

        // fetchOne: the row a lookup selects, with its column names; nil for none.
        let one = try await tx.fetchOne(
            "SELECT name AS label, n FROM \(table) WHERE n = \(tx.placeholder(1))", [.integer(2)])
        #expect(one?.columnNames == ["label", "n"])
        #expect(one?.values == [.text("b"), .integer(2)])
        let none = try await tx.fetchOne("SELECT name FROM \(table) WHERE n > 10", [])
        #expect(none == nil)

        var seen: [Row] = []
        try await tx.forEachRow("SELECT name AS label, n FROM \(table) ORDER BY n", []) { row in
            seen.append(row)
        }
        #expect(seen.map(\.values) == [[.text("a"), .integer(1)], [.text("b"), .integer(2)], [.text("c"), .integer(3)]])
        #expect(seen.first?.columnNames == ["label", "n"])

        // No statement runs on the transaction from inside `forEachRow`'s block: PostgreSQL's
        // connection is busy sending the rows (it throws misuse); SQLite allows it.
    }
}

private func checkForEachRowStops(_ db: some AsyncDatabase) async throws {
    let table = uniqueName()
    try await db.write { tx in try await makeItems(tx, table, names: ["a", "b", "c", "d"]) }
    try await db.read { tx in
        var seen: [String] = []
        let error = await thrownError {
            try await tx.forEachRow("SELECT name FROM \(table) ORDER BY n", []) { row in
                let name = try row.value(at: 0, as: String.self)
                seen.append(name)
                if name == "b" { throw Failure(tag: 3) }
            }
        }
        #expect(error as? Failure == Failure(tag: 3))
        #expect(seen == ["a", "b"])
        // The transaction goes on, and the same query runs again from the start.
        var again: [String] = []
        try await tx.forEachRow("SELECT name FROM \(table) ORDER BY n", []) { row in
            again.append(try row.value(at: 0, as: String.self))
        }
        #expect(again == ["a", "b", "c", "d"])
    }
}

private func checkInsertKeys(_ db: some AsyncDatabase) async throws {
    let table = uniqueName()
    try await db.write { tx in
        try await tx.execute(tx.createTableSQL(table, "name TEXT NOT NULL UNIQUE"), [])
        let sql = "INSERT INTO \(table)(name) VALUES (\(tx.placeholder(1)))"
        let first = try await tx.insert(sql, ["a"], returningKey: "id")
        let second = try await tx.insert(sql, ["b"], returningKey: "id")
        #expect(first != nil)
        #expect(second != nil)
        if let first, let second { #expect(second > first) }
        let stored = try await tx.fetchAll("SELECT id FROM \(table) WHERE name = \(tx.placeholder(1))", ["b"])
        #expect(try stored.first?.value(at: 0, as: Int64.self) == second)
    }
    // An insert that inserts nothing has no key.
    let none = try await db.write { tx in
        try await tx.insert(
            "INSERT INTO \(table)(name) SELECT name FROM \(table) WHERE name = \(tx.placeholder(1))", ["missing"],
            returningKey: "id")
    }
    #expect(none == nil)
}

private func checkTableCatalog(_ db: some AsyncDatabase) async throws {
    let table = uniqueName()
    try await db.write { tx in
        try await tx.serializeSchemaChanges()
        try await makeItems(tx, table)
        try await tx.execute("CREATE INDEX \(table)_name ON \(table)(name)", [])
        try await tx.execute("CREATE INDEX \(table)_n ON \(table)(n)", [])
    }
    let catalog = try await db.read { tx in try await tx.tableCatalog(table) }
    #expect(catalog?.columns == ["id", "name", "n"])
    #expect(catalog?.indexes.isSuperset(of: ["\(table)_name", "\(table)_n"]) == true)
    #expect(catalog?.indexes.isDisjoint(with: catalog?.columns ?? []) == true)
    #expect(try await db.read { tx in try await tx.tableCatalog(uniqueName("missing")) } == nil)
    // tableExists answers what the catalog shows.
    let exists = try await db.read { tx in [try await tx.tableExists(table), try await tx.tableExists(uniqueName("missing"))] }
    #expect(exists == [true, false])
}
