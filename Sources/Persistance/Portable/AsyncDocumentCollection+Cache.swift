extension AsyncDocumentCollection: CachingDocumentHandle {
    /// Begins a write-back cache that belongs to the code that calls this, as
    /// ``DocumentCollection/beginCaching()`` does on SQLite: the returned handle's operations
    /// stay in memory (its reads see them, nobody else's do) until its ``save()`` writes them
    /// in one transaction. The collection itself, and every other handle, keep writing through.
    ///
    /// ```swift
    /// let batch = users.beginCaching()
    /// for i in 0..<1_000 { try await batch.add(["data": .int(Int64(i))]) }
    /// try await batch.save()                     // one transaction
    /// try batch.endCaching()
    /// ```
    ///
    /// The handle reads the collection's documents into memory at its first write (and again
    /// after ``discard()``): it does not see what others write after that, and its ``save()``
    /// overwrites the documents it changed. Until saved, its changes live only in this
    /// process. Nothing is announced until ``save()``. A handle dropped with unsaved changes
    /// loses them (logged as a warning): save, or discard, before letting it go, or use
    /// ``withCaching(_:)``.
    public func beginCaching() -> AsyncDocumentCollection {
        AsyncDocumentCollection(name: name, database: database, caching: true)
    }

    /// Runs `body` with a new caching handle (see ``beginCaching()``), then saves what it left
    /// unsaved and ends caching; when `body` throws, discards its unsaved changes instead and
    /// rethrows. A failed save is thrown too (nothing of it is written).
    public func withCaching<T>(_ body: (AsyncDocumentCollection) async throws -> T) async throws -> T {
        try await runWithCaching(body)
    }

    /// Whether this is a caching handle that still caches (``beginCaching()`` made it and
    /// ``endCaching()`` has not run); false for the collection itself.
    public var isCaching: Bool {
        caching?.isCaching ?? false
    }

    /// Whether this caching handle holds changes that ``save()`` would write.
    public var hasUnsavedChanges: Bool {
        caching?.hasUnsavedChanges ?? false
    }

    /// Writes this handle's unsaved changes in one write transaction and announces them, in
    /// the order they were made, once it commits. Caching goes on: later changes stay in
    /// memory until the next `save()`. Returns whether anything was written: false when there
    /// was nothing to save, or this is not a caching handle.
    ///
    /// If the transaction fails nothing is written and the changes stay unsaved, so `save()`
    /// can be tried again; changes made while it ran are kept too. (An engine that runs a
    /// conflicting transaction again, as PostgreSQL does, writes the same changes again.)
    @discardableResult
    public func save() async throws -> Bool {
        guard let caching else { return false }
        return try await caching.save { pending in
            try await database.write { transaction in try await transaction.documents(name).write(pending) }
        }
    }

    /// Drops this handle's unsaved changes; caching goes on, from the documents as stored then.
    /// Does nothing on the collection itself.
    public func discard() {
        caching?.discard()
    }

    /// Ends caching: from now on this handle writes through, like the collection. Does
    /// nothing when it does not cache.
    /// - Throws: `DatabaseError.Kind.unsavedDocumentChanges`, and goes on caching, while it
    ///   holds unsaved changes: ``save()`` or ``discard()`` them first.
    public func endCaching() throws {
        try caching?.endCaching(of: name)
    }
}
