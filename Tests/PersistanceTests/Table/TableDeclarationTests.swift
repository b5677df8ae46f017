import Foundation
import Testing

@testable import Persistance

private typealias Player = RecordFixtures.Player

@Suite struct TableDeclarationTests {
    @Test func createsTableAndIndexesOnceAndReportsThem() throws {
        try withTemporaryConnection { conn, _ throws in
            let players = RecordFixtures.players
            try players.create(in: conn)
            try players.create(in: conn)
            #expect(try players.exists(in: conn))

            let columns = try players.columnInfo(in: conn)
            #expect(columns.map(\.name) == ["id", "name", "score", "age"])
            #expect(columns.map(\.type) == ["INTEGER", "TEXT", "REAL", "INTEGER"])
            #expect(columns.map(\.isNotNull) == [false, true, false, false])
            #expect(columns.map(\.defaultSQL) == [nil, nil, "0", nil])
            #expect(columns.map(\.primaryKeyPosition) == [1, 0, 0, 0])

            let indexes = try players.indexInfo(in: conn)
            let scoreIndex = indexes.first { $0.name == "player_score" }
            let score = try #require(scoreIndex)
            #expect(score.columns == ["score"] && !score.isUnique && score.origin == "c")
            let hasUniqueNameIndex = indexes.contains { $0.columns == ["name"] && $0.isUnique && $0.origin == "u" }
            #expect(hasUniqueNameIndex)
            #expect(try conn.fetchOne(String.self, "SELECT sql FROM sqlite_master WHERE name = 'player'")?
                .contains("AUTOINCREMENT") == true)
        }
    }

    @Test func createsItselfAndItsIndexesOnFirstUse() throws {
        try withTemporaryConnection { conn, _ throws in
            let players = RecordFixtures.players
            #expect(try !players.exists(in: conn))
            #expect(try players.find(primaryKey: 1, in: conn) == nil)
            #expect(try players.exists(in: conn))
            let hasScoreIndex = try players.indexInfo(in: conn).contains { $0.name == "player_score" }
            #expect(hasScoreIndex)
            try players.drop(in: conn)
            #expect(try players.count(in: conn) == 0)
            try players.drop(in: conn)
            #expect(try players.insert(Player(id: nil, name: "Ann", score: 1), in: conn) == 1)
        }
    }

    @Test func reportsNothingForAMissingTable() throws {
        try withTemporaryConnection { conn, _ throws in
            #expect(try RecordFixtures.players.columnInfo(in: conn).isEmpty)
            #expect(try RecordFixtures.players.indexInfo(in: conn).isEmpty)
        }
    }

    @Test func readOnlyConnectionDoesNotCreate() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("db.sqlite")
        try Connection(path: path).close()
        var options = Connection.Options()
        options.mode = .readOnly
        let reader = try Connection(path: path, options: options)
        let error = #expect(throws: DatabaseError.self) { try RecordFixtures.players.count(in: reader) }
        #expect(error?.message.contains("no such table") == true)
        #expect(try !RecordFixtures.players.exists(in: reader))
    }

    @Test func otherErrorsAreNotMistakenForAMissingTable() throws {
        try withTemporaryConnection { conn, _ throws in
            try RecordFixtures.players.create(in: conn)
            let error = #expect(throws: DatabaseError.self) {
                try RecordFixtures.players.findAll(where: "no_such_column = 1", in: conn)
            }
            #expect(error?.resultCode == .error)
            #expect(error?.message.contains("no_such_column") == true)
        }
    }

    @Test func primaryKeyComesFromTheTableOrTheColumn() {
        let named = Table<Row>("t", primaryKey: "code", columns: [.text("code"), .text("name")])
        #expect(named.primaryKey == "code")
        #expect(named.columns[0].primaryKey == .plain)
        #expect(RecordFixtures.players.primaryKey == "id")
        #expect(RecordFixtures.playerObjects.primaryKey == "id")
        #expect(Table<Row>("t", columns: [.text("name")]).primaryKey == nil)
    }

    @Test func tableWithoutPrimaryKeyUsesRowID() throws {
        try withTemporaryConnection { conn, _ throws in
            let notes = Table<Row>("note", columns: [.text("body")])
            let id = try notes.insert(["body": "a"], in: conn)
            #expect(try notes.find(primaryKey: id, in: conn) == ["body": "a"])
            #expect(try notes.update(["body": "b"], forPrimaryKey: id, in: conn))
            #expect(try notes.findLatest(in: conn) == ["body": "b"])
            let error = #expect(throws: DatabaseError.self) { try notes.update(["body": "c"], in: conn) }
            #expect(error?.kind == .missingPrimaryKey)
            #expect(try notes.delete(primaryKey: id, in: conn))
        }
    }

    @Test func textPrimaryKey() throws {
        try withTemporaryConnection { conn, _ throws in
            let words = Table<Row>("word", primaryKey: "text", columns: [.text("text"), .integer("length")])
            var word: Row = ["text": "casa", "length": 4]
            try words.insert(&word, in: conn)
            #expect(word == ["text": "casa", "length": 4])
            #expect(try words.find(primaryKey: "casa", in: conn) == word)
            #expect(try words.upsert(["text": "casa", "length": 5], uniqueKey: "text", in: conn) == 1)
            #expect(try words.find(primaryKey: "casa", in: conn)?["length"] == 5)
        }
    }

    @Test func declaredDefaultsOfEveryKind() throws {
        try withTemporaryConnection { conn, _ throws in
            let table = Table<Row>(
                "defaults",
                columns: [
                    .integer("id", primaryKey: .plain), .text("text", default: "c'asa"),
                    .integer("negative", default: -7), .real("real", default: 0.1),
                    .real("huge", default: .real(.infinity)), .blob("blob", default: .blob(Data([0, 0xAB, 0xFF]))),
                    .text("nothing", default: nil),
                ])
            let id = try table.insert(["id": 1], in: conn)
            let expected: Row = [
                "id": 1, "text": "c'asa", "negative": -7, "real": 0.1, "huge": .real(.infinity),
                "blob": .blob(Data([0, 0xAB, 0xFF])), "nothing": nil,
            ]
            #expect(try table.find(primaryKey: id, in: conn) == expected)
            try conn.execute("INSERT INTO defaults (id) VALUES (2)")
            var second = expected
            second["id"] = 2
            #expect(try table.find(primaryKey: 2, in: conn) == second)
        }
    }

    @Test func identifiersWithQuotesWork() throws {
        try withTemporaryConnection { conn, _ throws in
            let table = Table<Row>(
                "we\"ird table", primaryKey: "i\"d",
                columns: [.integer("i\"d", primaryKey: .autoincrement), .text("na\"me", unique: true), .text("select")],
                indexes: [.index("in\"dex", on: ["select"])])
            var row: Row = ["i\"d": nil, "na\"me": "Ann", "select": "x"]
            try table.insert(&row, in: conn)
            #expect(row["i\"d"] == 1)
            #expect(try table.find(primaryKey: 1, in: conn) == row)
            #expect(try table.findAll(where: "na\"me", equals: "Ann", in: conn) == [row])
            #expect(try table.upsert(["na\"me": "Ann", "select": "y"], uniqueKey: "na\"me", in: conn) == 1)
            #expect(try table.update(["select": "z"], forPrimaryKey: 1, in: conn))
            #expect(try table.count(where: "\"select\" = ?", ["z"], in: conn) == 1)
            let hasQuotedIndex = try table.indexInfo(in: conn).contains { $0.name == "in\"dex" && $0.columns == ["select"] }
            #expect(hasQuotedIndex)
            try table.truncate(in: conn)
            #expect(try table.count(in: conn) == 0)
        }
    }

    static let invalidDeclarations: [(String, Table<Row>)] = [
        ("empty name", Table<Row>("", columns: [.text("a")])),
        ("no columns", Table<Row>("t", columns: [])),
        ("empty column name", Table<Row>("t", columns: [.text("")])),
        ("duplicate column", Table<Row>("t", columns: [.text("a"), .integer("A")])),
        ("two primary keys", Table<Row>("t", columns: [.integer("a", primaryKey: .plain), .text("b", primaryKey: .plain)])),
        ("unknown primary key", Table<Row>("t", primaryKey: "b", columns: [.text("a")])),
        ("conflicting primary key", Table<Row>("t", primaryKey: "b", columns: [.integer("a", primaryKey: .plain), .text("b")])),
        ("autoincrement text", Table<Row>("t", columns: [.text("a", primaryKey: .autoincrement)])),
        ("NaN default", Table<Row>("t", columns: [.real("a", default: .real(.nan))])),
        ("index on unknown column", Table<Row>("t", columns: [.text("a")], indexes: [.index("i", on: ["b"])])),
        ("index without columns", Table<Row>("t", columns: [.text("a")], indexes: [.index("i", on: [])])),
        ("index without name", Table<Row>("t", columns: [.text("a")], indexes: [.index("", on: ["a"])])),
        ("duplicate index", Table<Row>("t", columns: [.text("a")], indexes: [.index("i", on: ["a"]), .index("I", on: ["a"])])),
    ]

    @Test(arguments: invalidDeclarations)
    func invalidDeclarationFailsEveryOperation(_ reason: String, _ table: Table<Row>) throws {
        try withTemporaryConnection { conn, _ throws in
            let operations: [(Connection) throws -> Void] = [
                { try table.create(in: $0) },
                { _ = try table.insert(["a": 1], in: $0) },
                { _ = try table.findAll(in: $0) },
                { _ = try table.count(in: $0) },
                { _ = try table.update(["a": 1], where: "1", in: $0) },
                { _ = try table.deleteAll(where: "1", in: $0) },
                { _ = try table.upsert(["a": 1], uniqueKey: "a", in: $0) },
                { try table.truncate(in: $0) },
            ]
            for operation in operations {
                let error = #expect(throws: DatabaseError.self, "\(reason)") { try operation(conn) }
                #expect(error?.kind == .invalidTable, "\(reason)")
            }
            let tables = try conn.fetchOne(Int.self, "SELECT count(*) FROM sqlite_master")
            #expect(tables == 0, "\(reason)")
        }
    }
}
