import Persistance

/// Opens the database with its two keys in alternating order, so each open re-keys the
/// file from one key to the other, commits one item, reports its id, and closes.
func runKeyRotationLoop(_ arguments: CrashWriterArguments) async throws {
    for cycle in arguments.cycleNumbers {
        var configuration = DatabaseConfiguration(path: arguments.path)
        configuration.secretKeys = cycle.isMultiple(of: 2) ? arguments.keys : arguments.keys.reversed()
        let db = try await Database.open(configuration: configuration)
        let id = try await db.write { conn in
            try ItemLog.createTables(conn)
            let id = try ItemLog.nextID(conn)
            try ItemLog.write(id, conn)
            return id
        }
        report("\(id)")
        try await db.close()
    }
}
