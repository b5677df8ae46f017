import Foundation
import Testing

@testable import Persistance

/// Fetching through queries: records, rows, single values, counts, with every clause.
@Suite struct QueryFetchTests {
    @Test func designSketchQueryRuns() throws {
        try withQueryFixture { conn throws in
            let table = Table<QueryTestPlayer>("player", columns: [
                .integer("id", primaryKey: .plain), .text("name"), .real("score"),
            ])
            let top = try table.query()
                .filter(Column("score") > 5 && Column("name") != nil)
                .order(Column("score").desc)
                .limit(10)
                .fetchAll(conn)
            #expect(top == [
                QueryTestPlayer(id: 1, name: "Ann", score: 10),
                QueryTestPlayer(id: 3, name: "Cy", score: 7.5),
            ])
            #expect(table.query().tableName == "player")
        }
    }

    @Test func rendersOneSelectStatement() throws {
        let query = QueryFixture.players
            .filter(Column("score") > 5)
            .filter(Column("name") != nil)
            .order(Column("score").desc, Column("id"))
            .limit(10, offset: 20)
            .qualifyingColumns(false)
        let renderer = try query.clauses.selectSQL()
        #expect(renderer.sql == """
            SELECT * FROM "player" WHERE "score" > ? AND "name" IS NOT NULL \
            ORDER BY "score" DESC, "id" ASC LIMIT ? OFFSET ?
            """)
        #expect(renderer.values == [5, 10, 20])
        let grouped = QueryFixture.rows.select(Column("team"), SQLExpression.countAll.aliased("n")).distinct()
            .group(by: Column("team")).having(SQLExpression.countAll > 1).qualifyingColumns(false)
        #expect(try grouped.clauses.selectSQL().sql == """
            SELECT DISTINCT "team", count(*) AS "n" FROM "player" GROUP BY "team" HAVING count(*) > ?
            """)
    }

    @Test func fetchOneAndCursor() throws {
        try withQueryFixture { conn throws in
            let byScore = QueryFixture.players.order(Column("score").desc)
            #expect(try byScore.fetchOne(conn)?.id == 1)
            #expect(try byScore.filter(Column("score") > 100).fetchOne(conn) == nil)
            #expect(try byScore.limit(0).fetchOne(conn) == nil)
            #expect(try byScore.limit(5, offset: 1).fetchOne(conn)?.id == 4)
            let cursor = try QueryFixture.players.order(Column("id")).fetchCursor(conn)
            var ids = [Int64]()
            while let player = try cursor.next() { ids.append(player.id) }
            #expect(ids == [1, 2, 3, 4, 5])
            #expect(try cursor.next() == nil)
        }
    }

    @Test func fetchRowsAndSelectedColumns() throws {
        try withQueryFixture { conn throws in
            let rows = try QueryFixture.players.filter(Column("id") == 2).decoded(as: Row.self).fetchAll(conn)
            #expect(rows.count == 1)
            #expect(rows.first?.columnNames == ["id", "name", "score", "age", "team"])
            #expect(rows.first?["age"] == .null)
            let selected = try QueryFixture.rows
                .select(Column("name"), (Column("score") * 2).aliased("double score"))
                .filter(Column("id") == 1)
                .fetchOne(conn)
            #expect(selected == ["name": "Ann", "double score": 20.0])
            #expect(try QueryFixture.rows.select(Column("name")).select([]).fetchOne(conn)?.count == 5)
            // A hand-written decoder sees only the selected columns.
            let partial = try QueryFixture.players.select(Column("id"), Column("name")).order(Column("id")).fetchOne(conn)
            #expect(partial == QueryTestPlayer(id: 1, name: "Ann", score: nil))
        }
    }

    @Test func fetchValues() throws {
        try withQueryFixture { conn throws in
            let names = try QueryFixture.rows.select(Column("name")).filter(Column("name") != nil)
                .order(Column("name").desc).fetchAll(String.self, conn)
            #expect(names == ["Dee", "Cy", "Bob", "Ann"])
            #expect(try QueryFixture.rows.select(SQLExpression.max(Column("score"))).fetchOne(Double.self, conn) == 10)
            #expect(try QueryFixture.rows.select(Column("age")).filter(Column("id") == 2).fetchOne(Int?.self, conn)
                == .some(nil))
            #expect(try QueryFixture.rows.select(Column("age")).filter(Column("id") == 9).fetchOne(Int.self, conn) == nil)
            let cursor = try QueryFixture.rows.select(Column("id") * 10).order(Column("id")).fetchCursor(Int.self, conn)
            #expect(try cursor.collect() == [10, 20, 30, 40, 50])
            // A NULL read into a non-optional type is an error naming the column, never a crash.
            let error = #expect(throws: DatabaseError.self) {
                try QueryFixture.rows.select(Column("age")).fetchAll(Int.self, conn)
            }
            #expect(error?.kind == .decoding)
            #expect(error?.column == "age")
        }
    }

    @Test func countAndExists() throws {
        try withQueryFixture { conn throws in
            let players = QueryFixture.players
            #expect(try players.fetchCount(conn) == 5)
            #expect(try players.filter(Column("age") == nil).fetchCount(conn) == 1)
            #expect(try players.filter(Column("name") == nil || Column("score") == nil).fetchCount(conn) == 2)
            #expect(try players.order(Column("id")).limit(2, offset: 4).fetchCount(conn) == 1)
            #expect(try players.select(Column("team")).distinct().fetchCount(conn) == 3)
            #expect(try players.group(by: Column("team")).fetchCount(conn) == 3)
            #expect(try players.filter(Column("id") > 3).fetchExists(conn))
            #expect(try !players.filter(Column("id") > 5).fetchExists(conn))
            #expect(try !players.limit(0).fetchExists(conn))
            #expect(try players.limit(1).fetchExists(conn))
            #expect(try players.order(Column("id")).limit(2, offset: 4).fetchExists(conn))
            #expect(try !players.order(Column("id")).limit(2, offset: 5).fetchExists(conn))
            #expect(try !players.limit(0, offset: 1).fetchExists(conn))
            #expect(try players.filter(Column("id") > 3).qualifyingColumns(false).clauses.existsSQL().sql
                == "SELECT EXISTS (SELECT * FROM \"player\" WHERE \"id\" > ?)")
            #expect(try players.filter(Column("id") > 3).qualifyingColumns(false).clauses.countSQL().sql
                == "SELECT count(*) FROM \"player\" WHERE \"id\" > ?")
        }
    }

    @Test func limitAndOffset() throws {
        try withQueryFixture { conn throws in
            let byID = QueryFixture.players.order(Column("id"))
            #expect(try queryIDs(byID.limit(2), conn) == [1, 2])
            #expect(try queryIDs(byID.limit(2, offset: 1), conn) == [2, 3])
            #expect(try queryIDs(byID.limit(2).limit(1), conn) == [1])
            #expect(try queryIDs(byID.limit(0), conn) == [])
            #expect(try queryIDs(byID.limit(10, offset: 10), conn) == [])
            for invalid in [byID.limit(-1), byID.limit(1, offset: -1)] {
                let error = #expect(throws: DatabaseError.self) { try invalid.fetchAll(conn) }
                #expect(error?.kind == .invalidQuery)
            }
        }
    }

    @Test func orderByManyKeysAndNulls() throws {
        try withQueryFixture { conn throws in
            let players = QueryFixture.players
            #expect(try queryIDs(players.order(Column("team"), Column("score").desc), conn) == [4, 2, 5, 1, 3])
            #expect(try queryIDs(players.order(Column("score")), conn) == [5, 2, 3, 4, 1])
            #expect(try queryIDs(players.order(Column("score").asc.nullsLast), conn) == [2, 3, 4, 1, 5])
            #expect(try queryIDs(players.order(Column("score").asc.nullsFirst), conn) == [5, 2, 3, 4, 1])
            #expect(try queryIDs(players.order(Column("score").desc), conn) == [1, 4, 3, 2, 5])
            #expect(try queryIDs(players.order(Column("score").desc.nullsFirst), conn) == [5, 1, 4, 3, 2])
            #expect(try queryIDs(players.order(Column("score").desc.nullsLast), conn) == [1, 4, 3, 2, 5])
            // `order` replaces the previous order; an empty list removes it.
            #expect(try queryIDs(players.order(Column("score")).order(Column("id").desc), conn) == [5, 4, 3, 2, 1])
            #expect(try players.order(Column("id")).order([]).clauses.selectSQL().sql == "SELECT * FROM \"player\"")
            #expect(try players.order((Column("score") + 1).desc.nullsFirst).qualifyingColumns(false).clauses.selectSQL().sql
                == "SELECT * FROM \"player\" ORDER BY \"score\" + ? IS NULL DESC, \"score\" + ? DESC")
        }
    }

    @Test func groupByAndHaving() throws {
        try withQueryFixture { conn throws in
            let teams = try QueryFixture.rows
                .select(Column("team"), SQLExpression.countAll.aliased("players"),
                        SQLExpression.average(Column("age")).aliased("age"))
                .group(by: Column("team"))
                .having(SQLExpression.countAll > 1)
                .having(SQLExpression.max(Column("score")) > 9)
                .fetchAll(conn)
            #expect(teams == [["team": "red", "players": 2, "age": 27.5]])
            let error = #expect(throws: DatabaseError.self) {
                try QueryFixture.rows.having(SQLExpression.countAll > 1).fetchAll(conn)
            }
            #expect(error?.kind == .invalidQuery)
        }
    }

    @Test func predicatesAgainstTheDatabase() throws {
        try withQueryFixture { conn throws in
            let players = QueryFixture.players.order(Column("id"))
            #expect(try queryIDs(players.filter(Column("id").in([5, 1, 9])), conn) == [1, 5])
            #expect(try queryIDs(players.filter(Column("id").in([Int]())), conn) == [])
            #expect(try queryIDs(players.filter(!Column("id").in([Int]())), conn) == [1, 2, 3, 4, 5])
            #expect(try queryIDs(players.filter(!Column("id").in([1, 2])), conn) == [3, 4, 5])
            #expect(try queryIDs(players.filter(Column("name").in(["Cy", "Zed"])), conn) == [3])
            #expect(try queryIDs(players.filter(Column("name").like("%e%")), conn) == [5])
            #expect(try queryIDs(players.filter(Column("name").like("a%")), conn) == [1])
            #expect(try queryIDs(players.filter(Column("age").between(22, and: 30)), conn) == [1, 3, 5])
            #expect(try queryIDs(players.filter(!Column("age").between(22, and: 30)), conn) == [4])
            #expect(try queryIDs(players.filter(Column("score") * 2 > 15), conn) == [1, 4])
            #expect(try queryIDs(players.filter(Column("age") - Column("score") < 20), conn) == [3])
            #expect(try queryIDs(players.filter(Column("age") / 10 == 2), conn) == [3, 5])
            #expect(try queryIDs(players.filter(Column("score") == Column("id") * 2.5), conn) == [3])
            #expect(try queryIDs(players.filter(SQLExpression.any([])), conn) == [])
            #expect(try queryIDs(players.filter(SQLExpression.all([])), conn) == [1, 2, 3, 4, 5])
        }
    }

    @Test func likeWithEscape() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE code(id INTEGER PRIMARY KEY, text TEXT)")
            try conn.execute("INSERT INTO code(text) VALUES ('100%'), ('1000'), ('10_0'), ('1\\00')")
            let codes = Query<Row>(table: "code").select(Column("text")).order(Column("id"))
            #expect(try codes.filter(Column("text").like("100%")).fetchAll(String.self, conn) == ["100%", "1000"])
            #expect(try codes.filter(Column("text").like("100!%", escape: "!")).fetchAll(String.self, conn) == ["100%"])
            #expect(try codes.filter(Column("text").like("10\\_0", escape: "\\")).fetchAll(String.self, conn) == ["10_0"])
            #expect(try codes.filter(Column("text").like("1\\\\0%", escape: "\\")).fetchAll(String.self, conn) == ["1\\00"])
            let error = #expect(throws: DatabaseError.self) {
                try codes.filter(Column("text").like("1%", escape: "👩‍👩‍👧")).fetchAll(conn)
            }
            #expect(error?.kind == .sqlite)
        }
    }

    @Test func rawFragmentsWithNamedAndPositionalArguments() throws {
        try withQueryFixture { conn throws in
            let players = QueryFixture.players.order(Column("id"))
            let named = players.filter(SQLExpression.sql("name = :name AND age > :age", ["name": "casa", "age": 3]))
            #expect(try queryIDs(named, conn) == [])
            #expect(try queryIDs(players.filter(.sql("team = :team", [":team": "red"])), conn) == [1, 3])
            let mixed = players
                .filter(Column("score") > 1)
                .filter(SQLExpression.sql("team = :team", ["team": "red"]) || SQLExpression.sql("age = ?", [40]))
                .filter(.sql("length(team) = :length", ["length": 3]))
                .filter(Column("id") < 10)
            #expect(try queryIDs(mixed, conn) == [1, 3])
            let sameNameSameValue = players
                .filter(.sql("team = :team", ["team": "blue"]))
                .filter(.sql("lower(team) = :team", ["team": "blue"]))
            #expect(try queryIDs(sameNameSameValue, conn) == [2, 4])
            #expect(try queryIDs(players.filter(.sql("id IN (?, ?)", [2, 5])).filter(Column("id") != 2), conn) == [5])
        }
    }

    @Test func rawFragmentArgumentMistakesAreErrors() throws {
        try withQueryFixture { conn throws in
            let players = QueryFixture.players
            let conflicting = players
                .filter(.sql("team = :team", ["team": "blue"]))
                .filter(.sql("team = :team", ["team": "red"]))
            #expect(throws: DatabaseError.self) { try conflicting.fetchAll(conn) }
            let cases: [(Query<QueryTestPlayer>, DatabaseError.Kind)] = [
                (conflicting, .invalidQuery),
                (players.filter(.sql("team = :team")), .invalidArguments),
                (players.filter(.sql("team = :team", ["team": "red", "other": 1])), .invalidArguments),
                (players.filter(.sql("team = :team", ["other": 1])), .invalidArguments),
                (players.filter(.sql("id = ?", [1, 2])), .invalidArguments),
                (players.filter(.sql("id = ? AND team = :team", ["team": "red"])), .invalidArguments),
                (players.filter(.sql("id = ?")).filter(Column("id") == 1).filter(.sql("team = :t", ["t": "x"])),
                    .invalidArguments),
                (players.filter(.sql("id = ?", [Double.nan])), .encoding),
                (players.filter(.sql("no_such_column = 1")), .sqlite),
            ]
            for (query, kind) in cases {
                let error = #expect(throws: DatabaseError.self) { try query.fetchAll(conn) }
                #expect(error?.kind == kind)
            }
        }
    }

    @Test func sqliteErrorsCarryTheSQLNotTheValues() throws {
        try withQueryFixture { conn throws in
            let error = #expect(throws: DatabaseError.self) {
                try Query<Row>(table: "nope").filter(Column("name") == "secret-value").qualifyingColumns(false).fetchAll(conn)
            }
            #expect(error?.kind == .sqlite)
            #expect(error?.sql == "SELECT * FROM \"nope\" WHERE \"name\" = ?")
            let rendered = error.map { String(describing: $0) } ?? ""
            #expect(!rendered.contains("secret-value"))
        }
    }

    /// SQLite reads a double-quoted name that matches no column as a string literal (its
    /// "DQS" compatibility misfeature). Every connection turns that off where the engine
    /// can (SQLite 3.29+); where it cannot (SQLite 3.15, the SQLCipher build), the query
    /// qualifies the name with the table's. Either way a misspelt `Column` is an error.
    @Test func misspeltColumnIsAnError() throws {
        try withQueryFixture { conn throws in
            let misspelt = QueryFixture.players.filter(Column("nmae") == "nmae")
            #expect { try misspelt.fetchAll(conn) } throws: { isDatabaseError($0, code: .error) }
        }
    }

    @Test func queriesAreReusableValues() throws {
        try withQueryFixture { conn throws in
            let red = QueryFixture.players.filter(Column("team") == "red")
            let redByScore = red.order(Column("score"))
            let firstRed = red.order(Column("id")).limit(1)
            #expect(try queryIDs(redByScore, conn) == [3, 1])
            #expect(try queryIDs(firstRed, conn) == [1])
            #expect(try red.fetchCount(conn) == 2)
            #expect(try red.qualifyingColumns(false).clauses.selectSQL().sql == "SELECT * FROM \"player\" WHERE \"team\" = ?")
            for _ in 0..<3 { #expect(try queryIDs(redByScore, conn) == [3, 1]) }
            let sendable: any Sendable = redByScore
            #expect(sendable is Query<QueryTestPlayer>)
        }
    }

    @Test func queriesCrossTasks() async throws {
        let query = QueryFixture.players.filter(Column("score") > 5).order(Column("id"))
        let ids = try await Task.detached {
            try withQueryFixture { conn in try queryIDs(query, conn) }
        }.value
        #expect(ids == [1, 3, 4])
    }

    @Test func openCursorAndSecondRunOfTheSameQuery() throws {
        try withQueryFixture { conn throws in
            let query = QueryFixture.players.order(Column("id"))
            let outer = try query.fetchCursor(conn)
            #expect(try outer.next()?.id == 1)
            // The cached statement is busy with the cursor: the second run gets its own statement.
            #expect(try queryIDs(query, conn) == [1, 2, 3, 4, 5])
            #expect(try outer.next()?.id == 2)
        }
    }
}
