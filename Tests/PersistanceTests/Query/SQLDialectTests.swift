import Foundation
import Testing

@testable import Persistance

/// A dialect unlike SQLite's: backquoted identifiers, numbered `$n` parameters, `TRUE`/`FALSE`,
/// OFFSET without LIMIT. It proves that the builder's text goes through the dialect.
struct NumberedTestDialect: SQLDialect {
    func appendQuotedIdentifier(_ identifier: String, to sql: inout [UInt8]) throws {
        try appendIdentifier(identifier, quotedWith: UInt8(ascii: "`"), to: &sql)
    }

    func appendPlaceholder(_ position: Int, to sql: inout [UInt8]) {
        sql.append(contentsOf: "$\(position)".utf8)
    }

    func literal(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    var requiresLimitWithOffset: Bool { false }
    var supportsReturning: Bool { true }
    var supportsUpsert: Bool { true }
}

/// The SQL-dialect seam: every engine-specific piece of text comes from the dialect, and the
/// render cache keeps one text per dialect.
@Suite struct SQLDialectTests {
    static let query = RelTeam.table.query()
        .leftJoin(RelPlayer.self) { team, player in player.teamID == team.id && player.points > 2 }
        .filter { team, _ in team.city != "Paris" && team.id.in([Int64?]()) == false }
        .group { team, _ in team.name }
        .having { _, player in player.points.sum() > 5 }
        .select { team, player in (team.name, player.points.sum()) }
        .limit(10, offset: 2)

    @Test func rendersAJoinAndAggregateInAnotherDialect() throws {
        let sql = try Self.query.clauses.sql(.select, in: NumberedTestDialect())
        #expect(sql.sql == """
            SELECT `rel_team`.`name`, sum(`rel "player"`.`points`) FROM `rel_team` \
            LEFT JOIN `rel "player"` ON `rel "player"`.`team "id"` = `rel_team`.`id` AND `rel "player"`.`points` > $1 \
            WHERE `rel_team`.`city` <> $2 AND FALSE = $3 \
            GROUP BY `rel_team`.`name` HAVING sum(`rel "player"`.`points`) > $4 LIMIT $5 OFFSET $6
            """)
        #expect(sql.values == [.integer(2), .text("Paris"), .integer(0), .integer(5), .integer(10), .integer(2)])
    }

    @Test func offsetAloneFollowsTheDialect() throws {
        var clauses = RelTeam.table.query().clauses
        clauses.offset = 3
        #expect(try clauses.sql(.select, in: NumberedTestDialect()).sql == "SELECT * FROM `rel_team` OFFSET $1")
        #expect(try clauses.sql(.select, in: SQLiteDialect()).sql.hasSuffix(#"FROM "rel_team" LIMIT ? OFFSET ?"#))
    }

    @Test func theCacheKeepsOneTextPerDialect() throws {
        let sqlite = try Self.query.clauses.sql(.select).sql
        let numbered = try Self.query.clauses.sql(.select, in: NumberedTestDialect()).sql
        #expect(sqlite != numbered)
        #expect(try Self.query.clauses.sql(.select, in: SQLiteDialect()).sql == sqlite)
        #expect(try Self.query.clauses.sql(.select, in: NumberedTestDialect()).sql == numbered)
        #expect(sqlite.contains(#""rel_team"."name""#))
    }

    @Test func sqliteDialectFollowsTheEngine() {
        let dialect: any SQLDialect = SQLiteDialect.sqlite
        #expect(dialect.supportsReturning == SQLiteEngine.supportsReturning)
        #expect(dialect.supportsUpsert == SQLiteEngine.supportsUpsert)
        #expect(dialect.literal(true) == "1")
    }

    @Test func aNulInAnIdentifierIsATypedError() {
        let query = Query<Row>(table: "bad\u{0}name")
        let error = #expect(throws: DatabaseError.self) { try query.clauses.sql(.select, in: NumberedTestDialect()) }
        #expect(error?.kind == .invalidQuery)
    }
}
