extension Connection {
    /// Checks the database's integrity with `PRAGMA quick_check` or `PRAGMA integrity_check`
    /// and reports what SQLite finds; a damaged file is a report, not an error.
    ///
    /// - Parameters:
    ///   - depth: `.full` (the default) also checks that every index matches its table.
    ///   - maximumProblems: the most problems SQLite lists before it stops looking.
    /// - Throws: errors other than corruption, such as a closed connection, a busy database
    ///   or an interrupt; a misuse error when `maximumProblems` is below 1.
    public func checkIntegrity(_ depth: IntegrityReport.Depth = .full, maximumProblems: Int = 100) throws -> IntegrityReport {
        guard maximumProblems >= 1 else {
            throw DatabaseError.misuse("an integrity check lists at least 1 problem, \(maximumProblems) requested")
        }
        let pragma = depth == .quick ? "quick_check" : "integrity_check"
        let lines: [String]
        do {
            lines = try fetchAll(String.self, "PRAGMA \(pragma)(\(maximumProblems))")
        } catch let error as DatabaseError where error.resultCode == .corrupt || error.resultCode == .notADatabase {
            return .problems([error.message])
        }
        return lines == ["ok"] ? .ok : .problems(lines)
    }
}
