extension Database {
    /// Checks the database's integrity on a reader connection, concurrently with the write,
    /// and reports what SQLite finds (see `Connection.checkIntegrity(_:maximumProblems:)`);
    /// a damaged file is a report, not an error. The check reads the whole file: a full
    /// check of a large database takes a while.
    public func checkIntegrity(_ depth: IntegrityReport.Depth = .full, maximumProblems: Int = 100) async throws -> IntegrityReport {
        do {
            return try await read { try $0.checkIntegrity(depth, maximumProblems: maximumProblems) }
        } catch let error as DatabaseError where error.resultCode == .corrupt || error.resultCode == .notADatabase {
            return .problems([error.message])  // the read transaction could not even start
        }
    }
}
