import Persistance
import Testing

/// Failures through the portable API: the same `DatabaseError.Condition` on every engine, so
/// `catch` code works on both (see `ConformanceBackend`).
@Suite struct ErrorConformanceTests {
    @Test(arguments: ConformanceBackend.allCases)
    func uniqueViolation(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkUniqueViolation(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func notNullViolation(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkNotNullViolation(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func foreignKeyViolation(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkForeignKeyViolation(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func failingCommitThrowsAndKeepsNothing(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkFailingCommit(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func badSQLIsATypedError(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkBadSQL(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func transactionGoesOnAfterAFailedStatementInASavepoint(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkRecoveryInSavepoint(db) }
    }
}

/// `table(id, email TEXT NOT NULL UNIQUE)` holding "a@x".
private func makeAccounts(_ db: some AsyncDatabase) async throws -> String {
    let table = uniqueName("account")
    try await db.write { tx in
        try await tx.execute(tx.createTableSQL(table, "email TEXT NOT NULL UNIQUE"), [])
        try await tx.execute("INSERT INTO \(table)(email) VALUES (\(tx.placeholder(1)))", ["a@x"])
    }
    return table
}

private func count(_ table: String, _ db: some AsyncDatabase) async throws -> Int {
    try await db.read { tx in try await tx.fetchAll("SELECT count(*) FROM \(table)", [])[0].value(at: 0, as: Int.self) }
}

private func checkUniqueViolation(_ db: some AsyncDatabase) async throws {
    let table = try await makeAccounts(db)
    let error = await thrownError {
        try await db.write { tx in
            try await tx.execute("INSERT INTO \(table)(email) VALUES (\(tx.placeholder(1)))", ["b@x"])
            try await tx.execute("INSERT INTO \(table)(email) VALUES (\(tx.placeholder(1)))", ["a@x"])
        }
    }
    let databaseError = try #require(error as? DatabaseError)
    #expect(databaseError.condition == .uniqueViolation)
    // The pattern form app code uses.
    switch error {
    case DatabaseError.Condition.uniqueViolation?: break
    default: Issue.record("the condition pattern does not match \(String(describing: error))")
    }
    // Nothing of the failed write was kept.
    #expect(try await count(table, db) == 1)

    // A duplicate primary key is a unique violation too.
    let keyError = await thrownError {
        try await db.write { tx in
            try await tx.execute("INSERT INTO \(table)(id, email) SELECT id, 'c@x' FROM \(table)", [])
        }
    }
    #expect((keyError as? DatabaseError)?.condition == .uniqueViolation)
}

private func checkNotNullViolation(_ db: some AsyncDatabase) async throws {
    let table = try await makeAccounts(db)
    let error = await thrownError {
        try await db.write { tx in
            try await tx.execute("INSERT INTO \(table)(email) VALUES (\(tx.placeholder(1)))", [.null])
        }
    }
    #expect((error as? DatabaseError)?.condition == .notNullViolation, "\(String(describing: error))")
    #expect(try await count(table, db) == 1)
}

private func checkForeignKeyViolation(_ db: some AsyncDatabase) async throws {
    let parent = try await makeAccounts(db)
    let child = uniqueName("session")
    try await db.write { tx in
        try await tx.execute(
            tx.createTableSQL(child, "account \(tx.integerType) NOT NULL REFERENCES \(parent)(id)"), [])
    }
    let error = await thrownError {
        try await db.write { tx in
            try await tx.execute("INSERT INTO \(child)(account) VALUES (\(tx.placeholder(1)))", [.integer(999)])
        }
    }
    #expect((error as? DatabaseError)?.condition == .foreignKeyViolation, "\(String(describing: error))")
    #expect(try await count(child, db) == 0)

    // Deleting a referenced row fails the same way.
    try await db.write { tx in
        try await tx.execute("INSERT INTO \(child)(account) SELECT id FROM \(parent)", [])
    }
    let deleteError = await thrownError {
        try await db.write { tx in try await tx.execute("DELETE FROM \(parent)", []) }
    }
    #expect((deleteError as? DatabaseError)?.condition == .foreignKeyViolation, "\(String(describing: deleteError))")
}

private func checkFailingCommit(_ db: some AsyncDatabase) async throws {
    let parent = try await makeAccounts(db)
    let child = uniqueName("session")
    try await db.write { tx in
        try await tx.execute(
            tx.createTableSQL(
                child, "account \(tx.integerType) NOT NULL REFERENCES \(parent)(id) DEFERRABLE INITIALLY DEFERRED"),
            [])
    }
    // The block succeeds; the deferred foreign key fails the COMMIT, which the call throws.
    let error = await thrownError {
        try await db.write { tx in
            try await tx.execute("INSERT INTO \(child)(account) VALUES (\(tx.placeholder(1)))", [.integer(999)])
            return "returned"
        }
    }
    #expect((error as? DatabaseError)?.condition == .foreignKeyViolation, "\(String(describing: error))")
    #expect(try await count(child, db) == 0)
    // The database takes writes again.
    try await db.write { tx in
        try await tx.execute("INSERT INTO \(child)(account) SELECT id FROM \(parent)", [])
    }
    #expect(try await count(child, db) == 1)
}

private func checkBadSQL(_ db: some AsyncDatabase) async throws {
    let syntax = await thrownError {
        try await db.read { tx in _ = try await tx.fetchAll("SELEC nothing FROM nowhere", []) }
    }
    let syntaxError = try #require(syntax as? DatabaseError, "a typed error, not \(String(describing: syntax))")
    #expect(syntaxError.condition == nil)
    #expect(syntaxError.sql == "SELEC nothing FROM nowhere")

    let missingTable = await thrownError {
        try await db.write { tx in try await tx.execute("DELETE FROM \(uniqueName("missing"))", []) }
    }
    #expect(missingTable is DatabaseError, "a typed error, not \(String(describing: missingTable))")
}

private func checkRecoveryInSavepoint(_ db: some AsyncDatabase) async throws {
    let table = try await makeAccounts(db)
    let conditions = try await db.write { tx in
        var conditions: [DatabaseError.Condition?] = []
        try await tx.execute("INSERT INTO \(table)(email) VALUES (\(tx.placeholder(1)))", ["before@x"])
        do {
            try await tx.savepoint { sp in
                try await sp.execute("INSERT INTO \(table)(email) VALUES (\(sp.placeholder(1)))", ["inside@x"])
                try await sp.execute("INSERT INTO \(table)(email) VALUES (\(sp.placeholder(1)))", ["a@x"])
            }
        } catch let error as DatabaseError {
            conditions.append(error.condition)
        }
        // The savepoint undid its statements and the failure: the transaction goes on.
        try await tx.execute("INSERT INTO \(table)(email) VALUES (\(tx.placeholder(1)))", ["after@x"])
        // A second failure in another savepoint, recovered from the same way.
        do {
            try await tx.savepoint { sp in _ = try await sp.fetchAll("SELECT missing_column FROM \(table)", []) }
        } catch let error as DatabaseError {
            conditions.append(error.condition)
        }
        return conditions
    }
    #expect(conditions == [.uniqueViolation, nil])
    let emails = try await db.read { tx in
        try await tx.fetchAll("SELECT email FROM \(table) ORDER BY id", []).map { try $0.value(at: 0, as: String.self) }
    }
    #expect(emails == ["a@x", "before@x", "after@x"])
}
