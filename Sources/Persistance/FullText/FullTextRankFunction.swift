import Foundation
#if SQLCipher
import CSQLCipher
#else
import CSQLite
#endif

/// Okapi BM25 for FTS4, which has no ranking function: an SQL function of
/// `matchinfo(index, 'pcnalx')` computing what FTS5's `bm25()` computes (k1 = 1.2,
/// b = 0.75, negated so that smaller is better), so both builds rank alike.
enum FullTextRankFunction {
    /// The SQL name of the function.
    static let name = "persistance_bm25"

    /// Registers the function on `connection` unless it is there already (registering
    /// again would expire every prepared statement of the connection).
    static func register(on connection: Connection) throws {
        if (try? connection.cachedStatement("SELECT \(name)(NULL)")) != nil { return }
        let handle = try connection.sqliteHandle()
        let code = sqlite3_create_function_v2(
            handle, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, nil,
            { context, _, arguments in
                guard let arguments, let blob = sqlite3_value_blob(arguments[0]) else {
                    sqlite3_result_null(context)
                    return
                }
                let count = Int(sqlite3_value_bytes(arguments[0])) / MemoryLayout<UInt32>.size
                let info = UnsafeBufferPointer(start: blob.assumingMemoryBound(to: UInt32.self), count: count)
                if let rank = FullTextRankFunction.rank(matchInfo: info) {
                    sqlite3_result_double(context, rank)
                } else {
                    sqlite3_result_error(context, "persistance_bm25: malformed matchinfo", -1)
                }
            }, nil, nil, nil)
        guard code == SQLITE_OK else { throw connection.lastError(code: code, sql: nil) }
    }

    /// The rank of one row from its `'pcnalx'` match information, or nil when it is malformed.
    static func rank(matchInfo info: UnsafeBufferPointer<UInt32>) -> Double? {
        guard info.count >= 3 else { return nil }
        let phrases = Int(info[0]), columns = Int(info[1]), rows = Double(info[2])
        let averages = 3, lengths = averages + columns, hits = lengths + columns
        guard info.count == hits + 3 * phrases * columns, rows > 0 else { return nil }
        let k1 = 1.2, b = 0.75
        var averageLength = 0.0, length = 0.0
        for column in 0..<columns {
            averageLength += Double(info[averages + column])
            length += Double(info[lengths + column])
        }
        let normalisation = k1 * (1 - b + b * length / max(averageLength, 1))
        var score = 0.0
        for phrase in 0..<phrases {
            var frequency = 0.0, rowsWithPhrase = 0.0
            for column in 0..<columns {
                let base = hits + 3 * (phrase * columns + column)
                frequency += Double(info[base])
                rowsWithPhrase = max(rowsWithPhrase, Double(info[base + 2]))
            }
            var idf = log((rows - rowsWithPhrase + 0.5) / (rowsWithPhrase + 0.5))
            if idf <= 0 { idf = 1e-6 }
            score += idf * frequency * (k1 + 1) / (frequency + normalisation)
        }
        return -score
    }
}
