import Foundation

extension DocumentCollection {
    /// Adds `document`, giving it a new `Id` and an `update` stamp (replacing any it had),
    /// and returns it as stored.
    /// - Throws: `DatabaseError.Kind.invalidDocument` for a non-finite number.
    @discardableResult
    public func add(_ document: Document) async throws -> Document {
        try await add(contentsOf: [document])[0]
    }

    /// Adds `documents` in one transaction (all or none), each with a new `Id` and an
    /// `update` stamp, and returns them as stored.
    @discardableResult
    public func add(contentsOf documents: [Document]) async throws -> [Document] {
        try documents.forEach(Self.validate)
        return try await write { store in try Self.add(documents, to: &store) }
    }

    /// Adds an `Encodable` value, encoded as a JSON object, and returns it as stored.
    /// - Throws: `DatabaseError.Kind.invalidDocument` when it does not encode to an object.
    @discardableResult
    public func add(_ value: some Encodable) async throws -> Document {
        try await add(JSONValue.document(encoding: value))
    }

    /// Merges `document`'s values into the stored document with the same `Id` and stamps it;
    /// returns false when there is no such document.
    /// - Throws: `DatabaseError.Kind.invalidDocument` when `document` has no string `Id`.
    @discardableResult
    public func update(_ document: Document) async throws -> Bool {
        try await update(document, where: .id(Self.requireID(of: document)))
    }

    /// Merges `values` (top-level keys replace the stored ones; `Id` is kept) into every
    /// document matching `predicate`, in one transaction; returns false when none matches.
    @discardableResult
    public func update(_ values: Document, where predicate: DocumentPredicate) async throws -> Bool {
        try Self.validate(values)
        try predicate.validate()
        return try await write { store in try !Self.update(values, where: predicate, in: &store).isEmpty }
    }

    /// Updates the documents matching `predicate` like `update(_:where:)`, or adds `values`
    /// as a new document when none matches (always when `predicate` is nil), in one
    /// transaction; returns the documents written.
    @discardableResult
    public func createOrUpdate(_ values: Document, where predicate: DocumentPredicate?) async throws -> [Document] {
        try Self.validate(values)
        try predicate?.validate()
        return try await write { store in
            if let predicate {
                let updated = try Self.update(values, where: predicate, in: &store)
                if !updated.isEmpty { return updated }
            }
            return try Self.add([values], to: &store)
        }
    }

    /// Removes the document with `document`'s `Id`; returns false when there is none.
    /// - Throws: `DatabaseError.Kind.invalidDocument` when `document` has no string `Id`.
    @discardableResult
    public func remove(_ document: Document) async throws -> Bool {
        try await remove(where: .id(Self.requireID(of: document)))
    }

    /// Removes every document matching `predicate`; returns false when none matches.
    @discardableResult
    public func remove(where predicate: DocumentPredicate) async throws -> Bool {
        try predicate.validate()
        return try await write { store in
            let ids = try store.documents(matching: predicate).map(Self.id(of:))
            guard !ids.isEmpty else { return false }
            try store.remove(ids: ids)
            store.announce(.removed(ids: ids))
            return true
        }
    }

    /// Removes every document of the collection; returns how many there were.
    @discardableResult
    public func removeAll() async throws -> Int {
        try await write { store in
            let count = try store.removeAll()
            if count > 0 { store.announce(.removedAll) }
            return count
        }
    }

    /// The documents matching `predicate` (all when nil), ordered by `sort` (then by
    /// insertion order).
    public func query(where predicate: DocumentPredicate?, sort: [DocumentSort] = []) async throws -> [Document] {
        try predicate?.validate()
        try sort.forEach { try $0.path.validate() }
        return try await read(matching: predicate, sort: sort)
    }

    /// Every document, ordered by `sort` (then by insertion order).
    public func queryAll(sort: [DocumentSort] = []) async throws -> [Document] {
        try await query(where: nil, sort: sort)
    }

    /// The documents matching `predicate`, decoded as `type` (with `JSONDecoder`).
    public func query<T: Decodable>(
        _ type: T.Type, where predicate: DocumentPredicate?, sort: [DocumentSort] = []
    ) async throws -> [T] {
        try await query(where: predicate, sort: sort).map { try JSONValue.decode(type, from: $0) }
    }

    /// The number of documents matching `predicate` (all when nil).
    public func count(where predicate: DocumentPredicate? = nil) async throws -> Int {
        try predicate?.validate()
        return try await read { store in try store.count(matching: predicate) }
    }

    // MARK: Operations, on any store

    private static func add(_ documents: [Document], to store: inout any DocumentStore) throws -> [Document] {
        let now = JSONValue.double(Date().timeIntervalSince1970)
        let stamped = documents.map { document in
            var document = document
            document[idKey] = .string(DocumentIdentifier.make())
            document[updateKey] = now
            return document
        }
        for document in stamped { try store.insert(document) }
        if !stamped.isEmpty { store.announce(.added(stamped)) }
        return stamped
    }

    private static func update(
        _ values: Document, where predicate: DocumentPredicate, in store: inout any DocumentStore
    ) throws -> [Document] {
        let now = JSONValue.double(Date().timeIntervalSince1970)
        let updated = try store.documents(matching: predicate).map { document in
            var merged = document.merging(values) { _, new in new }
            merged[idKey] = document[idKey]
            merged[updateKey] = now
            return merged
        }
        for document in updated { try store.replace(document) }
        if !updated.isEmpty { store.announce(.updated(updated)) }
        return updated
    }

    // MARK: Validation

    private static func requireID(of document: Document) throws -> String {
        guard let id = document[idKey]?.stringValue else {
            throw DatabaseError(kind: .invalidDocument, message: "the document has no \(idKey): add it first")
        }
        return id
    }

    /// Throws `invalidDocument` for what JSON cannot hold: a non-finite number.
    private static func validate(_ document: Document) throws {
        func check(_ value: JSONValue, at path: String) throws {
            switch value {
            case .double(let number) where !number.isFinite:
                throw DatabaseError(kind: .invalidDocument, message: "a non-finite number is not JSON-compatible (at \(path))")
            case .array(let elements):
                for (index, element) in elements.enumerated() { try check(element, at: "\(path)[\(index)]") }
            case .object(let members):
                for (key, member) in members { try check(member, at: "\(path).\(key)") }
            default:
                break
            }
        }
        for (key, value) in document { try check(value, at: key) }
    }
}
