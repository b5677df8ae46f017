import Foundation
import Testing

@testable import Persistance

/// Column references that SQLite resolves — aliases, any letter case, `rowid`, odd names —
/// work whether the query writes them bare (`"score"`) or qualified with the table's name
/// (`"player"."score"`, what it does on engines that read unknown quoted names as strings).
@Suite struct QueryColumnReferenceTests {
    @Test(arguments: [false, true])
    func selectionAliasesWorkInFilterGroupHavingAndOrder(qualified: Bool) throws {
        try withQueryFixture { conn throws in
            let totals = QueryFixture.rows.qualifyingColumns(qualified)
                .select(Column("team"), SQLExpression.sum(Column("score")).aliased("total"))
                .group(by: Column("team"))
                .having(Column("total") > 5)
                .order(Column("TOTAL").desc)
            #expect(try totals.fetchAll(conn) == [["team": "red", "total": 17.5], ["team": "blue", "total": 11.0]])
            #expect(try totals.fetchCount(conn) == 2)
            #expect(try totals.fetchExists(conn))
            #expect(try totals.order(Column("total").asc).fetchOne(conn) == ["team": "blue", "total": 11.0])

            let doubled = QueryFixture.players.qualifyingColumns(qualified)
                .select(Column("id"), (Column("score") * 2).aliased("double score"))
                .filter(Column("Double Score") > 15)
                .order(Column("double score"))
            #expect(try doubled.fetchAll(Int64.self, conn) == [4, 1])
            let byTeam = QueryFixture.rows.qualifyingColumns(qualified)
                .select(Column("team").aliased("side"), SQLExpression.countAll.aliased("n"))
                .group(by: Column("side"))
                .order(Column("n").desc, Column("side"))
            #expect(try byTeam.fetchAll(String.self, conn) == ["blue", "red", "green"])
        }
    }

    @Test(arguments: [false, true])
    func columnNamesMatchInAnyCase(qualified: Bool) throws {
        try withQueryFixture { conn throws in
            let players = QueryFixture.players.qualifyingColumns(qualified)
            #expect(try queryIDs(players.filter(Column("SCORE") > 5).order(Column("Id").desc), conn) == [4, 3, 1])
            #expect(try players.select(Column("NAME")).filter(Column("iD") == 2).fetchOne(String.self, conn) == "Bob")
            #expect(try players.group(by: Column("Team")).fetchCount(conn) == 3)
            #expect(try players.filter(Column("ID") == 1).updateAll(conn, Column("Score").set(to: Column("sCoRe") + 1)) == 1)
            #expect(try players.filter(Column("id") == 1).fetchOne(conn)?.score == 11)
            #expect(try players.filter(Column("TEAM") == "green").deleteAll(conn) == 1)
            #expect(try players.fetchCount(conn) == 4)
            let caseless = Query<Row>(table: "PLAYER").qualifyingColumns(qualified)
            #expect(try caseless.filter(Column("Team") == "red").fetchCount(conn) == 2)
        }
    }

    @Test(arguments: [false, true])
    func rowidAndItsAliasesWorkWhereSQLiteHasThem(qualified: Bool) throws {
        try withQueryFixture { conn throws in
            let players = QueryFixture.players.qualifyingColumns(qualified)
            #expect(try queryIDs(players.filter(Column("rowid") >= 4).order(Column("_rowid_").desc), conn) == [5, 4])
            #expect(try players.select(Column("oid")).order(Column("ROWID")).fetchAll(Int64.self, conn) == [1, 2, 3, 4, 5])
            #expect(try players.filter(Column("oid") == 2).updateAll(conn, Column("score").set(to: Column("rowid") * 10)) == 1)
            #expect(try players.filter(Column("id") == 2).fetchOne(conn)?.score == 20)
            #expect(try players.filter(Column("_rowid_") == 5).deleteAll(conn) == 1)
            #expect(try players.fetchCount(conn) == 4)

            // A table WITHOUT ROWID has none: an error (as the engine renders it; bare, SQLite 3.15
            // would read the name as a string).
            try conn.execute("CREATE TABLE keyed(k TEXT PRIMARY KEY, v INTEGER) WITHOUT ROWID; INSERT INTO keyed VALUES ('a', 1)")
            let keyed = Query<Row>(table: "keyed")
            #expect(try keyed.filter(Column("K") == "a").fetchCount(conn) == 1)
            #expect { try keyed.filter(Column("rowid") == 1).fetchAll(conn) } throws: { isDatabaseError($0, code: .error) }
            #expect { try keyed.filter(Column("rowid") == 1).deleteAll(conn) } throws: { isDatabaseError($0, code: .error) }
            #expect(try keyed.fetchCount(conn) == 1)
        }
    }

    @Test(arguments: [false, true])
    func namesWithQuotesAndSpacesWork(qualified: Bool) throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("""
                CREATE TABLE "odd ""t"" x"("we""ird" INTEGER PRIMARY KEY, "a b" REAL);
                INSERT INTO "odd ""t"" x" VALUES (1, 1.5), (2, 2.5), (3, NULL);
                """)
            let odd = Query<Row>(table: "odd \"t\" x").qualifyingColumns(qualified)
            let totals = odd.select(Column("a b"), (Column("we\"ird") * 10).aliased("ten \"x\""))
                .filter(Column("a b") != nil && Column("ten \"x\"") > 10)
                .order(Column("TEN \"X\"").desc)
            #expect(try totals.fetchAll(conn) == [["a b": 2.5, "ten \"x\"": 20]])
            #expect(try odd.filter(Column("WE\"IRD") == 1).updateAll(conn, Column("a b").set(to: Column("a b") * 2)) == 1)
            #expect(try odd.filter(Column("we\"ird") == 1).select(Column("a b")).fetchOne(Double.self, conn) == 3)
            #expect(try odd.filter(Column("a b") == nil).deleteAll(conn) == 1)
            #expect(try odd.fetchCount(conn) == 2)
        }
    }

    /// Raw fragments are the caller's SQL and stay as written, with bare names.
    @Test(arguments: [false, true])
    func fragmentsStayAsWritten(qualified: Bool) throws {
        try withQueryFixture { conn throws in
            let query = QueryFixture.players.qualifyingColumns(qualified)
                .filter(SQLExpression.sql("score > ?", [5]) && Column("team") == "red")
                .order(SQLExpression.sql("name"))
            let sql = try query.clauses.selectSQL().sql
            #expect(sql.contains("(score > ?) AND "))
            #expect(sql.hasSuffix(" ORDER BY name ASC"))
            #expect(try queryIDs(query, conn) == [1, 3])
        }
    }

    @Test func qualifiedSQLNamesTheTableExceptForAliases() throws {
        let rows = QueryFixture.rows.qualifyingColumns(true)
        let grouped = rows.select(Column("team"), SQLExpression.sum(Column("score")).aliased("total"))
            .filter(Column("score") > 1).group(by: Column("team")).having(Column("Total") > 5).order(Column("total").desc)
        #expect(try grouped.clauses.selectSQL().sql == """
            SELECT "player"."team", sum("player"."score") AS "total" FROM "player" WHERE "player"."score" > ? \
            GROUP BY "player"."team" HAVING "Total" > ? ORDER BY "total" DESC
            """)
        // A select list cannot refer to its own aliases.
        #expect(try rows.select(Column("id").aliased("n"), Column("n")).clauses.selectSQL().sql
            == "SELECT \"player\".\"id\" AS \"n\", \"player\".\"n\" FROM \"player\"")
        let lowest = rows.select(Column("score").aliased("score")).filter(Column("score") != nil).order(Column("score")).limit(2)
        #expect(try lowest.clauses.deleteSQL().sql == """
            DELETE FROM "player" WHERE rowid IN (SELECT rowid FROM "player" WHERE "player"."score" IS NOT NULL \
            ORDER BY "player"."score" ASC LIMIT ?)
            """)
        #expect(try rows.filter(Column("id") == 1).clauses.updateSQL([Column("score").set(to: Column("score") + 1)]).sql
            == "UPDATE \"player\" SET \"score\" = \"player\".\"score\" + ? WHERE \"player\".\"id\" = ?")
        #expect(try rows.filter(Column("id") > 3).clauses.countSQL().sql
            == "SELECT count(*) FROM \"player\" WHERE \"player\".\"id\" > ?")
        #expect(try Query<Row>(table: "a\"b").qualifyingColumns(true).filter(Column("c\"d") == 1).clauses.selectSQL().sql
            == "SELECT * FROM \"a\"\"b\" WHERE \"a\"\"b\".\"c\"\"d\" = ?")
    }

    /// The engine decides: bare names where SQLite rejects unknown quoted names itself.
    @Test func queriesQualifyExactlyWhereTheEngineNeedsIt() {
        #expect(QueryFixture.rows.clauses.qualifiesColumns == !SQLiteEngine.rejectsUnknownQuotedIdentifiers)
    }
}
