/// A collection's documents in the database, reached through a connection: one row per
/// document in the shared `persistance_documents` table, keyed by collection and `Id`,
/// with the document as JSON text. Events are attached to the connection's transaction, so
/// they are announced when it commits and dropped when it rolls back.
struct StoredDocuments: DocumentStore {
    static let tableName = "persistance_documents"
    static let createTableSQL = """
        CREATE TABLE IF NOT EXISTS "persistance_documents"(\
        "collection" TEXT NOT NULL, "id" TEXT NOT NULL, "body" TEXT NOT NULL, UNIQUE("collection", "id"))
        """

    let connection: Connection
    let collection: String

    func documents(matching predicate: DocumentPredicate?) throws -> [Document] {
        let rows: [String]
        if let id = predicate?.requiredID {
            rows = try connection.fetchAll(
                String.self, #"SELECT "body" FROM "persistance_documents" WHERE "collection" = ? AND "id" = ?"#,
                [collection, id])
        } else {
            rows = try connection.fetchAll(
                String.self, #"SELECT "body" FROM "persistance_documents" WHERE "collection" = ? ORDER BY rowid"#,
                [collection])
        }
        var documents: [Document] = []
        for body in rows {
            guard case .object(let document) = try JSONParser.parse(body) else {
                throw DatabaseError(kind: .invalidDocument, message: "a stored document of \(collection) is not an object")
            }
            if predicate?.matches(document) ?? true { documents.append(document) }
        }
        return documents
    }

    func insert(_ document: Document) throws {
        try connection.execute(
            #"INSERT INTO "persistance_documents"("collection", "id", "body") VALUES (?, ?, ?)"#,
            [collection, DocumentCollection.id(of: document), JSONValue.object(document).serialized()])
    }

    func replace(_ document: Document) throws {
        try connection.execute(
            #"UPDATE "persistance_documents" SET "body" = ? WHERE "collection" = ? AND "id" = ?"#,
            [JSONValue.object(document).serialized(), collection, DocumentCollection.id(of: document)])
    }

    /// Replaces the document with the same `Id`, or adds it when there is none.
    func save(_ document: Document) throws {
        try replace(document)
        if connection.changes == 0 { try insert(document) }
    }

    func remove(ids: [String]) throws {
        for id in ids {
            try connection.execute(
                #"DELETE FROM "persistance_documents" WHERE "collection" = ? AND "id" = ?"#, [collection, id])
        }
    }

    func removeAll() throws -> Int {
        try connection.execute(#"DELETE FROM "persistance_documents" WHERE "collection" = ?"#, [collection])
        return connection.changes
    }

    func announce(_ event: DocumentEvent) {
        connection.changeRecorder?.attach(CollectionEvent(collection: collection, event: event))
    }
}
