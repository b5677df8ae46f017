import Foundation
import Testing

@testable import Persistance

/// Large and deep queries, and the statement cache.
@Suite struct QueryLimitsTests {
    @Test func thousandOrsBuiltOneByOne() throws {
        try withQueryFixture { conn throws in
            var predicate: SQLExpression = Column("id") == 0
            for id in 1..<1_000 {
                predicate = predicate || Column("id") == id
            }
            let query = QueryFixture.players.filter(predicate)
            // 1,000 bound values: SQLite 3.32+ allows 32,766 per statement, older versions 999.
            if SQLiteEngine.versionNumber >= 3_032_000 {
                #expect(try query.fetchCount(conn) == 5)
            } else {
                let error = #expect(throws: DatabaseError.self) { try query.fetchCount(conn) }
                #expect(error?.kind == .sqlite)
            }
            let smaller = (1..<900).reduce(Column("id") == 0) { $0 || Column("id") == $1 }
            #expect(try QueryFixture.players.filter(smaller).fetchCount(conn) == 5)
        }
    }

    @Test func tenThousandOrsStayWithinSQLiteDepthLimit() throws {
        try withQueryFixture { conn throws in
            let alternatives = (0..<10_000).map { offset in Column("id") + offset == Column("age") }
            let query = QueryFixture.players.filter(SQLExpression.any(alternatives))
            let renderer = try query.clauses.selectSQL()
            // Runs of 16 alternatives, grouped 16 by 16: three levels of parentheses, not 10,000.
            var depth = 0, maximumDepth = 0
            for character in renderer.sql.utf8 {
                if character == UInt8(ascii: "(") { depth += 1; maximumDepth = max(maximumDepth, depth) }
                if character == UInt8(ascii: ")") { depth -= 1 }
            }
            #expect(maximumDepth == 3)
            // Binding thousands of values needs SQLite 3.32+ (and SQLite takes seconds to
            // prepare 10,000 parameters); without values, every engine runs 10,000 alternatives.
            if SQLiteEngine.versionNumber >= 3_032_000 {
                let twoThousand = SQLExpression.any(Array(alternatives.prefix(2_000)))
                #expect(try QueryFixture.players.filter(twoThousand).fetchCount(conn) == 5 - 1)  // Bob's age is NULL
            }
            let withoutValues = (0..<10_000).map { _ in Column("id") == Column("age") }
            #expect(try QueryFixture.players.filter(SQLExpression.any(withoutValues) || Column("id") == Column("id"))
                .fetchCount(conn) == 5)
            var chained: SQLExpression = Column("id") < Column("age")
            for _ in 0..<3_000 { chained = chained && Column("id") < Column("age") }
            #expect(try QueryFixture.players.filter(chained).fetchCount(conn) == 4)
        }
    }

    @Test func deepNestingIsAClearErrorNotACrash() throws {
        try withQueryFixture { conn throws in
            var alternating: SQLExpression = Column("id") == Column("id")
            var arithmetic: SQLExpression = Column("id").sqlExpression
            for _ in 0..<600 {  // each turn nests two levels: 1,200 is past SQLite's limit of 1,000
                alternating = (alternating || Column("id") == Column("age")) && Column("id") == Column("id")
                arithmetic = (arithmetic + Column("id")) * Column("id")
            }
            for predicate in [alternating, arithmetic > 0, !(!(!alternating))] {
                let error = #expect(throws: DatabaseError.self) { try QueryFixture.players.filter(predicate).fetchCount(conn) }
                #expect(error?.kind == .sqlite)
            }
            #expect(try QueryFixture.players.fetchCount(conn) == 5)
        }
    }

    /// Each `!` refers to its operand instead of copying it, so 10,000 nested NOTs build and
    /// render in linear time (copying took seconds for 4,000, minutes for 10,000). SQLite
    /// cannot parse that depth: the query fails with SQLite's typed error.
    @Test func tenThousandNestedNotsBuildRenderAndFailClearly() throws {
        try withQueryFixture { conn throws in
            func nots(_ count: Int) -> SQLExpression {
                (0..<count).reduce(Column("id") == Column("id")) { expression, _ in !expression }
            }
            let deep = nots(10_000)
            let expected = String(repeating: "NOT (", count: 10_000) + "\"id\" = \"id\"" + String(repeating: ")", count: 10_000)
            #expect(try rendered(deep).sql == expected)
            let error = #expect(throws: DatabaseError.self) { try QueryFixture.players.filter(deep).fetchCount(conn) }
            #expect(error.map(isDepthLimitError) == true, "\(String(describing: error))")
            // Each `NOT (` takes two places of the 100 in SQLite's parser stack: 40 parse.
            #expect(try QueryFixture.players.filter(nots(40)).fetchCount(conn) == 5)
            #expect(try QueryFixture.players.filter(nots(39)).fetchCount(conn) == 0)
            #expect(try QueryFixture.players.filter(!nots(39) || Column("id") == 1).fetchCount(conn) == 5)
        }
    }

    @Test func tenThousandNestedAdditionsBuildRenderAndFailClearly() throws {
        try withQueryFixture { conn throws in
            func sum(_ count: Int) -> SQLExpression {  // "id" + "id" + …, nested to the left
                (1..<count).reduce(Column("id").sqlExpression) { sum, _ in sum + Column("id") }
            }
            let deep = sum(10_001)
            #expect(try rendered(deep).sql == "\"id\"" + String(repeating: " + \"id\"", count: 10_000))
            let error = #expect(throws: DatabaseError.self) { try QueryFixture.players.filter(deep > 0).fetchCount(conn) }
            #expect(error.map(isDepthLimitError) == true, "\(String(describing: error))")
            // 900 levels are within SQLite's limit of 1,000.
            #expect(try QueryFixture.players.filter(sum(900) == Column("id") * 900).fetchCount(conn) == 5)
            #expect(try QueryFixture.players.filter(sum(900) == Column("id") * 899).fetchCount(conn) == 0)
        }
    }

    /// A deep expression is built, rendered and released level after level, without
    /// recursion: 100,000 levels on a thread with a 512 KiB stack (the size of secondary
    /// threads on Apple platforms) would overflow it otherwise.
    @Test func deepExpressionsNeedNoDeepStack() {
        let length = Guarded<Int?>(nil)
        let thread = Thread {
            var deep: SQLExpression = Column("id") == 1
            for _ in 0..<100_000 { deep = !deep }
            let sql = try? rendered(deep).sql
            deep = Column("id") == 1  // releases the 100,000 levels here
            length.withLock(waking: .all) { $0 = sql?.utf8.count ?? -1 }
        }
        thread.stackSize = 512 * 1024
        thread.start()
        #expect(length.wait(until: { $0 != nil }, then: { $0 }) == 100_000 * 6 + "\"id\" = ?".utf8.count)
    }

    /// The two ways SQLite rejects too deep an expression: its parser's stack overflows, or
    /// the tree passes `SQLITE_MAX_EXPR_DEPTH` (1,000).
    private func isDepthLimitError(_ error: DatabaseError) -> Bool {
        error.kind == .sqlite && error.resultCode == .error
            && (error.message == "parser stack overflow" || error.message.hasPrefix("Expression tree is too large"))
    }

    @Test func longInListsWorkOrFailClearly() throws {
        try withQueryFixture { conn throws in
            #expect(try QueryFixture.players.filter(Column("id").in(Array(0..<900))).fetchCount(conn) == 5)
            // SQLite's limit on parameters is a compile-time option (999 before 3.32, 32,766
            // after, Debian raises it to 250,000): past it, a clear SQLite error.
            let huge = QueryFixture.players.filter(Column("id").in(Array(0..<300_000)))
            do {
                #expect(try huge.fetchCount(conn) == 5)
            } catch {
                #expect(isDatabaseError(error, .sqlite))
            }
        }
    }

    @Test func aQueryRunManyTimesIsPreparedOnce() throws {
        try withQueryFixture { conn throws in
            func top(_ limit: Int) -> Query<QueryTestPlayer> {
                QueryFixture.players.filter(Column("score") > 5 && Column("name") != nil).order(Column("score").desc).limit(limit)
            }
            #expect(try top(10).fetchAll(conn).count == 2)
            let sql = try top(10).clauses.selectSQL().sql
            let statement = try conn.cachedStatement(sql)
            let cached = conn.cachedStatementCount
            for run in 0..<10_000 {
                #expect(try top(1 + run % 3).fetchAll(conn).count == Swift.min(1 + run % 3, 2))
            }
            #expect(conn.cachedStatementCount == cached)
            #expect(try conn.cachedStatement(sql) === statement)
        }
    }
}
