import Foundation
import Testing

@testable import Persistance

/// Nothing passed as a value or a name can change the shape of the SQL a query runs.
@Suite struct QueryInjectionTests {
    static let hostileStrings = [
        "x'); DROP TABLE player; --",
        "' OR '1'='1",
        "\" OR 1=1 --",
        "Ann\"; DELETE FROM player; --",
        "; DELETE FROM player",
        "*/ DROP TABLE player; /*",
        "c'asa",
        "NULL",
        "?",
        ":name",
        "%",
        "\u{0}",
        "Ann\u{0}' OR 1=1",
        "",
    ]

    @Test(arguments: hostileStrings)
    func hostileValuesAreOnlyValues(_ hostile: String) throws {
        try withQueryFixture { conn throws in
            let schema = try QueryFixture.schema(conn)
            let players = QueryFixture.players
            #expect(try players.filter(Column("name") == hostile).fetchAll(conn).isEmpty)
            #expect(try players.filter(Column("name") != hostile).fetchCount(conn) == 4)
            #expect(try players.filter(Column("name").in([hostile, "Ann"])).fetchCount(conn) == 1)
            // SQLite reads a LIKE pattern up to its first NUL character.
            let likeMatches = hostile == "%" ? 4 : hostile.hasPrefix("Ann\u{0}") ? 1 : 0
            #expect(try players.filter(Column("name").like(hostile)).fetchCount(conn) == likeMatches)
            #expect(try players.filter(Column("name").between(hostile, and: hostile)).fetchCount(conn) == 0)
            #expect(try players.filter(.sql("name = :name", ["name": hostile])).fetchCount(conn) == 0)
            #expect(try players.filter(Column("id") == 2).updateAll(conn, Column("name").set(to: hostile)) == 1)
            #expect(try players.filter(Column("name") == hostile).fetchOne(conn)?.id == 2)
            #expect(try players.select(Column("name")).filter(Column("id") == 2).fetchOne(String.self, conn) == hostile)
            #expect(try players.filter(Column("name") == hostile).deleteAll(conn) == 1)
            #expect(try players.fetchCount(conn) == 4)
            #expect(try QueryFixture.schema(conn) == schema)
        }
    }

    @Test func hostileNumbersAndBlobsAreOnlyValues() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, value)")
            let blob = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let values: [DatabaseValue] = [
                .integer(0), .integer(.max), .integer(.min), .real(0.1), .real(-1.5), .real(.infinity),
                .real(.greatestFiniteMagnitude), .text("NULL"), .text("c'asa"), .blob(Data()), .blob(blob),
                .blob(Data("'); DROP TABLE item; --".utf8)),
            ]
            for value in values {
                try conn.execute("INSERT INTO item(value) VALUES (?)", [value])
            }
            let items = Query<Row>(table: "item")
            for value in values {
                let found = try items.select(Column("value")).filter(Column("value") == value).fetchAll(DatabaseValue.self, conn)
                #expect(found == [value])
            }
            #expect(try items.filter(Column("value") == nil).fetchCount(conn) == 0)
            #expect(try items.filter(Column("value") < 0).fetchCount(conn) == 2)
        }
    }

    @Test func identifiersWithQuotesAndSpacesWork() throws {
        try withTemporaryConnection { conn, _ throws in
            try conn.execute("""
                CREATE TABLE "odd ""table""; --"("we""ird" INTEGER, "a b" TEXT, "select" TEXT, "x'y" TEXT);
                INSERT INTO "odd ""table""; --" VALUES (1, 'one', 'kw', 'q'), (2, 'two', NULL, NULL);
                """)
            let schema = try QueryFixture.schema(conn)
            let odd = Query<Row>(table: "odd \"table\"; --")
            let row = try odd.select(Column("we\"ird"), Column("a b").aliased("b\"; --"), Column("select"))
                .filter(Column("we\"ird") == 1 && Column("x'y") == "q")
                .order(Column("a b").desc)
                .fetchOne(conn)
            #expect(row == ["we\"ird": 1, "b\"; --": "one", "select": "kw"])
            #expect(try odd.group(by: Column("select")).fetchCount(conn) == 2)
            #expect(try odd.filter(Column("select") == nil).updateAll(conn, Column("x'y").set(to: "set")) == 1)
            #expect(try odd.filter(Column("x'y") == "set").deleteAll(conn) == 1)
            #expect(try odd.fetchCount(conn) == 1)
            #expect(try QueryFixture.schema(conn) == schema)
        }
    }

    @Test func hostileTableNamesFailWithoutChangingAnything() throws {
        try withQueryFixture { conn throws in
            let schema = try QueryFixture.schema(conn)
            for name in ["player\"; DROP TABLE player; --", "player\" WHERE 1=1; --", "player\u{0}\"; DROP TABLE player"] {
                let query = Query<Row>(table: name)
                #expect(throws: DatabaseError.self) { try query.fetchAll(conn) }
                #expect(throws: DatabaseError.self) { try query.fetchCount(conn) }
                #expect(throws: DatabaseError.self) { try query.deleteAll(conn) }
                #expect(throws: DatabaseError.self) { try query.updateAll(conn, Column("name").set(to: "x")) }
            }
            #expect(try QueryFixture.schema(conn) == schema)
            #expect(try QueryFixture.players.fetchCount(conn) == 5)
        }
    }

    /// A hostile column name stays one quoted identifier, and SQLite reports no such column
    /// (see `QueryUnknownColumnTests`): nothing outside the query runs.
    @Test func hostileColumnNamesStayOneIdentifier() throws {
        try withQueryFixture { conn throws in
            let schema = try QueryFixture.schema(conn)
            let names = [
                "name\" FROM player; DROP TABLE player; --", "id\") OR 1=1; --", "id\" = \"id",
                "score\"; DELETE FROM player; --",
            ]
            for name in names {
                let column = Column(name)
                #expect(try rendered(column).sql == "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
                _ = try? QueryFixture.rows.select(column).filter(column == 1).order(column).group(by: column).fetchAll(conn)
                _ = try? QueryFixture.rows.filter(column == 1).deleteAll(conn)
                _ = try? QueryFixture.rows.filter(column == 1).updateAll(conn, Column("name").set(to: "x"))
                #expect(throws: DatabaseError.self) { try QueryFixture.rows.updateAll(conn, column.set(to: 0)) }
            }
            #expect(try QueryFixture.schema(conn) == schema)
            #expect(try QueryFixture.players.fetchCount(conn) == 5)
            #expect(try QueryFixture.players.filter(Column("name") == "x" || Column("score") == 0).fetchCount(conn) == 0)
        }
    }

    @Test func invalidNamesAreRejectedBeforeSQLite() throws {
        try withQueryFixture { conn throws in
            let queries = [
                QueryFixture.rows.select(SQLExpression.function("abs(1); DROP TABLE player; --", Column("id"))),
                QueryFixture.rows.filter(Column("id\u{0}\"; DROP TABLE player; --") == 1),
                QueryFixture.rows.select(Column("id").aliased("n\u{0}")),
            ]
            for query in queries {
                let error = #expect(throws: DatabaseError.self) { try query.fetchAll(conn) }
                #expect(error?.kind == .invalidQuery)
            }
            #expect(try QueryFixture.players.fetchCount(conn) == 5)
        }
    }

    @Test func aFragmentCannotSmuggleASecondStatement() throws {
        try withQueryFixture { conn throws in
            let schema = try QueryFixture.schema(conn)
            let query = QueryFixture.players.filter(.sql("1); DROP TABLE player; --"))
            #expect(throws: DatabaseError.self) { try query.fetchAll(conn) }
            #expect(throws: DatabaseError.self) { try query.deleteAll(conn) }
            #expect(try QueryFixture.schema(conn) == schema)
            #expect(try QueryFixture.players.fetchCount(conn) == 5)
        }
    }
}
