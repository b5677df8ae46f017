extension DocumentCollection {
    /// Whether the collection is caching: changes stay in memory until `save()`.
    public var isCaching: Bool { cache.withLock { $0 != nil } }

    /// Starts the write-back cache: the collection's documents are read into memory, and
    /// from now on every change is made there (reads see it) and nothing is written or
    /// announced until `save()`. For loops of many small changes.
    ///
    /// Until `save()`, the changes live only in this process's memory: a crash loses them
    /// (and only them). Changes other connections make meanwhile are not seen, and `save()`
    /// overwrites the documents the cache changed. Does nothing when already caching.
    public func beginCaching() async throws {
        let stored = try await read(matching: nil)
        cache.withLock { cache in
            if cache == nil { cache = DocumentCache(stored) }
        }
    }

    /// Writes every cached change in one transaction, announces them (in the order they
    /// were made) once it commits, and stops caching: changes made while it saves go
    /// straight to the database, after it. If the transaction fails nothing is written and
    /// caching goes on with the cache as it was, so `save()` can be tried again.
    public func save() async throws {
        guard let cached = cache.withLock({ $0.take() }) else { return }
        let name = self.name
        do {
            try await database.write { connection in
                var stored = StoredDocuments(connection: connection, collection: name)
                try cached.save(to: &stored)
            }
        } catch {
            cache.withLock { cache in
                if cache == nil { cache = cached }
            }
            throw error
        }
    }

    /// Drops every cached change and stops caching.
    public func discard() {
        cache.withLock { $0 = nil }
    }
}
