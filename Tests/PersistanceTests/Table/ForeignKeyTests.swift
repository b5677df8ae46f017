import Foundation
import Testing

@testable import Persistance

/// Foreign keys declared on a column: the constraint, its actions, the index that comes with
/// it, and declared schemas that create and check them.
@Suite struct ForeignKeyTests {
    static let teams = Table<Row>("team", primaryKey: "id", columns: [
        .integer("id", primaryKey: .autoincrement),
        .text("name", notNull: true),
    ])

    static func players(onDelete: ForeignKey.Action, name: String = "player") -> Table<Row> {
        Table<Row>(name, primaryKey: "id", columns: [
            .integer("id", primaryKey: .autoincrement),
            .text("name", notNull: true),
            .integer("team_id").references("team", onDelete: onDelete),
        ])
    }

    private func withTeams(_ body: (Connection) throws -> Void) throws {
        try withTemporaryConnection { conn, _ throws in
            try Self.teams.insert(Row([("name", "Reds")]), in: conn)
            try Self.teams.insert(Row([("name", "Blues")]), in: conn)
            try body(conn)
        }
    }

    private func playerTeams(_ conn: Connection, table: String = "player") throws -> [Int64?] {
        try conn.fetchAll(Int64?.self, "SELECT team_id FROM \(TableSchema.quote(table)) ORDER BY id")
    }

    @Test func aRowMustReferToAnExistingRow() throws {
        try withTeams { conn throws in
            let players = Self.players(onDelete: .cascade)
            try players.insert(Row([("name", "Ann"), ("team_id", 1)]), in: conn)
            let orphan = { try players.insert(Row([("name", "Bob"), ("team_id", 99)]), in: conn) }
            let error = try #require(throws: DatabaseError.self, performing: orphan)
            #expect(error.extendedResultCode == .constraintForeignKey)
            #expect(try playerTeams(conn) == [1])
        }
    }

    @Test func deletingTheReferencedRowAppliesTheAction() throws {
        try withTeams { conn throws in
            let cascading = Self.players(onDelete: .cascade)
            let nulling = Self.players(onDelete: .setNull, name: "fan")
            for table in [cascading, nulling] {
                try table.insert(Row([("name", "Ann"), ("team_id", 1)]), in: conn)
                try table.insert(Row([("name", "Bob"), ("team_id", 2)]), in: conn)
            }
            _ = try Self.teams.delete(primaryKey: 1, in: conn)
            #expect(try playerTeams(conn) == [2])
            #expect(try playerTeams(conn, table: "fan") == [nil, 2])
            let restricted = Self.players(onDelete: .restrict, name: "coach")
            try restricted.insert(Row([("name", "Cid"), ("team_id", 2)]), in: conn)
            let deleteReferenced = { _ = try Self.teams.delete(primaryKey: 2, in: conn) }
            #expect(throws: DatabaseError.self, performing: deleteReferenced)
        }
    }

    @Test func theReferencingColumnIsIndexedUnlessAnIndexStartsWithIt() throws {
        try withTeams { conn throws in
            let players = Self.players(onDelete: .noAction)
            try players.create(in: conn)
            let indexes = try conn.fetchAll(String.self, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'player'")
            #expect(indexes == ["player_team_id_fkey"])
            let sql = try conn.fetchOne(String.self, "SELECT sql FROM sqlite_master WHERE name = 'player'")
            #expect(sql?.contains(#""team_id" INTEGER REFERENCES "team""#) == true)

            let covered = Table<Row>("member", columns: [
                .integer("team_id").references("team", column: "id", onUpdate: .cascade), .text("role"),
            ], indexes: [.index("member_by_team", on: ["team_id", "role"])])
            try covered.create(in: conn)
            let memberIndexes = try conn.fetchAll(String.self, "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'member'")
            #expect(memberIndexes == ["member_by_team"])
        }
    }

    @Test func quotedNamesAreReferencedAsTheyAre() throws {
        try withTemporaryConnection { conn, _ throws in
            let odd = Table<Row>("we\"ird team", primaryKey: "key", columns: [.text("key", primaryKey: .plain)])
            let refs = Table<Row>("refs", columns: [.text("k").references("we\"ird team", column: "key", onDelete: .cascade)])
            try odd.insert(Row([("key", "a")]), in: conn)
            try refs.insert(Row([("k", "a")]), in: conn)
            _ = try odd.delete(primaryKey: "a", in: conn)
            #expect(try conn.fetchOne(Int.self, "SELECT count(*) FROM refs") == 0)
        }
    }

    @Test func aReferenceToNoTableIsAnInvalidDeclaration() throws {
        try withTemporaryConnection { conn, _ throws in
            let bad = Table<Row>("bad", columns: [.integer("x").references("")])
            let create = { try bad.create(in: conn) }
            let error = try #require(throws: DatabaseError.self, performing: create)
            #expect(error.kind == .invalidTable)
        }
    }

    @Test func declaredSchemasCreateAndCheckForeignKeys() async throws {
        let directory = try TemporaryDirectory()
        // A file whose player table has no foreign key yet.
        let plain = Table<Row>("player", primaryKey: "id", columns: [
            .integer("id", primaryKey: .autoincrement), .text("name", notNull: true), .integer("team_id"),
        ])
        var configuration = DatabaseConfiguration(path: directory.path("league.sqlite"))
        configuration.tables = [Self.teams, plain]
        try await Database.open(configuration: configuration).close()

        configuration.tables = [Self.teams, Self.players(onDelete: .cascade)]
        do {
            _ = try await Database.open(configuration: configuration)
            Issue.record("a file whose column lacks its declared foreign key opened")
        } catch let error as DatabaseError {
            #expect(error.kind == .schemaMismatch)
            #expect(error.message.contains("team_id"))
            #expect(error.message.contains("migration step"))
        }

        // A new file gets the key; opening it again with the same declaration changes nothing.
        var fresh = DatabaseConfiguration(path: directory.path("fresh.sqlite"))
        fresh.tables = [Self.teams, Self.players(onDelete: .cascade)]
        try await Database.open(configuration: fresh).close()
        let db = try await Database.open(configuration: fresh)
        let keys = try await db.read { conn in try conn.fetchAll("PRAGMA foreign_key_list(player)") }
        #expect(keys.count == 1)
        #expect(try keys.first?.value(named: "on_delete") == "CASCADE")
        try await db.close()
    }

    @Test func aMissingReferencingColumnIsAddedWithItsKey() async throws {
        let directory = try TemporaryDirectory()
        let before = Table<Row>("player", primaryKey: "id", columns: [
            .integer("id", primaryKey: .autoincrement), .text("name", notNull: true),
        ])
        var configuration = DatabaseConfiguration(path: directory.path("league.sqlite"))
        configuration.tables = [Self.teams, before]
        try await Database.open(configuration: configuration).close()
        configuration.tables = [Self.teams, Self.players(onDelete: .setNull)]
        let db = try await Database.open(configuration: configuration)
        let keys = try await db.read { conn in try conn.fetchAll("PRAGMA foreign_key_list(player)") }
        #expect(try keys.map { try $0.value(named: "from") as String } == ["team_id"])
        try await db.close()
    }
}
