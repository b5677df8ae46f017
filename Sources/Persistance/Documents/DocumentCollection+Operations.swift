extension DocumentCollection {
    /// Adds `document`, giving it a new `Id` and an `update` stamp (replacing any it had),
    /// and returns it as stored.
    /// - Throws: `DatabaseError.Kind.notJSONCompatible` for a non-finite number;
    ///   `.documentTooDeep` for one nested deeper than ``DocumentCollection/maximumDepth``. Nothing is written.
    @discardableResult
    public func add(_ document: Document) async throws -> Document {
        try await write { try $0.add(document) }
    }

    /// Adds `documents` in one transaction (all or none), each with a new `Id` and an
    /// `update` stamp, and returns them as stored.
    @discardableResult
    public func add(contentsOf documents: [Document]) async throws -> [Document] {
        try await write { try $0.add(contentsOf: documents) }
    }

    /// Adds an `Encodable` value, encoded as a JSON object (a `Date` as seconds since 1970,
    /// `Data` as base64 text), and returns it as stored.
    /// - Throws: `DatabaseError.Kind.invalidDocument` when it does not encode to an object.
    @discardableResult
    public func add(_ value: some Encodable) async throws -> Document {
        let document = try JSONValue.document(encoding: value)
        return try await add(document)
    }

    /// Merges `document`'s values into the stored document with the same `Id` and stamps it;
    /// returns false when there is no such document.
    /// - Throws: `DatabaseError.Kind.missingDocumentID` when `document` has no string `Id`.
    @discardableResult
    public func update(_ document: Document) async throws -> Bool {
        try await write { try $0.update(document) }
    }

    /// Merges `values` (top-level keys replace the stored ones; `Id` is kept) into every
    /// document matching `predicate`, in one transaction; returns false when none matches.
    @discardableResult
    public func update(_ values: Document, where predicate: DocumentPredicate) async throws -> Bool {
        try await write { try $0.update(values, where: predicate) }
    }

    /// Updates the documents matching `predicate` like `update(_:where:)`, or adds `values`
    /// as a new document when none matches (always when `predicate` is nil), in one
    /// transaction; returns the documents written.
    @discardableResult
    public func createOrUpdate(_ values: Document, where predicate: DocumentPredicate?) async throws -> [Document] {
        try await write { try $0.createOrUpdate(values, where: predicate) }
    }

    /// Removes the document with `document`'s `Id`; returns false when there is none.
    /// - Throws: `DatabaseError.Kind.missingDocumentID` when `document` has no string `Id`.
    @discardableResult
    public func remove(_ document: Document) async throws -> Bool {
        try await write { try $0.remove(document) }
    }

    /// Removes every document matching `predicate`; returns false when none matches. The
    /// `removed` event carries the documents as they were.
    @discardableResult
    public func remove(where predicate: DocumentPredicate) async throws -> Bool {
        try await write { try $0.remove(where: predicate) }
    }

    /// Removes every document of the collection; returns how many there were.
    @discardableResult
    public func removeAll() async throws -> Int {
        try await write { try $0.removeAll() }
    }

    /// The documents matching `predicate` (all when nil), ordered by `sort` (then by
    /// insertion order).
    public func query(where predicate: DocumentPredicate?, sort: [DocumentSort] = []) async throws -> [Document] {
        try await read { try $0.query(where: predicate, sort: sort) }
    }

    /// Every document, ordered by `sort` (then by insertion order).
    public func queryAll(sort: [DocumentSort] = []) async throws -> [Document] {
        try await query(where: nil, sort: sort)
    }

    /// The documents matching `predicate`, decoded as `type` (a `Date` from seconds since
    /// 1970, `Data` from base64 text).
    public func query<T: Decodable>(
        _ type: T.Type, where predicate: DocumentPredicate?, sort: [DocumentSort] = []
    ) async throws -> [T] {
        try await query(where: predicate, sort: sort).map { try JSONValue.decode(type, from: $0) }
    }

    /// The number of documents matching `predicate` (all when nil).
    public func count(where predicate: DocumentPredicate? = nil) async throws -> Int {
        try await read { try $0.count(where: predicate) }
    }

    /// The collection's operations on `connection`, synchronously, in its transaction: they
    /// commit or roll back with the block's other writes, and their events come only after
    /// the commit. Always on the database, even for a caching handle.
    ///
    /// ```swift
    /// try await db.write { conn in
    ///     try conn.execute("INSERT INTO audit(what) VALUES ('new user')")
    ///     try users.on(conn).add(["name": "Ann"])
    /// }
    /// ```
    public func on(_ connection: Connection) -> DocumentOperations {
        DocumentOperations(store: StoredDocuments(connection: connection, collection: name))
    }
}
