/// What a caching handle holds: ``DocumentCollection/beginCaching()`` and
/// ``AsyncDocumentCollection/beginCaching()`` make one, and share its logic below.
struct CachingState: Sendable {
    /// False once `endCaching()` ran: the handle writes through from then on.
    var isCaching = true
    /// The documents and unsaved changes; nil until the handle's first write (and after
    /// `discard()`), when it is read from the database.
    var cache: DocumentCache?
}

/// What an operation of a caching handle came to.
enum CachedOutcome<T> {
    /// It ran on the write-back cache and returned this.
    case done(T)
    /// The handle has no cache to run it on (it stopped caching, or a read came before its
    /// first write): the operation goes to the database.
    case uncached
}

/// What a caching handle's write does next.
private enum CachingStep<T> {
    case done(T)
    case load
    case writeThrough
}

extension Guarded where Value == CachingState {
    /// Runs the write `operation` against the cache while the handle caches, first filling the
    /// cache with the documents `load` reads when it holds none.
    nonisolated(nonsending) func write<T>(
        _ operation: (DocumentOperations) throws -> T, loading load: nonisolated(nonsending) () async throws -> [Document]
    ) async throws -> CachedOutcome<T> {
        while true {
            let step = try withLock { state -> CachingStep<T> in
                guard state.isCaching else { return .writeThrough }
                // Taken out, so the operations hold the only reference and change it in place.
                guard let cache = state.cache.take() else { return .load }
                let operations = DocumentOperations(store: cache)
                defer { state.cache = operations.store as? DocumentCache }
                return .done(try operation(operations))
            }
            switch step {
            case .done(let value): return .done(value)
            case .writeThrough: return .uncached
            case .load:
                let stored = try await load()
                // Unless the handle got a cache (or stopped caching) meanwhile.
                withLock { state in
                    if state.isCaching, state.cache == nil { state.cache = DocumentCache(stored) }
                }
            }
        }
    }

    /// Runs the read `operation` against the cache when the handle holds one.
    func read<T>(_ operation: (DocumentOperations) throws -> T) throws -> CachedOutcome<T> {
        try withLock { state in
            guard let cache = state.cache else { return .uncached }
            return .done(try operation(DocumentOperations(store: cache)))
        }
    }

    /// Whether the handle still caches.
    var isCaching: Bool { withLock(\.isCaching) }

    /// Whether the handle holds changes a save would write.
    var hasUnsavedChanges: Bool { withLock { $0.cache?.hasChanges ?? false } }

    /// Hands the unsaved changes to `write`, which writes them in one transaction; when it
    /// throws, they become unsaved again (before any made meanwhile) and the error is rethrown.
    /// Returns false, without calling `write`, when there is nothing to save.
    nonisolated(nonsending) func save(_ write: nonisolated(nonsending) (DocumentCache) async throws -> Void) async throws -> Bool {
        let pending = withLock { state -> DocumentCache? in
            guard var cache = state.cache, cache.hasChanges else { return nil }
            let pending = cache
            cache.markSaved()
            state.cache = cache
            return pending
        }
        guard let pending else { return false }
        do {
            try await write(pending)
        } catch {
            withLock { state in state.cache?.restoreUnsaved(pending) }
            throw error
        }
        return true
    }

    /// Drops the unsaved changes; the next write reads the documents as stored then.
    func discard() {
        withLock { $0.cache = nil }
    }

    /// Stops caching, unless there are unsaved changes.
    /// - Throws: `DatabaseError.Kind.unsavedDocumentChanges` naming `collection`, and goes on
    ///   caching, while there are.
    func endCaching(of collection: String) throws {
        try withLock { state in
            if state.cache?.hasChanges ?? false {
                throw DatabaseError(
                    kind: .unsavedDocumentChanges,
                    message: "the caching handle of \(collection) holds unsaved changes: save() or discard() them first")
            }
            state = CachingState(isCaching: false, cache: nil)
        }
    }
}

/// A caching handle of either kind: ``DocumentCollection`` or ``AsyncDocumentCollection``.
protocol CachingDocumentHandle: AnyObject, Sendable {
    /// A new caching handle of the same collection.
    func beginCaching() -> Self
    /// Writes the unsaved changes in one transaction.
    func save() async throws -> Bool
    /// Drops the unsaved changes.
    func discard()
    /// Stops caching.
    func endCaching() throws
}

extension CachingDocumentHandle {
    /// `withCaching(_:)` of either handle: `body` with a new caching handle, then its unsaved
    /// changes saved and caching ended; when `body` throws, its changes discarded instead.
    func runWithCaching<T>(_ body: (Self) async throws -> T) async throws -> T {
        let handle = beginCaching()
        let value: T
        do {
            value = try await body(handle)
        } catch {
            handle.discard()
            throw error
        }
        _ = try await handle.save()
        try handle.endCaching()
        return value
    }
}
