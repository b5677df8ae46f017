import Foundation
import PersistanceMacros
import Testing

@testable import PersistanceMacroPlugin

@Table("snake_task", columnNaming: .snakeCase)
struct SnakeTask: Equatable {
    var id: Int64?
    var createdAt: Date
    var userID: Int64
    var htmlURL: String
    @Column("Custom") var named: String
    var plain: Int
}

/// `@Table(columnNaming: .snakeCase)`: every unnamed property's column in snake case.
@Suite struct ColumnNamingTests {
    @Test func columnsAreNamedInSnakeCase() {
        #expect(SnakeTask.databaseColumns == ["id", "created_at", "user_id", "html_url", "Custom", "plain"])
        #expect(SnakeTask.table.columns.map(\.name) == SnakeTask.databaseColumns)
        #expect(SnakeTask.columns.userID.name == "user_id")
    }

    @Test func recordsRoundTripAndQueriesUseTheSnakeCaseColumns() throws {
        try withTemporaryConnection { conn throws in
            let created = Date(timeIntervalSince1970: 1_700_000_000)
            var task = SnakeTask(createdAt: created, userID: 7, htmlURL: "https://x", named: "n", plain: 1)
            try SnakeTask.table.insert(&task, in: conn)
            let found = try SnakeTask.table.query().filter(SnakeTask.columns.userID == 7).fetchAll(conn)
            #expect(found == [task])
            let row = try #require(try conn.fetchOne("SELECT created_at, user_id, html_url FROM snake_task"))
            #expect(row["user_id"] == .integer(7))
        }
    }

    @Test(arguments: [
        ("createdAt", "created_at"), ("userID", "user_id"), ("htmlURL", "html_url"), ("HTMLPage", "html_page"),
        ("isHTMLSafe", "is_html_safe"), ("URL", "url"), ("already_snake", "already_snake"), ("x", "x"),
        ("version2Name", "version2_name"), ("a_B", "a_b"),
    ])
    func snakeCase(property: String, column: String) {
        #expect(RecordProperty.column(forProperty: property, snakeCase: true) == column)
        #expect(RecordProperty.column(forProperty: property, snakeCase: false) == property)
    }
}
