import Foundation
import Testing

@testable import Persistance

/// Document collections through the portable API: the predicate table
/// (`DocumentPredicateTable`) gives the same documents in the same order on every engine and
/// on SQLite's synchronous collection, and the portable operations behave alike, bad input
/// included (see `ConformanceBackend`).
@Suite struct DocumentConformanceTests {
    @Test(arguments: ConformanceBackend.allCases)
    func predicateTable(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkPredicateTable(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func predicateTableCounts(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkPredicateTableCounts(db) }
    }

    @Test func predicateTableOnTheSynchronousCollection() async throws {
        try await ConformanceBackend.sqlite.withSQLite { db in
            let collection = try await db.collection("users")
            try await collection.add(contentsOf: DocumentPredicateTable.documents)
            for query in DocumentPredicateTable.queries {
                let found = DocumentPredicateTable.names(try await collection.query(where: query.predicate, sort: query.sort))
                let sliced = DocumentPredicateTable.Query.slice(found, limit: query.limit, offset: query.offset)
                #expect(sliced == query.expected(from: DocumentPredicateTable.documents), "\(query)")
            }
        }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func portableOperations(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkPortableOperations(db) }
    }

    @Test(arguments: ConformanceBackend.allCases)
    func badInputIsRefusedBeforeAnythingRuns(_ backend: ConformanceBackend) async throws {
        try await backend.withDatabase { db in try await checkBadInput(db) }
    }
}

/// A collection holding the table's documents, on `db`.
private func tableCollection(_ db: some AsyncDatabase) async throws -> String {
    let collection = uniqueName("documents")
    try await db.write { tx in
        let documents = tx.documents(collection)
        try await documents.createTable()
        try await documents.add(contentsOf: DocumentPredicateTable.documents)
    }
    return collection
}

private func checkPredicateTable(_ db: some AsyncDatabase) async throws {
    let collection = try await tableCollection(db)
    let results = try await db.read { tx in
        var results: [[String]] = []
        for query in DocumentPredicateTable.queries {
            let found = try await tx.documents(collection).query(
                where: query.predicate, sort: query.sort, limit: query.limit, offset: query.offset)
            results.append(DocumentPredicateTable.names(found))
        }
        return results
    }
    for (query, found) in zip(DocumentPredicateTable.queries, results) {
        #expect(found == query.expected(from: DocumentPredicateTable.documents), "\(query)")
    }
    #expect(DocumentPredicateTable.queries.count >= 100)
}

private func checkPredicateTableCounts(_ db: some AsyncDatabase) async throws {
    let collection = try await tableCollection(db)
    let counts = try await db.read { tx in
        var counts: [Int] = []
        for query in DocumentPredicateTable.queries { counts.append(try await tx.documents(collection).count(where: query.predicate)) }
        return counts
    }
    for (query, count) in zip(DocumentPredicateTable.queries, counts) {
        #expect(count == DocumentPredicateTable.documents.filter { query.predicate?.matches($0) ?? true }.count, "\(query)")
    }
}

private func checkPortableOperations(_ db: some AsyncDatabase) async throws {
    let collection = uniqueName("operations")
    let outcome = try await db.write { tx in
        let documents = tx.documents(collection)
        try await documents.createTable()
        let ann = try await documents.add(["name": "Ann"])
        let id = ann["Id"]?.stringValue ?? ""
        var renamed = ann
        renamed["name"] = "Anna"
        let replaced = try await documents.replace(renamed)
        let replacedNobody = try await documents.replace(["Id": "nobody", "name": "Bob"])
        try await documents.save(["Id": "bob", "name": "Bob"])
        try await documents.save(["Id": "bob", "name": "Bobby"])
        return (
            id: id, replaced: replaced, replacedNobody: replacedNobody,
            found: try await documents.document(withID: id)?["name"], missing: try await documents.document(withID: "nobody"),
            names: DocumentPredicateTable.names(try await documents.query(where: nil)), count: try await documents.count(),
            removedWhere: try await documents.remove(where: DocumentField("name") == "Bobby"),
            removed: try await documents.remove(id: id), removedAgain: try await documents.remove(id: id),
            remaining: try await documents.removeAll())
    }
    #expect(UUID(uuidString: outcome.id) != nil)
    #expect(outcome.replaced && !outcome.replacedNobody)
    #expect(outcome.found == "Anna" && outcome.missing == nil)
    #expect(outcome.names == ["Anna", "Bobby"] && outcome.count == 2)
    #expect(outcome.removedWhere == 1 && outcome.removed && !outcome.removedAgain && outcome.remaining == 0)
}

private func checkBadInput(_ db: some AsyncDatabase) async throws {
    let collection = uniqueName("bad")
    try await db.write { tx in try await tx.documents(collection).createTable() }
    let errors: [(any Error)?] = [
        await thrownError { try await db.write { tx in try await tx.documents(collection).replace(["name": "no Id"]) } },
        await thrownError { try await db.write { tx in try await tx.documents(collection).save(["name": "no Id"]) } },
        await thrownError { try await db.write { tx in try await tx.documents(collection).add(["n": .double(.infinity)]) } },
        await thrownError { try await db.read { tx in try await tx.documents(collection).query(where: DocumentField("") == 1) } },
        await thrownError { try await db.read { tx in try await tx.documents(collection).count(where: DocumentField("n") < true) } },
        await thrownError { try await db.read { tx in try await tx.documents(collection).query(where: nil, limit: -1) } },
        await thrownError { try await db.read { tx in try await tx.documents(collection).query(where: nil, offset: -1) } },
    ]
    #expect(errors.map { ($0 as? DatabaseError)?.kind } == [
        .missingDocumentID, .missingDocumentID, .notJSONCompatible, .invalidPredicate, .invalidPredicate, .invalidQuery, .invalidQuery,
    ])
    #expect(try await db.read { tx in try await tx.documents(collection).count() } == 0)
}
