/// A collection's documents in the database, reached through a connection: one row per
/// document in the shared `persistance_documents` table, keyed by collection and `Id`,
/// with the document as JSON text. Events are attached to the connection's transaction, so
/// they are announced when it commits and dropped when it rolls back.
struct StoredDocuments: DocumentStore {
    static let tableName = "persistance_documents"
    /// The SQL of every statement.
    static let dialect = SQLiteDocumentDialect()
    static let createTableSQL = dialect.createTableSQL

    let connection: Connection
    let collection: String
    /// Whether predicates and sort orders are evaluated inside SQLite (where the engine has
    /// the JSON functions); else every document is read and they are evaluated in Swift.
    /// Both give the same documents in the same order.
    var evaluatesInSQL = StoredDocuments.dialect.evaluatesPredicates

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
        let query = DocumentQuery(
            documentsOf: collection, matching: predicate, sort: sort, dialect: Self.dialect, evaluatesInSQL: evaluatesInSQL)
        var found: [(position: Int64, document: Document)] = []
        let rows = try connection.cursor(query.sql, DocumentSQLBuilder.statementArguments(query.arguments)) { statement in
            (try statement.value(at: 0, as: Int64.self), try statement.value(at: 1, as: String.self),
             try statement.value(at: 2, as: String.self), try statement.value(at: 3, as: Int64?.self))
        }
        while let (position, id, body, decided) = try rows.next() {
            let document = try query.parse(body, id: id)
            if query.includes(decided: decided, document) { found.append((position, document)) }
        }
        return query.ordered(found)
    }

    private func countOnce(matching predicate: DocumentPredicate?) throws -> Int {
        let query = DocumentQuery(countOf: collection, matching: predicate, dialect: Self.dialect, evaluatesInSQL: evaluatesInSQL)
        let rows = try connection.cursor(query.sql, DocumentSQLBuilder.statementArguments(query.arguments)) { statement in
            (try statement.value(at: 0, as: Int64?.self), try statement.value(at: 1, as: String.self),
             try statement.value(at: 2, as: String?.self))
        }
        var count = 0
        while let (decided, id, body) = try rows.next() {
            if decided == 1 {
                count += 1
            } else if let body, query.includes(decided: decided, try query.parse(body, id: id)) {
                count += 1
            }
        }
        return count
    }

    func insert(_ document: Document) throws {
        try connection.execute(
            Self.dialect.insertSQL,
            [collection, DocumentCollection.id(of: document), JSONValue.object(document).serialized()])
    }

    func replace(_ document: Document) throws {
        try connection.execute(
            Self.dialect.replaceSQL,
            [JSONValue.object(document).serialized(), collection, DocumentCollection.id(of: document)])
    }

    /// Replaces the document with the same `Id`, or adds it when there is none.
    func save(_ document: Document) throws {
        try replace(document)
        if connection.changes == 0 { try insert(document) }
    }

    func remove(ids: [String]) throws {
        for id in ids {
            try connection.execute(Self.dialect.deleteSQL, [collection, id])
        }
    }

    func removeAll() throws -> Int {
        try connection.execute(Self.dialect.deleteAllSQL, [collection])
        return connection.changes
    }

    func announce(_ event: DocumentEvent) {
        connection.changeRecorder?.attach(CollectionEvent(collection: collection, event: event))
    }
}
