import Foundation
import Testing

@testable import Persistance

/// Deleting and updating every row a query matches.
@Suite struct QueryWriteTests {
    @Test func deleteMatchingRows() throws {
        try withQueryFixture { conn throws in
            let players = QueryFixture.players.order(Column("id"))
            #expect(try players.filter(Column("team") == "red").deleteAll(conn) == 2)
            #expect(try queryIDs(players, conn) == [2, 4, 5])
            #expect(try players.filter(Column("team") == "red").deleteAll(conn) == 0)
            #expect(try players.filter(Column("id").in([Int]())).deleteAll(conn) == 0)
            #expect(try players.select(Column("name")).deleteAll(conn) == 3)
            #expect(try players.fetchCount(conn) == 0)
            #expect(try QueryFixture.players.filter(Column("id") == 1).qualifyingColumns(false).clauses.deleteSQL().sql
                == "DELETE FROM \"player\" WHERE \"id\" = ?")
        }
    }

    @Test func deleteWithOrderAndLimit() throws {
        try withQueryFixture { conn throws in
            let lowest = QueryFixture.players.filter(Column("score") != nil).order(Column("score")).limit(2)
            #expect(try lowest.qualifyingColumns(false).clauses.deleteSQL().sql == """
                DELETE FROM "player" WHERE rowid IN (SELECT rowid FROM "player" WHERE "score" IS NOT NULL \
                ORDER BY "score" ASC LIMIT ?)
                """)
            #expect(try lowest.deleteAll(conn) == 2)
            #expect(try queryIDs(QueryFixture.players.order(Column("id")), conn) == [1, 4, 5])
            #expect(try QueryFixture.players.order(Column("id")).limit(10, offset: 2).deleteAll(conn) == 1)
            #expect(try queryIDs(QueryFixture.players.order(Column("id")), conn) == [1, 4])
        }
    }

    @Test func updateWithValuesExpressionsAndNil() throws {
        try withQueryFixture { conn throws in
            let red = QueryFixture.players.filter(Column("team") == "red")
            #expect(try red.updateAll(conn, Column("score").set(to: Column("score") + 1), Column("age").set(to: nil)) == 2)
            let rows = try QueryFixture.rows.select(Column("id"), Column("score"), Column("age"))
                .filter(Column("team") == "red").order(Column("id")).fetchAll(conn)
            #expect(rows == [["id": 1, "score": 11.0, "age": nil], ["id": 3, "score": 8.5, "age": nil]])
            #expect(try QueryFixture.players.updateAll(conn, [Column("team").set(to: "all")]) == 5)
            #expect(try QueryFixture.players.filter(Column("team") == "all").fetchCount(conn) == 5)
            #expect(try red.qualifyingColumns(false).clauses.updateSQL([Column("a").set(to: 1), Column("b").set(to: Column("a") * 2)]).sql
                == "UPDATE \"player\" SET \"a\" = ?, \"b\" = \"a\" * ? WHERE \"team\" = ?")
        }
    }

    @Test func updateWithOrderAndLimit() throws {
        try withQueryFixture { conn throws in
            let best = QueryFixture.players.order(Column("score").desc).limit(1)
            #expect(try best.updateAll(conn, Column("name").set(to: "Champion")) == 1)
            #expect(try QueryFixture.players.filter(Column("name") == "Champion").fetchOne(conn)?.id == 1)
        }
    }

    @Test func updateWithoutAssignmentsChangesNothing() throws {
        try withQueryFixture { conn throws in
            let before = conn.totalChanges
            #expect(try QueryFixture.players.updateAll(conn) == 0)
            #expect(try QueryFixture.players.updateAll(conn, []) == 0)
            #expect(conn.totalChanges == before)
        }
    }

    @Test func groupedOrDistinctQueriesCannotWrite() throws {
        try withQueryFixture { conn throws in
            let invalid = [
                QueryFixture.players.distinct(),
                QueryFixture.players.group(by: Column("team")),
                QueryFixture.players.group(by: Column("team")).having(SQLExpression.countAll > 1),
            ]
            for query in invalid {
                let deleteError = #expect(throws: DatabaseError.self) { try query.deleteAll(conn) }
                #expect(deleteError?.kind == .invalidQuery)
                let updateError = #expect(throws: DatabaseError.self) {
                    try query.updateAll(conn, Column("age").set(to: 1))
                }
                #expect(updateError?.kind == .invalidQuery)
            }
            #expect(try QueryFixture.players.fetchCount(conn) == 5)
            #expect(try QueryFixture.players.filter(Column("age") == 1).fetchCount(conn) == 0)
        }
    }

    @Test func failingWritesChangeNothing() throws {
        try withQueryFixture { conn throws in
            try conn.execute("CREATE UNIQUE INDEX player_name ON player(name)")
            let error = #expect(throws: DatabaseError.self) {
                try QueryFixture.players.filter(Column("id") > 2).updateAll(conn, Column("name").set(to: "Same"))
            }
            #expect(error?.resultCode == .constraint)
            #expect(try QueryFixture.players.filter(Column("name") == "Same").fetchCount(conn) == 0)
            let wrongColumn = #expect(throws: DatabaseError.self) {
                try QueryFixture.players.updateAll(conn, Column("nope").set(to: 1))
            }
            #expect(wrongColumn?.kind == .sqlite)
        }
    }

    @Test func writesInsideATransactionRollBack() throws {
        try withQueryFixture { conn throws in
            try conn.inTransaction {
                try QueryFixture.players.deleteAll(conn)
                try QueryFixture.players.updateAll(conn, Column("team").set(to: "none"))
                return .rollback
            }
            #expect(try QueryFixture.players.fetchCount(conn) == 5)
            #expect(try QueryFixture.players.filter(Column("team") == "red").fetchCount(conn) == 2)
        }
    }
}
