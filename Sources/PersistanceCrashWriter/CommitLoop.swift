import Persistance

/// Commits one item per write through the executor and reports its id once `write` has
/// returned, while a reader task keeps the reader connections busy.
func runCommitLoop(_ arguments: CrashWriterArguments) async throws {
    var configuration = DatabaseConfiguration(path: arguments.path)
    configuration.secretKeys = arguments.keys
    let db = try await Database.open(configuration: configuration)
    var next = try await db.write { conn in
        try ItemLog.createTables(conn)
        return try ItemLog.nextID(conn)
    }
    let reader = Task {
        while !Task.isCancelled {
            _ = try await db.read { conn in try conn.fetchOne(Int.self, "SELECT count(*) FROM part") }
        }
    }
    defer { reader.cancel() }
    for _ in arguments.cycleNumbers {
        let id = next
        try await db.write { conn in try ItemLog.write(id, conn) }
        report("\(id)")
        next += 1
    }
    try await db.close()
}
