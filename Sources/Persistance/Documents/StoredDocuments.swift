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
    /// Whether predicates and sort orders are evaluated inside SQLite (where the engine has
    /// the JSON functions); else every document is read and they are evaluated in Swift.
    /// Both give the same documents in the same order.
    var evaluatesInSQL = SQLiteEngine.supportsJSON

    func documents(matching predicate: DocumentPredicate?, sort: [DocumentSort]) throws -> [Document] {
        try fallingBackToSwift { store in try store.documentsOnce(matching: predicate, sort: sort) }
    }

    func count(matching predicate: DocumentPredicate?) throws -> Int {
        try fallingBackToSwift { store in try store.countOnce(matching: predicate) }
    }

    /// Runs `read`; when SQLite refuses a stored body its JSON functions cannot read (text
    /// written behind the library's back), runs it again with the predicates evaluated in
    /// Swift, which reads every other document and names the one it cannot read in a
    /// `DatabaseError.Kind.invalidDocument` — only when the answer depends on it.
    private func fallingBackToSwift<T>(_ read: (StoredDocuments) throws -> T) throws -> T {
        do {
            return try read(self)
        } catch let error as DatabaseError where evaluatesInSQL && error.kind == .sqlite && error.message.contains("JSON") {
            var inSwift = self
            inSwift.evaluatesInSQL = false
            return try read(inSwift)
        }
    }

    private func documentsOnce(matching predicate: DocumentPredicate?, sort: [DocumentSort]) throws -> [Document] {
        var builder = DocumentSQLBuilder()
        let query = selection(matching: predicate, in: &builder)
        let order = evaluatesInSQL && !sort.isEmpty ? DocumentSort.sqlOrder(sort, in: &builder) : nil
        let sql = "SELECT \"position\", \"id\", \"body\", \"decided\" FROM (\(query)) WHERE \"decided\" IS NOT 0 ORDER BY "
            + (order.map { $0 + ", " } ?? "") + "\"position\""
        var found: [(position: Int64, document: Document)] = []
        let rows = try connection.cursor(sql, builder.statementArguments) { statement in
            (try statement.value(at: 0, as: Int64.self), try statement.value(at: 1, as: String.self),
             try statement.value(at: 2, as: String.self), try statement.value(at: 3, as: Int64?.self))
        }
        while let (position, id, body, decided) = try rows.next() {
            let document = try parse(body, id: id)
            if decided == 1 || predicate?.matches(document) ?? true { found.append((position, document)) }
        }
        if sort.isEmpty { return found.map(\.document) }
        if order != nil, DocumentSort.isOrdered(found, by: sort) { return found.map(\.document) }
        // Not ordered exactly as Swift orders (or not ordered in SQL): Swift sorts them from
        // insertion order, as it does everywhere else.
        return DocumentSort.sorted(found.sorted { $0.position < $1.position }.map(\.document), by: sort)
    }

    private func countOnce(matching predicate: DocumentPredicate?) throws -> Int {
        var builder = DocumentSQLBuilder()
        let query = selection(matching: predicate, in: &builder)
        // Documents SQLite decided are counted there; only the undecided ones are read.
        let sql = "SELECT \"decided\", \"id\", CASE WHEN \"decided\" IS NULL THEN \"body\" END FROM (\(query))"
            + " WHERE \"decided\" IS NOT 0"
        let rows = try connection.cursor(sql, builder.statementArguments) { statement in
            (try statement.value(at: 0, as: Int64?.self), try statement.value(at: 1, as: String.self),
             try statement.value(at: 2, as: String?.self))
        }
        var count = 0
        while let (decided, id, body) = try rows.next() {
            if decided == 1 {
                count += 1
            } else if let body, predicate?.matches(try parse(body, id: id)) ?? true {
                count += 1
            }
        }
        return count
    }

    /// The subquery of the collection's documents with their insertion position and
    /// `decided`: 1 where SQL found that `predicate` matches (or there is none), 0 where it
    /// does not, NULL where Swift must tell. `Id == "…"` is looked up by index.
    private func selection(matching predicate: DocumentPredicate?, in builder: inout DocumentSQLBuilder) -> String {
        let collectionParameter = builder.parameter(.text(collection))
        var sql = "SELECT rowid AS \"position\", \"id\", \"body\", "
        if let id = predicate?.requiredID {
            sql += "1 AS \"decided\" FROM \"persistance_documents\" WHERE \"collection\" = \(collectionParameter)"
                + " AND \"id\" = \(builder.parameter(.text(id)))"
        } else {
            let condition = evaluatesInSQL ? predicate?.sqlDecision(in: &builder) : nil
            sql += "\(condition ?? (predicate == nil ? "1" : DocumentSQLBuilder.undecided)) AS \"decided\""
                + " FROM \"persistance_documents\" WHERE \"collection\" = \(collectionParameter)"
        }
        return sql
    }

    /// The stored document `id`, from its JSON text.
    /// - Throws: `DatabaseError.Kind.invalidDocument`, naming the document, when the text is
    ///   not a JSON object the library can read (malformed, or nested too deep).
    private func parse(_ body: String, id: String) throws -> Document {
        let value: JSONValue
        do {
            value = try JSONParser.parse(body)
        } catch let error as DatabaseError {
            throw DatabaseError(kind: .invalidDocument, message: "the stored document \(id) of \(collection) is unreadable: \(error.message)")
        }
        guard case .object(let document) = value else {
            throw DatabaseError(kind: .invalidDocument, message: "the stored document \(id) of \(collection) is not an object")
        }
        return document
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
