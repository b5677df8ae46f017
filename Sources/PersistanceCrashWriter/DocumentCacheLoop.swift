import Persistance

/// Fills the write-back cache of a document collection with one batch of documents per
/// cycle, reports `cached N`, saves, and reports `saved N`: a kill lands before a save
/// (the batch must be lost whole), during one (all or nothing) or after (kept whole).
func runDocumentCacheLoop(_ arguments: CrashWriterArguments) async throws {
    var configuration = DatabaseConfiguration(path: arguments.path)
    configuration.secretKeys = arguments.keys
    let db = try await Database.open(configuration: configuration)
    let batches = try await db.collection("batches")
    let first = try await batches.count() / documentCacheBatchSize
    for cycle in arguments.cycleNumbers {
        let batch = first + cycle
        let cache = batches.beginCaching()
        for index in 0..<documentCacheBatchSize {
            try await cache.createOrUpdate(["batch": .int(Int64(batch)), "index": .int(Int64(index))], where: nil)
        }
        report("cached \(batch)")
        try await cache.save()
        report("saved \(batch)")
    }
    try await db.close()
}

/// How many documents each batch of the document cache loop holds.
let documentCacheBatchSize = 50
