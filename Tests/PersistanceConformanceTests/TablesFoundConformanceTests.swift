import Foundation
import Persistance
import Testing

/// The portable table operations look their table up once per transaction
/// (`DatabaseTransaction.tablesFound`), on every engine.
@Suite struct TablesFoundConformanceTests {
    /// Thrown to roll a savepoint back.
    struct Undo: Error {}

    @Test(arguments: ConformanceBackend.allCases)
    func aTableCreatedInARolledBackSavepointIsCreatedAgain(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkCreationRolledBack(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func aTableIsLookedUpOncePerTransaction(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkLookedUpOnce(db) }
    }
}

private func checkCreationRolledBack(_ db: some AsyncDatabase) async throws {
    try await db.write { tx in
        let undone = await thrownError {
            try await tx.savepoint { tx in
                try await PortableTag.table.insert(PortableTag(name: "undone", uses: 1), in: tx)
                throw TablesFoundConformanceTests.Undo()
            }
        }
        #expect(undone is TablesFoundConformanceTests.Undo)
        #expect(try await tx.tableCatalog(PortableTag.table.name) == nil)
        try await PortableTag.table.insert(PortableTag(name: "kept", uses: 2), in: tx)
    }
    let tags = try await db.read { tx in try await PortableTag.table.findAll(in: tx) }
    #expect(tags == [PortableTag(name: "kept", uses: 2)])
}

/// Once an operation found the table, a later one in the same transaction does not look
/// again: after the table is dropped behind its back, it fails with the engine's error
/// instead of creating the table anew. A new transaction looks again.
private func checkLookedUpOnce(_ db: some AsyncDatabase) async throws {
    try await db.write { tx in try await PortableTag.table.create(in: tx) }
    let failure = await thrownError {
        try await db.write { tx in
            try await PortableTag.table.insert(PortableTag(name: "first", uses: 1), in: tx)
            try await tx.execute("DROP TABLE \(try tx.dialect.quotedIdentifier(PortableTag.table.name))", [])
            try await PortableTag.table.insert(PortableTag(name: "second", uses: 2), in: tx)
        }
    }
    #expect(failure is DatabaseError)
    try await db.write { tx in try await PortableTag.table.insert(PortableTag(name: "third", uses: 3), in: tx) }
    let tags = try await db.read { tx in try await PortableTag.table.findAll(in: tx) }
    #expect(tags == [PortableTag(name: "third", uses: 3)])
}
