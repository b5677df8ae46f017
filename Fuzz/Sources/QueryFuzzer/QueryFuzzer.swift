import Foundation
import FuzzSupport
@testable import Persistance

/// Fuzzes the query builder: queries built from any expressions, names and values must
/// render to one statement whose parameters are exactly the values (no value becomes SQL
/// text), SQLite must never find a syntax error in them, running them must give rows or a
/// `DatabaseError` and never touch the schema, and a binary operator must give the same
/// result as SQLite applied to its operands' results (which catches missing parentheses).

/// The database every input runs on; libFuzzer runs inputs one at a time on one thread.
nonisolated(unsafe) private let connection: Connection = {
    let conn = try! Connection.inMemory()
    try! conn.execute("""
        CREATE TABLE t(a INTEGER, b TEXT, c REAL, d BLOB);
        INSERT INTO t VALUES (1, 'one', 1.5, x'01'), (-7, NULL, -0.25, NULL), (NULL, 'x%_', 1e300, x'');
        CREATE TABLE one(x);
        INSERT INTO one VALUES (0);
        """)
    return conn
}()

private let schema = try! connection.fetchAll("SELECT * FROM sqlite_master")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQueries(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var generator = ExpressionGenerator(input: FuzzInput(data, count: size))
    let predicate = generator.expression()
    let ordering = generator.expression()
    let query = generator.query(filteredBy: predicate.expression, orderedBy: ordering.expression)
    checkRendering(query)
    checkRunning(query, assigning: generator.assignments())
    if let binary = generator.lastTopLevelBinary, predicate.isDeterministic {
        checkPrecedence(binary)
    }
    fuzzCheck(try connection.fetchAll("SELECT * FROM sqlite_master") == schema, "the schema changed")
    fuzzCheck(try connection.fetchOne(Int.self, "SELECT count(*) FROM t") == 3, "rows changed")
    return 0
}

/// Every rendered statement prepares as one statement with one parameter per value, or
/// fails with a SQLite error that is not a syntax error.
private func checkRendering(_ query: Query<Row>) {
    let renderings: [() throws -> SQLRenderer] = [
        query.clauses.selectSQL, query.clauses.countSQL, query.clauses.existsSQL, query.clauses.deleteSQL,
    ]
    for render in renderings {
        let renderer: SQLRenderer
        do {
            renderer = try render()
        } catch let error as DatabaseError {
            fuzzCheck(error.kind == .invalidQuery || error.kind == .encoding, "unexpected rendering error \(error)")
            continue
        } catch {
            return fuzzCheck(false, "rendering threw \(error)")
        }
        do {
            let statement = try connection.prepare(renderer.sql)
            fuzzCheck(statement.parameterCount == renderer.values.count,
                      "\(renderer.values.count) values but \(statement.parameterCount) parameters in \(renderer.sql)")
        } catch let error as DatabaseError {
            checkAcceptable(error, renderer.sql)
        } catch {
            fuzzCheck(false, "preparing threw \(error)")
        }
    }
}

/// Runs the query every way it can run; only `DatabaseError`s that are not syntax errors
/// may come out. Writes run in a transaction that is rolled back.
private func checkRunning(_ query: Query<Row>, assigning assignments: [ColumnAssignment]) {
    let runs: [(Connection) throws -> Void] = [
        { _ = try query.fetchAll($0) },
        { _ = try query.fetchOne($0) },
        { _ = try query.fetchCount($0) },
        { _ = try query.fetchExists($0) },
        { _ = try query.fetchAll(DatabaseValue.self, $0) },
        { _ = try query.deleteAll($0) },
        { _ = try query.updateAll($0, assignments) },
    ]
    for run in runs {
        do {
            try connection.inTransaction {
                try run(connection)
                return .rollback
            }
        } catch let error as DatabaseError {
            checkAcceptable(error, error.sql ?? "")
        } catch {
            fuzzCheck(false, "running a query threw \(error)")
        }
    }
}

/// A generated query may name unknown columns or functions, nest too deeply or have too
/// many values; it must never be malformed SQL or several statements.
private func checkAcceptable(_ error: DatabaseError, _ sql: String) {
    let message = error.message
    let malformed = message.contains("syntax error") || message.contains("unrecognized token")
        || message.contains("incomplete input") || message.contains("one statement")
    fuzzCheck(!malformed, "malformed SQL (\(message)): \(sql)")
}

/// `lhs op rhs` must equal SQLite's `? op ?` applied to the values `lhs` and `rhs` have.
/// Equality with a NULL value is left out: the builder renders it `IS NULL` on purpose.
private func checkPrecedence(_ binary: ExpressionGenerator.Binary) {
    let operands = Query<Row>(table: "t").select(
        binary.lhs.aliased("lhs"), binary.rhs.aliased("rhs"), binary.combined.aliased("combined"))
    guard let rows = try? operands.fetchAll(connection) else { return }
    let isEquality = binary.operator % ExpressionGenerator.operatorCount < 2
    for row in rows where !(isEquality && (row["lhs"] == .null || row["rhs"] == .null)) {
        let combinedAgain = ExpressionGenerator.combine(
            binary.operator, SQLExpression.value(row["lhs"]!), SQLExpression.value(row["rhs"]!))
        let expected = try? Query<Row>(table: "one").select(combinedAgain).fetchOne(DatabaseValue.self, connection)
        fuzzCheck(expected == row["combined"],
                  "operator \(binary.operator): \(row) but \(String(describing: expected)) on the operands' values")
    }
}
